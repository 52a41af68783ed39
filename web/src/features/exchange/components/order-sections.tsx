// The parts of the order page (spec/exchange.md §2): the deposit instructions with a QR code,
// and the receipt — amounts, the rate they imply, the order's windows while they matter, and
// each transaction with a link to a public explorer. Paid in over Lightning, the deposit is an
// invoice to pay (its QR code the `lightning:` URI); paid out, the destination is an invoice.
import { AlertTriangle, ExternalLink, Zap } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { CoinIcon } from '@/components/coin-icon';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { paths } from '@/config/paths';
import { formatAmount, formatRate, formatTime, formatUsd, toFinite } from '@/lib/format';

import { isLightning } from '../lib/lightning';
import { tagLabel } from '../lib/tag-label';
import type { Order, OrderTransaction } from '../types';

/** The order's own link: its page with the token that opens it anywhere. */
export function orderLink(order: Pick<Order, 'id' | 'token'>): string {
  return paths.orderLink(order.id, order.token);
}

const coinOf = (side: Order['from']) => side.coin ?? side.code;

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-slate-100 py-2 text-sm last:border-0">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 text-right font-medium break-all">{children}</dd>
    </div>
  );
}

/** A long invoice in a line: its start (the network and amount) and its end, whole on hover. */
function shortInvoice(invoice: string): string {
  return invoice.length > 32 ? `${invoice.slice(0, 18)}…${invoice.slice(-10)}` : invoice;
}

/** The deposit's QR code; what it encodes is on `data-qr-value` too. */
function DepositQr({ value, title, size }: { value: string; title: string; size: number }) {
  return (
    <div
      data-testid="deposit-qr"
      data-qr-value={value}
      className="rounded-lg bg-white p-2 ring-1 ring-slate-200 dark:bg-[#fff]"
    >
      {/* A long invoice needs the lower error correction to stay scannable at this size. */}
      <QRCodeSVG value={value} level={value.length > 200 ? 'M' : 'H'} size={size} title={title} />
    </div>
  );
}

/** Paid in over Lightning: the invoice the exchange signed for the amount to send. */
function LightningDeposit({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const coin = coinOf(order.from);
  const invoice = order.from.address;
  // What a wallet opens to pay it (BOLT 11's URI scheme), by a link or the QR code.
  const uri = `lightning:${invoice}`;
  return (
    <section aria-labelledby="payment-title" className="space-y-3">
      <h3 id="payment-title" className="font-semibold">
        {t('exchange.lightning.payTitle')}
      </h3>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <DepositQr value={uri} title={t('exchange.lightning.invoiceQr')} size={208} />
        <div className="w-full min-w-0 flex-1 space-y-2">
          <p className="text-sm text-slate-700">
            {t('exchange.lightning.payInvoice', {
              amount: formatAmount(order.from.amount, i18n.language),
              coin,
            })}
          </p>
          <div className="flex items-start gap-1 rounded-lg bg-slate-50 p-2">
            <code
              data-testid="deposit-address"
              className="min-w-0 flex-1 font-mono text-xs break-all"
            >
              {invoice}
            </code>
            <CopyButton
              value={invoice}
              what={t('exchange.lightning.invoice')}
              successMessage={t('exchange.lightning.invoiceCopied')}
            />
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <a href={uri} className={buttonVariants({ className: 'w-full sm:w-auto' })}>
              <Zap aria-hidden="true" className="size-4" />
              {t('exchange.lightning.openWallet')}
            </a>
            <p className="text-sm">
              <span className="text-slate-600">{t('order.amountToSend')} </span>
              <span data-testid="deposit-amount" className="font-semibold">
                {order.from.amount} {coin}
              </span>
            </p>
          </div>
          <p className="flex gap-2 rounded-lg bg-amber-50 p-2 text-xs text-amber-950">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {t('exchange.lightning.payNote')}
          </p>
        </div>
      </div>
    </section>
  );
}

export function DepositInstructions({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  if (isLightning(order.from)) return <LightningDeposit order={order} />;
  const coin = coinOf(order.from);
  const tagName = tagLabel(order.from.tagName, t);
  const amount = formatAmount(order.from.amount, i18n.language);
  return (
    <section aria-labelledby="payment-title" className="space-y-3">
      <h3 id="payment-title" className="font-semibold">
        {t('order.payment')}
      </h3>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <DepositQr value={order.from.address} title={t('order.qrLabel')} size={148} />
        <div className="w-full min-w-0 flex-1 space-y-2">
          <p className="text-sm text-slate-700">{t('order.depositAddress', { amount, coin })}</p>
          <div className="flex items-center gap-1 rounded-lg bg-slate-50 p-2">
            <code data-testid="deposit-address" className="min-w-0 flex-1 text-sm break-all">
              {order.from.address}
            </code>
            <CopyButton
              value={order.from.address}
              what={t('order.depositAddress', { amount, coin })}
              successMessage={t('toast.addressCopied')}
            />
          </div>
          <div className="flex items-center gap-1 rounded-lg bg-slate-50 p-2">
            <span className="min-w-0 flex-1 text-sm">
              <span className="text-slate-600">{t('order.amountToSend')} </span>
              <span data-testid="deposit-amount" className="font-semibold">
                {order.from.amount} {coin}
              </span>
            </span>
            <CopyButton
              value={order.from.amount}
              what={t('order.amountToSend')}
              successMessage={t('order.amountCopied')}
            />
          </div>
          {order.from.tag ? (
            <div className="rounded-lg border-2 border-amber-400 bg-amber-50 p-2">
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-semibold">{tagName}</span>
                <Badge tone="attention" size="sm">
                  {t('order.tagRequired')}
                </Badge>
              </div>
              <div className="flex items-center gap-1">
                <code className="flex-1 text-lg font-semibold">{order.from.tag}</code>
                <CopyButton
                  value={order.from.tag}
                  what={tagName}
                  successMessage={t('toast.tagCopied')}
                />
              </div>
              <p className="text-xs text-amber-950">
                {t('order.tagWarning', { label: tagName.toLocaleLowerCase(i18n.language) })}
              </p>
            </div>
          ) : null}
          <p className="flex gap-2 rounded-lg bg-red-50 p-2 text-xs text-red-900">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {t('order.sendOnly', { coin, network: order.from.network ?? '' })}
          </p>
        </div>
      </div>
    </section>
  );
}

/**
 * What the customer sends and receives: what moved once it has, else what was ordered. A
 * deposit other than the one ordered (a short one, a late one) pays out what is decided
 * later: until the payout, its receive amount is unknown (null), never the ordered one.
 */
export function receiptAmounts(order: Order): { send: string; receive: string | null } {
  const received = order.from.received;
  const send = received ?? order.from.amount;
  const offOrder = received != null && Number(received) !== Number(order.from.amount);
  const receive = order.to.sent ?? (offOrder ? null : order.to.amount);
  return { send, receive };
}

/**
 * The rate the amounts shown imply (receive ÷ send), so the receipt adds up; null when it
 * cannot be worked out.
 */
export function impliedRate(send: string, receive: string | null): number | null {
  const s = toFinite(send);
  const r = toFinite(receive);
  return s && r !== null && s > 0 ? r / s : null;
}

function AmountCard({
  title,
  side,
  amount,
  usd,
  testId,
}: {
  title: string;
  side: Order['from'];
  amount: string | null;
  usd: string | null;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3">
      <p className="text-xs text-slate-600">{title}</p>
      <p className="mt-1 flex min-w-0 items-center gap-2 text-lg font-semibold">
        <CoinIcon coin={coinOf(side)} />
        <span data-testid={testId} data-amount={amount ?? ''} className="min-w-0 break-all">
          {amount === null ? '—' : `${formatAmount(amount, i18n.language)} ${coinOf(side)}`}
        </span>
      </p>
      {usd !== null ? (
        <p className="text-xs text-slate-600">
          {t('exchange.approxUsd', { value: formatUsd(usd, i18n.language) })}
        </p>
      ) : null}
    </div>
  );
}

export function OrderSummary({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { send, receive } = receiptAmounts(order);
  const refunded = order.status === 'REFUNDED';
  const rate = impliedRate(send, receive);
  // The windows matter only while the order waits for its deposit.
  const waiting = order.status === 'NEW';
  const fixedUntil = order.type === 'fixed' ? order.time.rateExpiration : null;
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <AmountCard
          title={t('order.youSend')}
          side={order.from}
          amount={send}
          usd={order.from.received ? null : order.from.usd}
          testId="amount-sent"
        />
        {refunded ? (
          <RefundCard order={order} />
        ) : (
          <AmountCard
            title={t('order.youReceive')}
            side={order.to}
            amount={receive}
            usd={order.to.sent || receive === null ? null : order.to.usd}
            testId="amount-received"
          />
        )}
      </div>
      <dl>
        <Detail term={t('order.orderId')}>
          <span className="inline-flex items-center gap-1">
            <span data-testid="order-id">{order.id}</span>
            <CopyButton
              value={order.id}
              what={t('order.orderId')}
              successMessage={t('toast.orderIdCopied')}
            />
          </span>
        </Detail>
        {!refunded && rate !== null ? (
          <Detail term={t('order.rate')}>
            <span data-testid="order-rate" data-rate={rate}>
              {t('order.rateLine', {
                from: coinOf(order.from),
                rate: formatRate(rate, i18n.language),
                to: coinOf(order.to),
              })}
            </span>
          </Detail>
        ) : null}
        <Detail term={t('order.createdAt')}>{formatTime(order.time.reg, i18n.language)}</Detail>
        {waiting && fixedUntil ? (
          <Detail term={t('order.rateLockedUntil')}>{formatTime(fixedUntil, i18n.language)}</Detail>
        ) : null}
        {waiting ? (
          <Detail term={t('order.depositBy')}>
            {formatTime(order.time.expiration, i18n.language)}
          </Detail>
        ) : null}
        {order.time.finish && !waiting ? (
          <Detail term={t('order.finishedAt')}>
            {formatTime(order.time.finish, i18n.language)}
          </Detail>
        ) : null}
        <Detail term={t('order.rateType')}>
          {order.type === 'fixed' ? t('order.rateFixed') : t('order.rateFloat')}
        </Detail>
        {isLightning(order.to) ? (
          <Detail term={t('exchange.lightning.invoice')}>
            <span className="inline-flex items-center gap-1">
              <span data-testid="destination" title={order.to.address} className="font-mono">
                {shortInvoice(order.to.address)}
              </span>
              <CopyButton
                value={order.to.address}
                what={t('exchange.lightning.invoice')}
                successMessage={t('exchange.lightning.invoiceCopied')}
              />
            </span>
          </Detail>
        ) : (
          <Detail term={t('order.destination')}>
            <span data-testid="destination" className="font-mono">
              {order.to.address}
            </span>
          </Detail>
        )}
      </dl>
    </div>
  );
}

/** After a refund: what came back, where to, and the transaction. */
function RefundCard({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const amount = order.refund.amount ?? order.transactions?.refund?.amount ?? null;
  const coin = coinOf(order.from);
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3">
      <p className="text-xs text-slate-600">{t('order.refundedTitle')}</p>
      <p className="mt-1 flex min-w-0 items-center gap-2 text-lg font-semibold">
        <CoinIcon coin={coin} />
        <span data-testid="refund-amount" className="min-w-0 break-all">
          {amount ? `${formatAmount(amount, i18n.language)} ${coin}` : t('order.refundPending')}
        </span>
      </p>
      {order.refund.address ? (
        <p className="mt-1 text-xs text-slate-700">
          {t('order.refundedTo')}{' '}
          <span data-testid="refund-address" className="font-mono break-all">
            {order.refund.address}
          </span>
        </p>
      ) : null}
    </div>
  );
}

function TransactionRow({
  label,
  tx,
  coin,
}: {
  label: string;
  tx: OrderTransaction;
  coin: string;
}) {
  const { t, i18n } = useTranslation();
  const short = tx.id.length > 20 ? `${tx.id.slice(0, 10)}…${tx.id.slice(-8)}` : tx.id;
  return (
    <li className="space-y-1 border-b border-slate-100 py-2 text-sm last:border-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{label}</span>
        <span>
          {formatAmount(tx.amount, i18n.language)} {coin}
          {tx.confirmations !== null
            ? ` · ${t('order.confirmations', { count: tx.confirmations })}`
            : ''}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        {tx.explorer ? (
          <a
            href={tx.explorer}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-11 items-center gap-1 font-mono text-teal-800 underline"
            aria-label={t('order.viewTransaction', { what: label })}
          >
            {short}
            <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        ) : (
          <span className="font-mono break-all">{short}</span>
        )}
        <CopyButton value={tx.id} what={t('order.transactionId', { what: label })} />
      </div>
    </li>
  );
}

/** The order's transactions on their networks, each with its explorer link. */
export function Transactions({ order }: { order: Order }) {
  const { t } = useTranslation();
  const txs = order.transactions;
  if (!txs || (!txs.deposit && !txs.payout && !txs.refund)) return null;
  return (
    <section aria-labelledby="transactions-title">
      <h2 id="transactions-title" className="font-semibold">
        {t('order.transactions')}
      </h2>
      <ul className="mt-2">
        {txs.deposit ? (
          <TransactionRow label={t('order.txDeposit')} tx={txs.deposit} coin={coinOf(order.from)} />
        ) : null}
        {txs.payout ? (
          <TransactionRow label={t('order.txPayout')} tx={txs.payout} coin={coinOf(order.to)} />
        ) : null}
        {txs.refund ? (
          <TransactionRow label={t('order.txRefund')} tx={txs.refund} coin={coinOf(order.from)} />
        ) : null}
      </ul>
    </section>
  );
}

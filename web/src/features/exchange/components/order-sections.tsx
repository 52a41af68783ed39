// The order-created view (spec/exchange.md §2): deposit instructions with a QR code, and the
// order's details. Loaded after the order is created, with the QR library.
import { AlertTriangle, ExternalLink } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { CoinIcon } from '@/components/coin-icon';
import { OrderStatusBadge } from '@/components/order-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { paths } from '@/config/paths';
import { formatTime, formatUsd } from '@/lib/format';

import { tagLabel } from '../lib/tag-label';
import type { Order } from '../types';
import { Countdown, ProgressBar } from './order-parts';

export function orderLink(order: Pick<Order, 'id' | 'token'>): string {
  return `${paths.order(order.id)}?token=${encodeURIComponent(order.token)}`;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b border-slate-100 py-2 text-sm last:border-0">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 break-all text-right font-medium">{children}</dd>
    </div>
  );
}

export function DepositInstructions({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const coin = order.from.coin ?? order.from.code;
  const tagName = tagLabel(order.from.tagName, t);
  return (
    <section aria-labelledby="payment-title" className="space-y-3">
      <h3 id="payment-title" className="font-semibold">
        {t('order.payment')}
      </h3>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <div className="rounded-lg bg-white p-2 ring-1 ring-slate-200">
          <QRCodeSVG value={order.from.address} level="H" size={148} title={t('order.qrLabel')} />
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm text-slate-700">
            {t('order.depositAddress', { amount: order.from.amount, coin })}
          </p>
          <div className="flex items-center gap-1 rounded-lg bg-slate-50 p-2">
            <code data-testid="deposit-address" className="min-w-0 flex-1 break-all text-sm">
              {order.from.address}
            </code>
            <CopyButton
              value={order.from.address}
              what={t('order.depositAddress', { amount: order.from.amount, coin })}
              successMessage={t('toast.addressCopied')}
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

export function OrderSummary({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const card = (title: string, side: Order['from'], amount: string) => (
    <div className="rounded-xl bg-slate-50 p-3">
      <p className="text-xs text-slate-600">{title}</p>
      <p className="mt-1 flex items-center gap-2 text-lg font-semibold">
        <CoinIcon coin={side.coin ?? side.code} />
        {amount} {side.coin}
      </p>
      <p className="text-xs text-slate-600">
        {t('exchange.approxUsd', { value: formatUsd(side.usd, i18n.language) })}
      </p>
    </div>
  );
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        {card(t('order.youSend'), order.from, order.from.received ?? order.from.amount)}
        {card(t('order.youReceive'), order.to, order.to.sent ?? order.to.amount)}
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
        <Detail term={t('order.rate')}>
          {t('exchange.rateLine', {
            from: order.from.coin ?? order.from.code,
            rate: order.rate,
            to: order.to.coin ?? order.to.code,
          })}
        </Detail>
        <Detail term={t('order.createdAt')}>{formatTime(order.time.reg, i18n.language)}</Detail>
        <Detail term={t('order.expiresAt')}>
          {formatTime(order.time.expiration, i18n.language)}
        </Detail>
        <Detail term={t('order.rateType')}>
          {order.type === 'fixed' ? t('order.rateFixed') : t('order.rateFloat')}
        </Detail>
        <Detail term={t('order.destination')}>
          <span className="font-mono">{order.to.address}</span>
        </Detail>
      </dl>
    </div>
  );
}

export default function OrderCreated({
  order,
  onNewExchange,
}: {
  order: Order;
  onNewExchange: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      as="section"
      padding="responsive"
      aria-labelledby="order-created-title"
      className="space-y-5 shadow-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="space-y-2">
          <h2 id="order-created-title" className="text-xl font-semibold">
            {t('order.title')}
          </h2>
          <div className="flex items-center gap-2">
            <span className="text-sm text-slate-600">{t('order.details')}</span>
            <OrderStatusBadge status={order.status} />
          </div>
        </div>
        <Countdown deadline={order.time.expiration} />
      </div>
      <ProgressBar status={order.status} />
      <DepositInstructions order={order} />
      <OrderSummary order={order} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="outline" className="flex-1" onClick={onNewExchange}>
          {t('order.newExchange')}
        </Button>
        <a
          href={orderLink(order)}
          target="_blank"
          rel="noopener"
          className="inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-lg bg-teal-700 px-4 text-sm font-medium text-white hover:bg-teal-800"
        >
          {t('order.viewDetails')}
          <ExternalLink aria-hidden="true" className="size-4" />
        </a>
      </div>
    </Card>
  );
}

// The order page, /order/{id} and /order-details/{id} (spec/exchange.md §2): the order's own
// page from the second it is created (its first state is the order-created view: deposit
// instructions, QR code and the countdowns), live over the server's event stream until it is
// final, with the refund-or-continue choice in EMERGENCY and a receipt that adds up after.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { isFinalStatus, isRunningStatus } from '@/lib/order-status';
import { useSiteConfig } from '@/lib/site-config';

import { orderQueryOptions, setRefundAddress, simulateDeposit } from '../api/orders';
import { pollInterval, useOrderEvents } from '../hooks/use-order-events';
import { NEW_EXCHANGE_AMOUNT } from '../lib/constants';
import { isLightning } from '../lib/lightning';
import { rememberedOrderToken, rememberOrderToken } from '../lib/order-tokens';
import type { Order } from '../types';
import { EmergencyChoice } from './emergency-choice';
import { OrderLinkCard } from './order-link-card';
import { Countdown, ProgressBar } from './order-parts';
import { DepositInstructions, OrderSummary, Transactions } from './order-sections';
import { ORDER_ID_PATTERN, PublicStatus } from './public-status';

/** The refund address can be set or changed until the order finishes. */
function RefundAddressForm({ order, onDone }: { order: Order; onDone: (order: Order) => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [editing, setEditing] = useState(false);
  const [address, setAddress] = useState(order.refund.address ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await setRefundAddress(order, address.trim()));
      setEditing(false);
      notify(t('order.refundSaved'), { variant: 'success' });
    } catch (e) {
      setError(e instanceof Error ? e.message : '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card as="section" padding="responsive" aria-labelledby={`${ids}-title`} className="space-y-2">
      <h2 id={`${ids}-title`} className="font-semibold">
        {t('order.refundAddress', { coin: order.from.coin ?? order.from.code })}
      </h2>
      {!editing ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="font-mono text-sm break-all text-slate-800">
            {order.refund.address ?? t('order.refundNone')}
          </p>
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            {order.refund.address ? t('order.refundChange') : t('order.refundAdd')}
          </Button>
        </div>
      ) : (
        <form onSubmit={(e) => void save(e)} className="space-y-2">
          <Input
            aria-label={t('order.refundAddress', { coin: order.from.coin ?? order.from.code })}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            className="font-mono text-sm"
            autoComplete="off"
            spellCheck={false}
          />
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy || !address.trim()}>
              {t('order.refundSave')}
            </Button>
            <Button variant="outline" size="sm" onClick={() => setEditing(false)}>
              {t('order.refundCancel')}
            </Button>
          </div>
        </form>
      )}
      <p className="text-xs text-slate-600">{t('order.refundHint')}</p>
    </Card>
  );
}

/**
 * On a sandbox exchange no coin can really be sent: the visitor pretends to send the deposit,
 * of the ordered amount or another, and watches the order go on (or ask for a decision).
 */
function SandboxDeposit({ order, onDone }: { order: Order; onDone: (order: Order) => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [amount, setAmount] = useState(order.from.amount);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await simulateDeposit(order, amount.trim()));
      notify(t('order.sandboxDone'), { variant: 'success' });
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : t('order.sandboxFailed'));
    } finally {
      setBusy(false);
    }
  };
  const coin = order.from.coin ?? order.from.code;
  return (
    <Card
      as="section"
      tone="warning"
      padding="responsive"
      aria-labelledby={`${ids}-title`}
      className="space-y-3"
    >
      <h2 id={`${ids}-title`} className="font-semibold">
        {t('order.sandboxTitle')}
      </h2>
      <p className="text-sm text-slate-800">{t('order.sandboxText')}</p>
      <form onSubmit={(e) => void send(e)} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={`${ids}-amount`} className="text-sm font-medium">
            {t('order.sandboxAmount', { coin })}
          </label>
          <Input
            id={`${ids}-amount`}
            value={amount}
            onChange={(e) => setAmount(e.target.value.replace(',', '.'))}
            inputMode="decimal"
            autoComplete="off"
            className="mt-1 font-mono text-sm"
          />
        </div>
        <Button type="submit" disabled={busy || !amount.trim()}>
          {t('order.sandboxSend')}
        </Button>
      </form>
      {error ? (
        <Alert tone="error">
          <span className="font-semibold">{t('order.sandboxFailed')}</span> {error}
        </Alert>
      ) : null}
    </Card>
  );
}

/** While the deposit is awaited: the deposit window, and a fixed rate's own lock. */
function Windows({ order }: { order: Order }) {
  const { t } = useTranslation();
  const lock = order.type === 'fixed' ? order.time.rateExpiration : null;
  return (
    <div className="flex flex-wrap justify-end gap-x-6 gap-y-2">
      {lock ? (
        <Countdown
          deadline={lock}
          label={t('order.rateWindow')}
          endedText={t('order.rateWindowEnded')}
          testId="rate-window"
        />
      ) : null}
      <Countdown
        deadline={order.time.expiration}
        label={t('order.depositWindow')}
        testId="deposit-window"
      />
    </div>
  );
}

function OrderActions({ order }: { order: Order }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pair = paths.exchangePair(order.from.code, order.to.code);
  if (order.status === 'NEW') {
    return (
      <Button
        variant="outline"
        className="w-full sm:w-auto"
        // A new exchange of the same pair, with the form reset (spec/exchange.md §4).
        onClick={() => void navigate(pair, { state: { amount: NEW_EXCHANGE_AMOUNT } })}
      >
        {t('order.newExchange')}
      </Button>
    );
  }
  if (!isFinalStatus(order.status) && order.status !== 'EXPIRED' && order.status !== 'FAILED') {
    return null;
  }
  return (
    <Link to={pair} className={buttonVariants({ className: 'w-full sm:w-auto' })}>
      <RotateCcw aria-hidden="true" className="size-4" />
      {t('order.swapAgain', {
        from: order.from.coin ?? order.from.code,
        to: order.to.coin ?? order.to.code,
      })}
    </Link>
  );
}

export default function OrderPage() {
  const { t } = useTranslation();
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get('token') ?? rememberedOrderToken(orderId);
  const queryClient = useQueryClient();
  const { data: config } = useSiteConfig();
  const options = orderQueryOptions(orderId, token);
  const { queryKey } = options;
  // Just created: the order came with the navigation, so its page shows at once.
  const created = (location.state as { order?: Order } | null)?.order;
  // The owner may open the order without its token: the fetched order carries it.
  const knownToken = token ?? queryClient.getQueryData(queryKey)?.token ?? null;
  const events = useOrderEvents(orderId, knownToken, () => {
    void queryClient.invalidateQueries({ queryKey });
  });
  const query = useQuery({
    ...options,
    ...(created?.id === orderId ? { initialData: created, initialDataUpdatedAt: 0 } : {}),
    refetchInterval: (q) => pollInterval(q.state.data?.status, events.live),
  });
  const update = (order: Order) => queryClient.setQueryData(queryKey, order);
  // Without its token the details answer 404, and the public status below is the answer: no
  // toast for that (it stood above the order the mailed link had just opened). Other failures
  // (the server down) are told (spec/exchange.md §8).
  const failure = query.error && !(query.error instanceof ApiError && query.error.status === 404);
  useEffect(() => {
    if (failure && query.error) {
      notify(t('toast.fetchOrderFailed'), {
        description: query.error.message,
        variant: 'destructive',
      });
    }
  }, [failure, query.error, t]);

  // An order opened with its link is remembered on this device too (the Track page lists it).
  const opened = query.data;
  const linkToken = params.get('token');
  useEffect(() => {
    if (!opened || !linkToken || opened.id !== orderId) return;
    rememberOrderToken(orderId, linkToken, Date.now(), {
      from: opened.from.coin ?? opened.from.code,
      to: opened.to.coin ?? opened.to.code,
      fromAmount: opened.from.amount,
      toAmount: opened.to.amount,
    });
  }, [opened, linkToken, orderId]);

  // A link's text becomes the heading only when it is an order id.
  const title = ORDER_ID_PATTERN.test(orderId.toUpperCase())
    ? t('order.pageTitle', { id: orderId })
    : t('track.title');
  if (query.isPending) return <Spinner label={t('order.loading')} />;
  if (query.error || !query.data) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-10">
        <PageMeta title={title} noindex />
        <h1 className="text-2xl font-semibold break-all">{title}</h1>
        <PublicStatus orderId={orderId} />
      </section>
    );
  }
  const order = query.data;
  const waiting = order.status === 'NEW';
  return (
    <section className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-10">
      <PageMeta title={title} noindex />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-2">
          <h1 className="text-xl font-semibold break-all sm:text-2xl">{title}</h1>
          <OrderStatusBadge status={order.status} />
        </div>
        {waiting ? <Windows order={order} /> : null}
      </div>
      <ProgressBar status={order.status} />
      {order.status === 'EMERGENCY' ? <EmergencyChoice order={order} onDone={update} /> : null}
      {waiting ? (
        <Card
          as="section"
          padding="responsive"
          aria-labelledby="deposit-title"
          className="space-y-4"
        >
          <h2 id="deposit-title" className="text-xl font-semibold">
            {t('order.title')}
          </h2>
          <DepositInstructions order={order} />
        </Card>
      ) : null}
      {order.token ? <OrderLinkCard order={order} /> : null}
      {config?.sandbox && (order.status === 'NEW' || order.status === 'EXPIRED') ? (
        <SandboxDeposit order={order} onDone={update} />
      ) : null}
      <Card padding="responsive" className="space-y-4">
        <h2 className="font-semibold">{t('order.details')}</h2>
        <OrderSummary order={order} />
        <Transactions order={order} />
        <OrderActions order={order} />
      </Card>
      {/* A Lightning deposit is refunded to an invoice asked for when a refund is needed. */}
      {isRunningStatus(order.status) && !isLightning(order.from) ? (
        <RefundAddressForm order={order} onDone={update} />
      ) : null}
      <Timeline entries={events.timeline} />
    </section>
  );
}

function Timeline({ entries }: { entries: ReturnType<typeof useOrderEvents>['timeline'] }) {
  const { t, i18n } = useTranslation();
  return (
    <Card as="section" padding="responsive" aria-labelledby="timeline-title">
      <h2 id="timeline-title" className="font-semibold">
        {t('order.timeline')}
      </h2>
      <ol className="mt-3 space-y-2">
        {entries.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center gap-2 text-sm">
            <OrderStatusBadge status={entry.status} />
            <span className="text-slate-600">{formatTime(entry.at, i18n.language)}</span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

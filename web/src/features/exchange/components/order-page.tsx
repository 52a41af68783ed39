// The order page, /order/{id} and /order-details/{id} (spec/exchange.md §2): live over the
// server's event stream, with the timeline and, in EMERGENCY, the refund-or-continue choice.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { formatTime } from '@/lib/format';
import { isRunningStatus } from '@/lib/order-status';
import { useSiteConfig } from '@/lib/site-config';

import {
  chooseEmergency,
  orderQueryOptions,
  setRefundAddress,
  simulateDeposit,
  trackOrder,
} from '../api/orders';
import { pollInterval, useOrderEvents } from '../hooks/use-order-events';
import { rememberedOrderToken } from '../lib/order-tokens';
import type { Order } from '../types';
import { DepositInstructions, OrderSummary } from './order-created';
import { Countdown, ProgressBar } from './order-parts';

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
      notify(t('order.refundSaved'));
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
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      onDone(await simulateDeposit(order, amount.trim()));
      notify(t('order.sandboxDone'));
    } catch (e) {
      notify(t('order.sandboxFailed'), {
        description: e instanceof Error ? e.message : '',
        variant: 'destructive',
      });
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
    </Card>
  );
}

function EmergencyChoice({ order, onDone }: { order: Order; onDone: (order: Order) => void }) {
  const { t } = useTranslation();
  const ids = useId();
  const [address, setAddress] = useState(order.refund.address ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choose = async (choice: 'REFUND' | 'EXCHANGE') => {
    setBusy(true);
    setError(null);
    try {
      onDone(
        await chooseEmergency(order, choice, choice === 'REFUND' ? address.trim() : undefined),
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : '';
      setError(message);
      notify(t('toast.decisionFailed'), { description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  if (order.emergency?.choice === 'REFUND') {
    return (
      <p className="rounded-lg bg-slate-100 p-3 text-sm">
        {t('order.refundRequested', { address: order.refund.address ?? '' })}
      </p>
    );
  }
  const reason = order.emergency?.reason as
    'LESS' | 'MORE' | 'EXPIRED' | 'LIMIT' | 'RATE' | undefined;
  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-3 rounded-xl border-2 border-amber-400 bg-amber-50 p-4"
    >
      <h2 id={`${ids}-title`} className="font-semibold">
        {t('order.emergencyTitle')}
      </h2>
      {reason ? <p className="text-sm">{t(`order.emergency.${reason}`)}</p> : null}
      <p className="text-sm">{t('order.emergencyChoice')}</p>
      <div>
        <label htmlFor={`${ids}-refund`} className="text-sm font-medium">
          {t('order.refundAddress', { coin: order.from.coin ?? order.from.code })}
        </label>
        <Input
          id={`${ids}-refund`}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          className="mt-1 font-mono text-sm"
          autoComplete="off"
          spellCheck={false}
        />
        {error ? (
          <Alert tone="error" className="mt-1">
            {error}
          </Alert>
        ) : null}
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button disabled={busy} onClick={() => void choose('EXCHANGE')} className="flex-1">
          {t('order.continue')}
        </Button>
        <Button
          disabled={busy}
          variant="outline"
          onClick={() => void choose('REFUND')}
          className="flex-1"
        >
          {t('order.refund')}
        </Button>
      </div>
    </section>
  );
}

/**
 * Without the order's token only its public status can be shown (no addresses): tracked by
 * id through `POST /api/track-order`.
 */
function PublicStatus({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const tracked = useQuery({
    queryKey: ['/api/track-order', orderId],
    queryFn: () => trackOrder(orderId),
  });
  useEffect(() => {
    if (tracked.error)
      notify(t('toast.trackFailed'), {
        description: tracked.error.message,
        variant: 'destructive',
      });
  }, [tracked.error, t]);
  if (tracked.isPending) return <Spinner label={t('order.loading')} />;
  if (!tracked.data) return <p className="mt-3 text-slate-700">{t('order.notFound')}</p>;
  const order = tracked.data;
  return (
    <Card padding="responsive" className="mt-6 space-y-4 text-left">
      <p className="text-sm text-slate-700">{t('order.publicView')}</p>
      <OrderStatusBadge status={order.status} />
      <ProgressBar status={order.status} />
      <p className="text-lg font-semibold">
        {order.from.amount} {order.from.coin} → {order.to.amount} {order.to.coin}
      </p>
    </Card>
  );
}

export default function OrderPage() {
  const { t } = useTranslation();
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? rememberedOrderToken(orderId);
  const queryClient = useQueryClient();
  const { data: config } = useSiteConfig();
  const options = orderQueryOptions(orderId, token);
  const { queryKey } = options;
  // The owner may open the order without its token: the fetched order carries it.
  const knownToken = token ?? queryClient.getQueryData(queryKey)?.token ?? null;
  const events = useOrderEvents(orderId, knownToken, () => {
    void queryClient.invalidateQueries({ queryKey });
  });
  const query = useQuery({
    ...options,
    refetchInterval: (q) => pollInterval(q.state.data?.status, events.live),
  });
  const update = (order: Order) => queryClient.setQueryData(queryKey, order);

  useEffect(() => {
    if (query.error)
      notify(t('toast.fetchOrderFailed'), {
        description: query.error.message,
        variant: 'destructive',
      });
  }, [query.error, t]);

  const title = t('order.pageTitle', { id: orderId });
  if (query.isPending) return <Spinner label={t('order.loading')} />;
  if (query.error || !query.data) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-16 text-center">
        <PageMeta title={title} noindex />
        <h1 className="text-2xl font-semibold">{title}</h1>
        <PublicStatus orderId={orderId} />
      </section>
    );
  }
  const order = query.data;
  return (
    <section className="mx-auto max-w-3xl space-y-5 px-4 py-10">
      <PageMeta title={title} noindex />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold">{title}</h1>
          <OrderStatusBadge status={order.status} />
        </div>
        {order.status === 'NEW' ? <Countdown deadline={order.time.expiration} /> : null}
      </div>
      <ProgressBar status={order.status} />
      {order.status === 'EMERGENCY' ? <EmergencyChoice order={order} onDone={update} /> : null}
      {order.status === 'NEW' ? <DepositInstructions order={order} /> : null}
      {config?.sandbox && (order.status === 'NEW' || order.status === 'EXPIRED') ? (
        <SandboxDeposit order={order} onDone={update} />
      ) : null}
      <Card padding="responsive">
        <OrderSummary order={order} />
      </Card>
      {isRunningStatus(order.status) ? <RefundAddressForm order={order} onDone={update} /> : null}
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
      <p className="mt-4 text-xs text-slate-600">{t('order.shareLink')}</p>
    </Card>
  );
}

// The order page, /order/{id} and /order-details/{id} (spec/exchange.md §2): live over the
// server's event stream, with the timeline and, in EMERGENCY, the refund-or-continue choice.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { useSiteConfig } from '@/features/site/api/get-site-config';

import {
  chooseEmergency,
  orderQueryOptions,
  rememberedOrderToken,
  setRefundAddress,
  simulateDeposit,
  trackOrder,
  useOrder,
} from '../api/orders';
import type { Order } from '../types';
import { DepositInstructions, OrderSummary } from './order-created';
import { Countdown, formatTime, ProgressBar, StatusBadge } from './order-parts';

interface TimelineEntry {
  id: string;
  status: string;
  detail: string | null;
  at: number;
}

/** Every status change as the server reports it; refreshes the order on each. */
function useOrderEvents(id: string, token: string | null, onChange: () => void): TimelineEntry[] {
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const source = new EventSource(
      `/api/orders/${encodeURIComponent(id)}/events?token=${encodeURIComponent(token)}`,
    );
    source.addEventListener('status', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as Omit<TimelineEntry, 'id'>;
      const entryId = (event as MessageEvent).lastEventId;
      setEntries((current) =>
        current.some((e) => e.id === entryId) ? current : [...current, { ...data, id: entryId }],
      );
      onChange();
      // The server ends the stream after a final status; do not let EventSource reconnect.
      if (['COMPLETED', 'REFUNDED', 'EXPIRED'].includes(data.status)) source.close();
    });
    return () => source.close();
    // onChange is stable enough: it only invalidates a query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, token]);
  return entries;
}

const RUNNING = new Set(['NEW', 'CONFIRMING', 'EXCHANGE', 'SENDING']);

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
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-2 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
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
          <input
            aria-label={t('order.refundAddress', { coin: order.from.coin ?? order.from.code })}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm"
            autoComplete="off"
            spellCheck={false}
          />
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
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
    </section>
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
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-6"
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
          <input
            id={`${ids}-amount`}
            value={amount}
            onChange={(e) => setAmount(e.target.value.replace(',', '.'))}
            inputMode="decimal"
            autoComplete="off"
            className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm"
          />
        </div>
        <Button type="submit" disabled={busy || !amount.trim()}>
          {t('order.sandboxSend')}
        </Button>
      </form>
    </section>
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
        <input
          id={`${ids}-refund`}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm"
          autoComplete="off"
          spellCheck={false}
        />
        {error ? (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {error}
          </p>
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
    <div className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-4 text-left sm:p-6">
      <p className="text-sm text-slate-700">{t('order.publicView')}</p>
      <StatusBadge status={order.status} />
      <ProgressBar status={order.status} />
      <p className="text-lg font-semibold">
        {order.from.amount} {order.from.coin} → {order.to.amount} {order.to.coin}
      </p>
    </div>
  );
}

export default function OrderPage() {
  const { t, i18n } = useTranslation();
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? rememberedOrderToken(orderId);
  const queryClient = useQueryClient();
  const { data: config } = useSiteConfig();
  const query = useOrder(orderId, token);
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: orderQueryOptions(orderId, token).queryKey });
  const timeline = useOrderEvents(orderId, token ?? query.data?.token ?? null, refresh);

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
          <StatusBadge status={order.status} />
        </div>
        {order.status === 'NEW' ? <Countdown deadline={order.time.expiration} /> : null}
      </div>
      <ProgressBar status={order.status} />
      {order.status === 'EMERGENCY' ? (
        <EmergencyChoice
          order={order}
          onDone={(updated) =>
            queryClient.setQueryData(orderQueryOptions(orderId, token).queryKey, updated)
          }
        />
      ) : null}
      {order.status === 'NEW' ? <DepositInstructions order={order} /> : null}
      {config?.sandbox && (order.status === 'NEW' || order.status === 'EXPIRED') ? (
        <SandboxDeposit
          order={order}
          onDone={(updated) =>
            queryClient.setQueryData(orderQueryOptions(orderId, token).queryKey, updated)
          }
        />
      ) : null}
      <div className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        <OrderSummary order={order} />
      </div>
      {RUNNING.has(order.status) ? (
        <RefundAddressForm
          order={order}
          onDone={(updated) =>
            queryClient.setQueryData(orderQueryOptions(orderId, token).queryKey, updated)
          }
        />
      ) : null}
      <section
        aria-labelledby="timeline-title"
        className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="timeline-title" className="font-semibold">
          {t('order.timeline')}
        </h2>
        <ol className="mt-3 space-y-2">
          {timeline.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center gap-2 text-sm">
              <StatusBadge status={entry.status} />
              <span className="text-slate-600">{formatTime(entry.at, i18n.language)}</span>
            </li>
          ))}
        </ol>
        <p className="mt-4 text-xs text-slate-600">{t('order.shareLink')}</p>
      </section>
    </section>
  );
}

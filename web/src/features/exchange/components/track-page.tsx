// /track: an order's status for anyone with its id (the public view of `POST /api/track-order`),
// the full order page when this browser holds the order's link, and the orders this device
// made ("Recent orders on this device", from the stored order links).
import { useQueries } from '@tanstack/react-query';
import { Search, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { PageMeta } from '@/components/seo/page-meta';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatAmount, formatTime } from '@/lib/format';

import { forgetOrderToken, rememberedOrders, rememberedOrderToken } from '../lib/order-tokens';
import { PublicStatus, trackQueryOptions } from './public-status';

const RECENT_SHOWN = 10;

/** What a person types or pastes: spaces and case do not matter. */
export function normalizeOrderId(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

function RecentOrders() {
  const { t, i18n } = useTranslation();
  const [orders, setOrders] = useState(() => rememberedOrders().slice(0, RECENT_SHOWN));
  const [forgotten, setForgotten] = useState(false);
  // A stored link can redirect its order's refund: the customer can take it off this device.
  const forget = (id: string) => {
    forgetOrderToken(id);
    setOrders((shown) => shown.filter((order) => order.id !== id));
    setForgotten(true);
  };
  const statuses = useQueries({
    queries: orders.map((order) => ({ ...trackQueryOptions(order.id), staleTime: 30_000 })),
  });
  return (
    <Card as="section" padding="responsive" aria-labelledby="recent-orders-title">
      <h2 id="recent-orders-title" className="text-lg font-semibold">
        {t('track.recentTitle')}
      </h2>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('track.recentEmpty')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {orders.map((order, i) => {
            const status = statuses[i]?.data?.status;
            const summary = order.summary;
            return (
              <li key={order.id} className="flex items-center gap-2">
                <Link
                  to={paths.orderLink(order.id, order.token)}
                  className="flex min-h-14 min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 hover:bg-slate-50"
                >
                  <span className="min-w-0">
                    <span className="block font-mono text-sm font-semibold">{order.id}</span>
                    {summary ? (
                      <span className="block text-sm text-slate-700">
                        {formatAmount(summary.fromAmount, i18n.language)} {summary.from} →{' '}
                        {formatAmount(summary.toAmount, i18n.language)} {summary.to}
                      </span>
                    ) : null}
                    <span className="block text-xs text-slate-600">
                      {formatTime(Math.floor(order.at / 1000), i18n.language)}
                    </span>
                  </span>
                  {status ? <OrderStatusBadge status={status} /> : null}
                </Link>
                <button
                  type="button"
                  onClick={() => forget(order.id)}
                  aria-label={`${t('order.forget')}: ${order.id}`}
                  title={t('order.forget')}
                  className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <p role="status" className="mt-2 text-sm text-slate-700">
        {forgotten ? t('track.forgotten') : null}
      </p>
      <p className="mt-3 text-xs text-slate-600">{t('track.recentNote')}</p>
    </Card>
  );
}

export default function TrackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const asked = normalizeOrderId(params.get('id') ?? '');
  const [value, setValue] = useState(asked);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = normalizeOrderId(value);
    if (!id) return;
    // This browser holds the order's link: its full page.
    const token = rememberedOrderToken(id);
    if (token) {
      void navigate(paths.orderLink(id, token));
      return;
    }
    setParams((p) => {
      p.set('id', id);
      return p;
    });
  };

  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <PageMeta title={t('track.title')} description={t('track.description')} />
      <div>
        <h1 className="text-2xl font-semibold sm:text-3xl">{t('track.title')}</h1>
        <p className="mt-2 text-slate-700">{t('track.subtitle')}</p>
      </div>
      <form onSubmit={submit} role="search" className="space-y-2">
        <label htmlFor="track-id" className="block text-sm font-medium">
          {t('track.idLabel')}
        </label>
        <div className="flex gap-2">
          <input
            id="track-id"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="7KQ2M9XHT4WZ3PNA"
            aria-describedby="track-id-hint"
            className="h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 font-mono text-base uppercase placeholder:normal-case placeholder:text-slate-500"
          />
          <Button type="submit" disabled={!value.trim()}>
            <Search aria-hidden="true" className="size-4" />
            {t('track.submit')}
          </Button>
        </div>
        <p id="track-id-hint" className="text-xs text-slate-600">
          {t('track.idHint')}
        </p>
      </form>
      {asked ? <PublicStatus key={asked} orderId={asked} /> : null}
      <RecentOrders />
    </div>
  );
}

// An order's public status by its id (`POST /api/track-order`, no addresses): for a visitor
// without the order's link, and the answer of the Track page. An unknown id gets an answer
// that helps: what an id looks like, where to find it, and who to ask.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { TaggedText } from '@/components/ui/tagged-text';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatAmount, formatTime } from '@/lib/format';

import { trackOrder } from '../api/orders';
import { ProgressBar } from './order-parts';

/** Order ids: 16 of these letters and digits (no 0, O, 1 or I). */
export const ORDER_ID_PATTERN = /^[A-HJ-NP-Z2-9]{16}$/;

export const trackQueryOptions = (orderId: string) => ({
  queryKey: ['/api/track-order', orderId] as const,
  queryFn: () => trackOrder(orderId),
});

export function UnknownOrder({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const link = (to: string) => (children: string) => (
    <Link to={to} className="font-medium text-teal-800 underline">
      {children}
    </Link>
  );
  return (
    <Card padding="responsive" className="mt-6 space-y-2 text-left" data-testid="unknown-order">
      {/* Only a well-formed id is repeated: other text from a link is never shown as ours. */}
      {ORDER_ID_PATTERN.test(orderId.toUpperCase()) ? (
        <>
          <h2 className="font-semibold">{t('track.unknownTitle', { id: orderId })}</h2>
          <p className="text-sm text-slate-700">{t('track.unknownText')}</p>
        </>
      ) : (
        <h2 className="font-semibold">
          {t('track.unknownShape', { example: '7KQ2M9XHT4WZ3PNA' })}
        </h2>
      )}
      <p className="text-sm text-slate-700">
        <TaggedText
          text={t('track.unknownHelp')}
          tags={{ track: link(paths.track), contact: link(paths.contact) }}
        />
      </p>
    </Card>
  );
}

export function PublicStatus({ orderId }: { orderId: string }) {
  const { t, i18n } = useTranslation();
  const tracked = useQuery(trackQueryOptions(orderId));
  const unknown = tracked.error instanceof ApiError && tracked.error.status === 404;
  // An id nobody knows is answered below; a failure to ask is a toast (spec/exchange.md §8).
  useEffect(() => {
    if (tracked.error && !unknown)
      notify(t('toast.trackFailed'), {
        description: tracked.error.message,
        variant: 'destructive',
      });
  }, [tracked.error, unknown, t]);
  if (tracked.isPending) return <Spinner label={t('order.loading')} />;
  if (!tracked.data) return unknown ? <UnknownOrder orderId={orderId} /> : null;
  const order = tracked.data;
  const amount = (side: typeof order.from) =>
    `${formatAmount(side.amount, i18n.language)} ${side.coin ?? side.code}`;
  return (
    <Card padding="responsive" className="mt-6 space-y-4 text-left" data-testid="public-status">
      <p className="text-sm text-slate-700">{t('order.publicView')}</p>
      <OrderStatusBadge status={order.status} />
      <ProgressBar status={order.status} />
      <p className="text-lg font-semibold break-words">
        {amount(order.from)} → {amount(order.to)}
      </p>
      <p className="text-sm text-slate-600">
        {t('order.createdAt')}: {formatTime(order.time.reg, i18n.language)}
      </p>
    </Card>
  );
}

// "Needs a person": the orders an operator should look at (in EMERGENCY, stuck while moving,
// failed lately, or with a contact message about them waiting for an answer), the longest
// waiting first, with how many wait for each reason, and a mark on those with a message
// waiting. Asked again every 30 seconds.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { Stat } from '@/components/ui/stat';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { formatAmount, formatNumber, formatTime } from '@/lib/format';

import { QUEUE_REFRESH_MS, useQueue } from '../api/get-queue';
import { formatAgo, formatDuration, formatSpan } from '../lib/figures';
import {
  countOf,
  EMERGENCY_REASONS,
  type Queue,
  QUEUE_REASONS,
  type QueueReason,
  type QueueRow,
  totalOf,
} from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

const REASON_TONES: Record<QueueReason, BadgeTone> = {
  emergency: 'warning',
  stuck: 'info',
  failed: 'danger',
  message: 'neutral',
};

/** What each reason means, with the server's thresholds. */
export function useReasonTexts(queue: Queue): Record<QueueReason, string> {
  const { t, i18n } = useTranslation();
  return {
    emergency: t('admin.queue.explain.emergency'),
    stuck: t('admin.queue.explain.stuck', {
      duration: formatSpan(queue.stuck_after_seconds, 'hour', i18n.language),
    }),
    failed: t('admin.queue.explain.failed', {
      duration: formatSpan(queue.failed_within_seconds, 'day', i18n.language),
    }),
    message: t('admin.queue.explain.message'),
  };
}

export function QueuePage() {
  const { t, i18n } = useTranslation();
  const queue = useQueue({ poll: true });

  let body;
  if (queue.isPending) body = <Spinner label={t('common.loading')} />;
  else if (queue.isError) body = <ConsoleError error={queue.error} what={t('admin.queue.error')} />;
  else body = <QueueBody queue={queue.data} at={Math.floor(queue.dataUpdatedAt / 1000)} />;

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.queue.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.queue.title')}</h1>
        <p className="mt-2 text-slate-700">
          {t('admin.queue.intro', {
            interval: formatDuration(QUEUE_REFRESH_MS / 1000, i18n.language),
          })}
        </p>
      </div>
      {body}
    </div>
  );
}

/** The counts and the rows, as the server answered at `at` (Unix seconds). */
function QueueBody({ queue, at }: { queue: Queue; at: number }) {
  const { t, i18n } = useTranslation();
  const explain = useReasonTexts(queue);
  const total = totalOf(queue.counts);
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {QUEUE_REASONS.map((reason) => (
          <Stat
            key={reason}
            label={t(`admin.queue.reasons.${reason}`)}
            value={formatNumber(countOf(queue.counts, reason), i18n.language)}
            hint={explain[reason]}
            testId={`queue-count-${reason}`}
          />
        ))}
      </dl>
      {queue.orders.length === 0 ? (
        <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
          {t('admin.queue.empty')}
        </p>
      ) : (
        <div className="space-y-3">
          <QueueTable orders={queue.orders} at={at} />
          {total > queue.orders.length ? (
            <p className="text-sm text-slate-700">
              {t('admin.queue.more', { shown: queue.orders.length, total })}
            </p>
          ) : null}
        </div>
      )}
    </>
  );
}

function QueueTable({ orders, at }: { orders: QueueRow[]; at: number }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table>
      <TableCaption>{t('admin.queue.results')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.queue.columns.id')}</TableHead>
          <TableHead>{t('admin.queue.columns.reason')}</TableHead>
          <TableHead>{t('admin.queue.columns.pair')}</TableHead>
          <TableHead>{t('admin.queue.columns.amounts')}</TableHead>
          <TableHead>{t('admin.queue.columns.status')}</TableHead>
          <TableHead>{t('admin.queue.columns.waiting')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {orders.map((order) => (
          <TableRow key={order.id}>
            <TableCell>
              <Link
                to={paths.adminOrder(order.id)}
                className="font-mono font-medium text-teal-800 underline underline-offset-2"
              >
                {order.id}
              </Link>
            </TableCell>
            <TableCell className="min-w-48">
              <Why order={order} />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {t('admin.orders.pair', { from: order.from_code, to: order.to_code })}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {t('admin.orders.amounts', {
                sent: `${formatAmount(order.from_amount, locale)} ${order.from_code}`,
                received: `${formatAmount(order.to_amount, locale)} ${order.to_code}`,
              })}
            </TableCell>
            <TableCell>
              <OrderStatusBadge status={order.status} />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              <time dateTime={new Date(order.waiting_since * 1000).toISOString()}>
                {formatAgo(order.waiting_since, at, locale)}
              </time>
              <span className="block text-xs text-slate-600">
                {formatTime(order.waiting_since, locale)}
              </span>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The reason in words; for an order in EMERGENCY, what went wrong with the deposit; and
 * whether a contact message about it waits for an answer. */
function Why({ order }: { order: QueueRow }) {
  const { t } = useTranslation();
  const known = QUEUE_REASONS.find((r) => r === order.reason);
  const emergency = EMERGENCY_REASONS.find((r) => r === order.emergency_reason);
  return (
    <>
      {known ? (
        <Badge tone={REASON_TONES[known]}>{t(`admin.queue.reasons.${known}`)}</Badge>
      ) : (
        <Badge>{order.reason}</Badge>
      )}
      {order.open_message ? (
        <Badge tone="info" size="sm" className="ml-1" data-testid="queue-message-waiting">
          {t('admin.queue.messageWaiting')}
        </Badge>
      ) : null}
      {order.reason === 'emergency' && order.emergency_reason ? (
        <span className="mt-1 block text-slate-700">
          {emergency ? t(`order.emergency.${emergency}`) : order.emergency_reason}
        </span>
      ) : null}
    </>
  );
}

// "At the provider": what the liquidity provider that fills an order says of it right now, in
// its own words and in Ferry's, next to what Ferry shows. Asked only when the operator presses
// the button (each question spends the provider's call budget); the order page shows it only
// for an order a provider fills.
import { useTranslation } from 'react-i18next';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import { formatAmount, formatTime } from '@/lib/format';
import { isOrderStatus } from '@/lib/order-status';

import { useUpstream } from '../api/get-upstream';
import type { OrderDetail, UpstreamState } from '../types';
import { ConsoleError } from './console-error';

export function OrderUpstream({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const upstream = useUpstream(order.id);
  const asking = upstream.isFetching;
  return (
    <Section title={t('admin.order.upstream.title')}>
      <p className="text-sm text-slate-700">
        {t('admin.order.upstream.intro', { provider: order.provider })}
      </p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => void upstream.refetch()}
        disabled={asking}
        aria-busy={asking}
      >
        {t('admin.order.upstream.ask')}
      </Button>
      {upstream.isError && !asking ? (
        <ConsoleError error={upstream.error} what={t('admin.order.upstream.error')} />
      ) : null}
      {upstream.data ? <UpstreamAnswer order={order} answer={upstream.data} /> : null}
    </Section>
  );
}

function UpstreamAnswer({ order, answer }: { order: OrderDetail; answer: UpstreamState }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const none = <span className="text-slate-600">{t('admin.order.none')}</span>;
  const amount = (value: string | null, coin: string) =>
    value === null ? none : `${formatAmount(value, locale)} ${coin}`;
  const statusName = (status: string) =>
    isOrderStatus(status) ? t(`order.status.${status}`) : status;
  const label = (key: 'rawStatus' | 'status' | 'received' | 'toAmount' | 'paidOut' | 'choice') =>
    t(`admin.order.upstream.${key}`);
  const { choice } = answer;
  return (
    <div className="space-y-3">
      {answer.status === order.status ? (
        <p className="text-sm text-slate-700">
          {t('admin.order.upstream.agrees', { status: statusName(order.status) })}
        </p>
      ) : (
        <Alert tone="warning">
          {t('admin.order.upstream.differs', {
            ferry: statusName(order.status),
            provider: statusName(answer.status),
          })}
        </Alert>
      )}
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-600">{label('rawStatus')}</dt>
        <dd className="font-mono break-all">{answer.raw_status}</dd>
        <dt className="text-slate-600">{label('status')}</dt>
        <dd>
          {isOrderStatus(answer.status) ? (
            <OrderStatusBadge status={answer.status} />
          ) : (
            <span className="font-mono">{answer.status}</span>
          )}
        </dd>
        <dt className="text-slate-600">{label('received')}</dt>
        <dd>{amount(answer.received, order.from_code)}</dd>
        <dt className="text-slate-600">{label('toAmount')}</dt>
        <dd>{amount(answer.to_amount, order.to_code)}</dd>
        <dt className="text-slate-600">{label('paidOut')}</dt>
        <dd>{amount(answer.paid_out, order.to_code)}</dd>
        <dt className="text-slate-600">{label('choice')}</dt>
        <dd>
          {choice === null
            ? none
            : choice === 'REFUND' || choice === 'EXCHANGE'
              ? t(`admin.order.choices.${choice}`)
              : choice}
        </dd>
      </dl>
      <p className="text-xs text-slate-600">
        {t('admin.order.upstream.askedAt', { time: formatTime(answer.checked_at, locale) })}
      </p>
    </div>
  );
}

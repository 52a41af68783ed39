// One order as the back office sees it: its summary, what its provider says of it (asked on
// demand, for an order a provider fills), its transactions, the contact messages about it (if
// any), its timeline (status events and operators' acts, in time order), a note, and the acts
// this operator may do now.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatAmount, formatTime } from '@/lib/format';
import { isOrderStatus } from '@/lib/order-status';

import { useMessages } from '../api/contact-messages';
import { useOrder } from '../api/get-order';
import { auditActionName } from '../lib/audit-actions';
import { isRole } from '../lib/roles';
import {
  EMERGENCY_REASONS,
  type OrderAction,
  type OrderDetail,
  type TimelineItem,
  type TransactionSide,
} from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';
import { MessageList } from './messages-page';
import {
  CancelAction,
  NoteForm,
  RefundAction,
  RefundAddressAction,
  RetryAction,
} from './order-actions';
import { OrderUpstream } from './order-upstream';

export function OrderPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const view = useOrder(id);
  const title = t('admin.order.title', { id });

  let body;
  if (view.isPending) body = <Spinner label={t('common.loading')} />;
  else if (view.isError) {
    body =
      view.error instanceof ApiError && view.error.status === 404 ? (
        <Alert tone="neutral">{t('admin.order.notFound', { id })}</Alert>
      ) : (
        <ConsoleError error={view.error} what={t('admin.order.error')} />
      );
  } else {
    const { order, timeline, actions } = view.data;
    body = (
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Summary order={order} />
          {order.provider_order_id ? <OrderUpstream order={order} /> : null}
          <Transactions order={order} />
          <OrderMessages orderId={order.id} />
          <Timeline items={timeline} />
        </div>
        <div className="space-y-6">
          <Acts order={order} actions={actions} />
          {actions.includes('note') ? <NoteForm orderId={order.id} /> : null}
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={title} />
      <Link
        to={paths.adminOrders}
        className="inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline underline-offset-2"
      >
        {t('admin.order.back')}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold break-all text-slate-900 sm:text-3xl">{title}</h1>
        {view.data ? <OrderStatusBadge status={view.data.order.status} /> : null}
      </div>
      {body}
    </div>
  );
}

/** The acts with a dialog, in this order; each only when the server lists it. */
const ACTS = [
  ['refund', RefundAction],
  ['refund_address', RefundAddressAction],
  ['retry', RetryAction],
  ['cancel', CancelAction],
] as const;

function Acts({ order, actions }: { order: OrderDetail; actions: OrderAction[] }) {
  const { t } = useTranslation();
  const listed = ACTS.filter(([act]) => actions.includes(act));
  return (
    <Section title={t('admin.order.actions')}>
      {listed.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {listed.map(([act, Act]) => (
            <Act key={act} order={order} />
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-700">{t('admin.order.noActions')}</p>
      )}
    </Section>
  );
}

/** The contact messages linked to the order, answered or not; nothing when there are none. */
function OrderMessages({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const messages = useMessages({ filter: 'all', orderId });
  if (messages.isPending || (messages.isSuccess && messages.data.length === 0)) return null;
  return (
    <Section title={t('admin.order.messages')}>
      {messages.isError ? (
        <ConsoleError error={messages.error} what={t('admin.order.messagesError')} />
      ) : (
        <MessageList messages={messages.data} />
      )}
    </Section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/** An address with its tag, and a button to copy it. */
function Address({ label, address, tag }: { label: string; address: string; tag: string | null }) {
  const { t } = useTranslation();
  return (
    <span className="flex items-start gap-1">
      <span className="min-w-0">
        <span className="block font-mono break-all">{address}</span>
        {tag ? (
          <span className="block text-slate-700">
            {t('admin.order.fields.tag')}: <span className="font-mono">{tag}</span>
          </span>
        ) : null}
      </span>
      <CopyButton value={address} what={label} className="-mt-2" />
    </span>
  );
}

function Summary({ order }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const none = <span className="text-slate-600">{t('admin.order.none')}</span>;
  const amount = (value: string | null, coin: string) =>
    value === null ? none : `${formatAmount(value, locale)} ${coin}`;
  const time = (at: number | null) => (at ? formatTime(at, locale) : none);
  const text = (value: string | null) => (value ? value : none);
  const label = (key: FieldKey) => t(`admin.order.fields.${key}`);
  const reason = order.emergency_reason;
  const knownReason = EMERGENCY_REASONS.find((r) => r === reason);
  const choice = order.emergency_choice;
  return (
    <Section title={t('admin.order.summary')}>
      <dl className="divide-y divide-slate-100">
        <Row label={label('status')}>
          {isOrderStatus(order.status) ? t(`order.status.${order.status}`) : order.status}
        </Row>
        <Row label={label('rateType')}>{t(`admin.order.rateTypes.${order.rate_type}`)}</Row>
        <Row label={label('sent')}>{amount(order.from_amount, order.from_code)}</Row>
        <Row label={label('expected')}>{amount(order.to_amount, order.to_code)}</Row>
        <Row label={label('received')}>{amount(order.received_amount, order.from_code)}</Row>
        <Row label={label('payout')}>{amount(order.payout_amount, order.to_code)}</Row>
        <Row label={label('depositAddress')}>
          <Address
            label={label('depositAddress')}
            address={order.deposit_address}
            tag={order.deposit_tag}
          />
        </Row>
        <Row label={label('destination')}>
          <Address label={label('destination')} address={order.to_address} tag={order.to_tag} />
        </Row>
        <Row label={label('refundAddress')}>
          {order.refund_address ? (
            <Address
              label={label('refundAddress')}
              address={order.refund_address}
              tag={order.refund_tag}
            />
          ) : (
            none
          )}
        </Row>
        {reason ? (
          <Row label={label('emergencyReason')}>
            {knownReason ? t(`order.emergency.${knownReason}`) : reason}
          </Row>
        ) : null}
        {choice ? (
          <Row label={label('emergencyChoice')}>
            {choice === 'REFUND' || choice === 'EXCHANGE'
              ? t(`admin.order.choices.${choice}`)
              : choice}
          </Row>
        ) : null}
        <Row label={label('provider')}>{order.provider}</Row>
        <Row label={label('providerReference')}>
          {order.provider_order_id ? (
            <span className="font-mono">{order.provider_order_id}</span>
          ) : (
            none
          )}
        </Row>
        <Row label={label('ownerEmail')}>{text(order.owner_email)}</Row>
        <Row label={label('notifyEmail')}>{text(order.notify_email)}</Row>
        <Row label={label('apiKey')}>
          {order.api_key_id ? <span className="font-mono">{order.api_key_id}</span> : none}
        </Row>
        <Row label={label('created')}>{time(order.created_at)}</Row>
        <Row label={label('updated')}>{time(order.updated_at)}</Row>
        <Row label={label('expires')}>{time(order.expires_at)}</Row>
        <Row label={label('finished')}>{time(order.finished_at)}</Row>
      </dl>
    </Section>
  );
}

type FieldKey =
  | 'status'
  | 'rateType'
  | 'provider'
  | 'providerReference'
  | 'sent'
  | 'expected'
  | 'received'
  | 'payout'
  | 'depositAddress'
  | 'destination'
  | 'refundAddress'
  | 'ownerEmail'
  | 'notifyEmail'
  | 'apiKey'
  | 'created'
  | 'updated'
  | 'expires'
  | 'finished'
  | 'emergencyReason'
  | 'emergencyChoice';

const SIDES: TransactionSide[] = ['deposit', 'payout', 'refund'];

function Transactions({ order }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation();
  const sides = SIDES.flatMap((side) => {
    const tx = order.transactions?.[side];
    return tx ? [{ side, tx }] : [];
  });
  const coinOf = (side: TransactionSide) => (side === 'payout' ? order.to_code : order.from_code);
  return (
    <Section title={t('admin.order.transactions')}>
      {sides.length === 0 ? (
        <p className="text-sm text-slate-700">{t('admin.order.noTransactions')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {sides.map(({ side, tx }) => (
            <li key={side} className="py-2 text-sm">
              <h3 className="font-medium text-slate-900">{t(`admin.order.transaction.${side}`)}</h3>
              <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
                <dt className="text-slate-600">{t('admin.order.transaction.amount')}</dt>
                <dd>{`${formatAmount(tx.amount, i18n.language)} ${coinOf(side)}`}</dd>
                <dt className="text-slate-600">{t('admin.order.transaction.at')}</dt>
                <dd>{formatTime(tx.at, i18n.language)}</dd>
                <dt className="text-slate-600">{t('admin.order.transaction.id')}</dt>
                <dd className="font-mono break-all">{tx.id}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Timeline({ items }: { items: TimelineItem[] }) {
  const { t, i18n } = useTranslation();
  // In time order; at the same second, as the server listed them.
  const ordered = [...items].sort((a, b) => a.at - b.at);
  return (
    <Section title={t('admin.order.timeline')}>
      {ordered.length === 0 ? (
        <p className="text-sm text-slate-700">{t('admin.order.timelineEmpty')}</p>
      ) : (
        <ol className="space-y-4 border-l-2 border-slate-200 pl-4">
          {ordered.map((item, index) => (
            <li key={`${item.kind}-${item.at}-${index}`} className="text-sm">
              <time
                dateTime={new Date(item.at * 1000).toISOString()}
                className="block text-xs text-slate-600"
              >
                {formatTime(item.at, i18n.language)}
              </time>
              {item.kind === 'event' ? (
                <>
                  <p className="font-medium text-slate-900">
                    {t('admin.order.event', {
                      status: isOrderStatus(item.status)
                        ? t(`order.status.${item.status}`)
                        : item.status,
                    })}
                  </p>
                  {item.detail ? <p className="text-slate-700">{item.detail}</p> : null}
                </>
              ) : (
                <AuditEntry item={item} />
              )}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function AuditEntry({ item }: { item: Extract<TimelineItem, { kind: 'audit' }> }) {
  const { t } = useTranslation();
  const action = auditActionName(t, item.action);
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
        {action}
        <span className="font-normal text-slate-700">
          {t('admin.order.actor', { actor: item.actor_email ?? item.actor })}
        </span>
        <Badge tone="neutral">
          <span className="sr-only">{t('admin.roles.label')}: </span>
          {isRole(item.actor_role) ? t(`admin.roles.${item.actor_role}`) : item.actor_role}
        </Badge>
      </p>
      {item.reason ? (
        <p className="whitespace-pre-wrap text-slate-800">
          {item.action === 'order.note'
            ? item.reason
            : t('admin.order.reason', { reason: item.reason })}
        </p>
      ) : null}
    </>
  );
}

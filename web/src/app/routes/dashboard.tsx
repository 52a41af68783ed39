// Dashboard: the account at a glance — orders by status, volume, recent orders, a quick
// exchange, and nudges to verify the e-mail and to turn on two-factor authentication. It
// composes three features (orders, exchange, account), so it lives in the app layer.
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Stat } from '@/components/ui/stat';
import { paths } from '@/config/paths';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { type ListedOrder, useOrders } from '@/features/orders/api/get-orders';
import { filterOrders, formatAmount, toMillis } from '@/features/orders/lib/list';
import { type User, useUser } from '@/lib/auth';
import { formatNumber, formatTime, formatUsd } from '@/lib/format';
import { isRunningStatus } from '@/lib/order-status';
import { useSiteConfig } from '@/lib/site-config';
import { feesOf } from '@/lib/site-fees';
import { useSendVerificationEmail } from '@/lib/verification-email';

/** Counts per status, completed volume in USD, and how many are still running. */
export function summarize(orders: readonly ListedOrder[]) {
  const byStatus = new Map<string, number>();
  let volume = 0;
  for (const order of orders) {
    const status = order.status.toUpperCase();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status === 'COMPLETED') volume += Number(order.usd_value ?? 0) || 0;
  }
  const inProgress = orders.filter((o) => {
    const status = o.status.toUpperCase();
    return isRunningStatus(status) || status === 'EMERGENCY';
  }).length;
  return { byStatus, volume, inProgress, completed: byStatus.get('COMPLETED') ?? 0 };
}

export default function DashboardRoute() {
  const { t } = useTranslation();
  const { user } = useUser();
  const { data: config } = useSiteConfig();
  const fees = feesOf(config);
  if (!user) return <Spinner label={t('common.loading')} />;
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10">
      <PageMeta title={t('account.dashboard.title')} noindex />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('account.dashboard.title')}</h1>
        <p className="mt-1 text-slate-600">
          {t('account.dashboard.welcome', { name: user.full_name || user.username })}
        </p>
      </div>
      <Nudges user={user} />
      <div className="grid gap-8 lg:grid-cols-2">
        <OrdersOverview />
        <section aria-labelledby="quick-exchange" className="space-y-3">
          <h2 id="quick-exchange" className="text-lg font-semibold text-slate-900">
            {t('account.dashboard.quickExchange')}
          </h2>
          <ExchangeWidget {...(fees ? { fees } : {})} />
        </section>
      </div>
    </div>
  );
}

function Nudges({ user }: { user: User }) {
  const { t } = useTranslation();
  const sendVerification = useSendVerificationEmail();
  return (
    <>
      {!user.email_verified ? (
        <Alert tone="warning" className="flex flex-wrap items-center justify-between gap-3">
          <p>{t('account.dashboard.verifyNotice')}</p>
          <Button
            variant="outline"
            size="sm"
            disabled={sendVerification.isPending}
            onClick={() => sendVerification.mutate()}
          >
            {t('account.dashboard.verifyAction')}
          </Button>
        </Alert>
      ) : null}
      {!user.two_factor_enabled ? (
        <Alert tone="info" className="flex flex-wrap items-center justify-between gap-3">
          <p>{t('account.dashboard.twoFactorNotice')}</p>
          <Link to={paths.profile} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {t('account.dashboard.twoFactorAction')}
          </Link>
        </Alert>
      ) : null}
    </>
  );
}

/** The figures and lists of the user's orders; an error, not zeros, when they did not load. */
function OrdersOverview() {
  const { t, i18n } = useTranslation();
  const orders = useOrders();
  if (orders.isPending) return <Spinner label={t('common.loading')} />;
  if (orders.isError) {
    return (
      <Alert tone="error" className="flex flex-wrap items-center justify-between gap-3">
        <p>{t('account.orders.error')}</p>
        <Button variant="outline" size="sm" onClick={() => void orders.refetch()}>
          {t('account.dashboard.retry')}
        </Button>
      </Alert>
    );
  }
  const list = orders.data;
  const summary = summarize(list);
  const locale = i18n.language;
  return (
    <div className="space-y-8">
      <dl className="grid grid-cols-2 gap-4">
        <Stat
          label={t('account.dashboard.totalOrders')}
          value={formatNumber(list.length, locale)}
        />
        <Stat
          label={t('account.dashboard.completed')}
          value={formatNumber(summary.completed, locale)}
        />
        <Stat
          label={t('account.dashboard.inProgress')}
          value={formatNumber(summary.inProgress, locale)}
        />
        <Stat
          label={t('account.dashboard.volume')}
          value={formatUsd(summary.volume, locale)}
          hint={t('account.dashboard.volumeHint')}
        />
      </dl>
      <Card as="section" aria-labelledby="by-status">
        <h2 id="by-status" className="text-lg font-semibold text-slate-900">
          {t('account.dashboard.byStatus')}
        </h2>
        {list.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">{t('account.dashboard.noOrders')}</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {[...summary.byStatus].map(([status, count]) => (
              <li key={status} className="space-y-1">
                <div className="flex items-center justify-between text-sm">
                  <OrderStatusBadge status={status} />
                  <span className="font-medium">{formatNumber(count, locale)}</span>
                </div>
                <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
                  <div
                    className="h-2 rounded-full bg-teal-600"
                    style={{ width: `${Math.max(4, (count / list.length) * 100)}%` }}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <RecentOrders orders={list} />
    </div>
  );
}

function RecentOrders({ orders }: { orders: ListedOrder[] }) {
  const { t, i18n } = useTranslation();
  const recent = filterOrders(orders, '', 'ALL').slice(0, 5);
  return (
    <Card as="section" aria-labelledby="recent-orders">
      <div className="flex items-center justify-between">
        <h2 id="recent-orders" className="text-lg font-semibold text-slate-900">
          {t('account.dashboard.recent')}
        </h2>
        <Link
          to={paths.orders}
          className="flex items-center gap-1 text-sm font-medium text-teal-800 underline"
        >
          {t('account.dashboard.viewAll')}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {recent.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('account.dashboard.noOrders')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {recent.map((order) => (
            <li key={order.id}>
              <Link
                to={paths.orderDetails(order.id)}
                className="flex flex-wrap items-center justify-between gap-2 py-3 hover:bg-slate-50"
              >
                <span className="text-sm">
                  <span className="font-mono">{formatAmount(order.from_amount)}</span>{' '}
                  {order.from_currency} → {order.to_currency}
                  <span className="block text-xs text-slate-600">
                    {formatTime(toMillis(order.created_at) / 1000, i18n.language)}
                  </span>
                </span>
                <OrderStatusBadge status={order.status} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

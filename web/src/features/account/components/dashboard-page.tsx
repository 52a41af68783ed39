// Dashboard: the account at a glance — orders by status, volume, recent orders, a quick
// exchange, and nudges to verify the e-mail and to turn on two-factor authentication.
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/api/get-user';
import { useSendVerificationEmail } from '@/features/auth/api/send-verification-email';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { formatTime, StatusBadge } from '@/features/exchange/components/order-parts';
import { useOrders, type ListedOrder } from '@/features/orders/api/get-orders';
import { filterOrders, formatAmount, toMillis } from '@/features/orders/lib/list';
import { useSiteConfig } from '@/features/site/api/get-site-config';

const FINISHED = new Set(['COMPLETED', 'EXPIRED', 'REFUNDED', 'FAILED']);

/** Counts per status, completed volume in USD, and how many are still running. */
export function summarize(orders: readonly ListedOrder[]) {
  const byStatus = new Map<string, number>();
  let volume = 0;
  for (const order of orders) {
    const status = order.status.toUpperCase();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status === 'COMPLETED') volume += Number(order.usd_value ?? 0) || 0;
  }
  const inProgress = orders.filter((o) => !FINISHED.has(o.status.toUpperCase())).length;
  return { byStatus, volume, inProgress, completed: byStatus.get('COMPLETED') ?? 0 };
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
    </div>
  );
}

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { user } = useUser();
  const orders = useOrders();
  const { data: config } = useSiteConfig();
  const sendVerification = useSendVerificationEmail();
  if (!user || orders.isPending) return <Spinner label={t('common.loading')} />;
  const list = orders.data ?? [];
  const summary = summarize(list);
  const recent = filterOrders(list, '', 'ALL').slice(0, 5);
  const number = new Intl.NumberFormat(i18n.language);
  const usd = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD' });
  const fees = config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10">
      <PageMeta title={t('account.dashboard.title')} noindex />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('account.dashboard.title')}</h1>
        <p className="mt-1 text-slate-600">
          {t('account.dashboard.welcome', { name: user.full_name || user.username })}
        </p>
      </div>

      {!user.email_verified ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
          <p className="text-sm">{t('account.dashboard.verifyNotice')}</p>
          <Button
            variant="outline"
            size="sm"
            disabled={sendVerification.isPending}
            onClick={() => sendVerification.mutate()}
          >
            {t('account.dashboard.verifyAction')}
          </Button>
        </div>
      ) : null}
      {!user.two_factor_enabled ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-teal-200 bg-teal-50 p-4 text-teal-950">
          <p className="text-sm">{t('account.dashboard.twoFactorNotice')}</p>
          <Link to={paths.profile} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {t('account.dashboard.twoFactorAction')}
          </Link>
        </div>
      ) : null}

      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label={t('account.dashboard.totalOrders')} value={number.format(list.length)} />
        <Stat label={t('account.dashboard.completed')} value={number.format(summary.completed)} />
        <Stat label={t('account.dashboard.inProgress')} value={number.format(summary.inProgress)} />
        <Stat
          label={t('account.dashboard.volume')}
          value={usd.format(summary.volume)}
          hint={t('account.dashboard.volumeHint')}
        />
      </div>

      <div className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-8">
          <section
            aria-labelledby="by-status"
            className="rounded-2xl border border-slate-200 bg-white p-5"
          >
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
                      <StatusBadge status={status} />
                      <span className="font-medium">{number.format(count)}</span>
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
          </section>
          <section
            aria-labelledby="recent-orders"
            className="rounded-2xl border border-slate-200 bg-white p-5"
          >
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
                      <StatusBadge status={order.status} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
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

// My Orders (spec/accounts-and-pages.md §2.13): search by order id or currency, a status
// filter, newest first with the count, amounts with 8 decimals, the empty state, and 'Please
// Sign In' when the session has ended on the server.
import { ChevronDown, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { buttonVariants } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { Menu } from '@/components/ui/menu';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { CoinIcon } from '@/components/coin-icon';
import { OrderStatusBadge } from '@/components/order-status-badge';
import { Card } from '@/components/ui/card';
import { formatTime } from '@/lib/format';
import { ApiError } from '@/lib/api-client';

import { useOrders, type ListedOrder } from '../api/get-orders';
import {
  filterOrders,
  formatAmount,
  STATUS_FILTERS,
  toMillis,
  type StatusFilter,
} from '../lib/list';

export default function OrdersPage() {
  const { t } = useTranslation();
  const orders = useOrders();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('ALL');

  const title = t('account.orders.title');
  const header = (count: number | null) => (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
        {count !== null ? (
          <p className="mt-1 text-slate-600">{t('account.orders.count', { count })}</p>
        ) : null}
      </div>
      <Link to={paths.home} className={buttonVariants()}>
        <Plus aria-hidden="true" className="size-4" />
        {t('account.orders.newExchange')}
      </Link>
    </div>
  );

  let body;
  if (orders.isPending) body = <Spinner label={t('common.loading')} />;
  else if (orders.error instanceof ApiError && orders.error.status === 401) body = <SignInPrompt />;
  else if (orders.error) {
    body = <Alert tone="error">{t('account.orders.error')}</Alert>;
  } else if (orders.data.length === 0) body = <EmptyState />;
  else {
    const shown = filterOrders(orders.data, search, status);
    body = (
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <label className="relative flex-1">
            <span className="sr-only">{t('account.orders.search')}</span>
            <Search
              aria-hidden="true"
              className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
            />
            <input
              type="search"
              className={`${inputClass} pl-9`}
              placeholder={t('account.orders.search')}
              value={search}
              maxLength={100}
              onChange={(e) => setSearch(e.target.value)}
            />
          </label>
          <Menu
            label={t('account.orders.statusFilter')}
            variant="outline"
            trigger={
              <>
                {status === 'ALL' ? t('account.orders.allStatuses') : t(`order.status.${status}`)}
                <ChevronDown aria-hidden="true" className="size-4" />
              </>
            }
            items={(['ALL', ...STATUS_FILTERS] as const).map((value) => ({
              key: value,
              current: value === status,
              label: value === 'ALL' ? t('account.orders.allStatuses') : t(`order.status.${value}`),
              onSelect: () => setStatus(value),
            }))}
          />
        </div>
        {shown.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-slate-700">
            {t('account.orders.noMatch')}
          </p>
        ) : (
          <OrdersTable orders={shown} />
        )}
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <PageMeta title={title} noindex />
      {header(orders.data ? orders.data.length : null)}
      {body}
    </section>
  );
}

function OrdersTable({ orders }: { orders: ListedOrder[] }) {
  const { t, i18n } = useTranslation();
  const amount = (value: string | number, coin: string) => (
    <span className="flex items-center gap-2 whitespace-nowrap">
      <CoinIcon coin={coin} className="size-5" />
      <span className="font-mono text-sm">{formatAmount(value)}</span>
      <span className="text-sm font-medium">{coin}</span>
    </span>
  );
  return (
    <Card padding="none" className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              {t('account.orders.orderId')}
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              {t('account.orders.date')}
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              {t('account.orders.from')}
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              {t('account.orders.to')}
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              {t('account.orders.status')}
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <span className="sr-only">{t('account.orders.action')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {orders.map((order) => (
            <tr key={order.id}>
              <td className="px-4 py-3 font-mono">{order.id}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                {formatTime(toMillis(order.created_at) / 1000, i18n.language)}
              </td>
              <td className="px-4 py-3">{amount(order.from_amount, order.from_currency)}</td>
              <td className="px-4 py-3">{amount(order.to_amount, order.to_currency)}</td>
              <td className="px-4 py-3">
                <OrderStatusBadge status={order.status} />
              </td>
              <td className="px-4 py-3 text-right">
                <Link
                  to={paths.orderDetails(order.id)}
                  className={buttonVariants({ variant: 'outline', size: 'sm' })}
                  aria-label={`${t('account.orders.viewDetails')} ${order.id}`}
                >
                  {t('account.orders.viewDetails')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <h2 className="text-xl font-semibold text-slate-900">{t('account.orders.emptyTitle')}</h2>
      <p className="mt-2 text-slate-600">{t('account.orders.emptyText')}</p>
      <Link to={paths.home} className={buttonVariants({ className: 'mt-6' })}>
        {t('account.orders.createFirst')}
      </Link>
    </div>
  );
}

function SignInPrompt() {
  const { t } = useTranslation();
  return (
    <Card padding="roomy" className="text-center">
      <h2 className="text-xl font-semibold text-slate-900">{t('account.orders.signInTitle')}</h2>
      <p className="mt-2 text-slate-600">{t('account.orders.signInText')}</p>
      <Link to={paths.auth} className={buttonVariants({ className: 'mt-6' })}>
        {t('account.orders.signIn')}
      </Link>
    </Card>
  );
}

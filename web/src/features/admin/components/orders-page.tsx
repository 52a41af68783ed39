// Orders: a search by any of an order's keys, narrowed by status, pair, provider and a range of
// UTC days, kept in the address (`?q=&status=&from=&to=&provider=&since=&until=`, and `before=`
// for later pages), with the results a page at a time.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
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
import { formatAmount, formatTime } from '@/lib/format';
import { ORDER_STATUSES } from '@/lib/order-status';
import { cn } from '@/lib/utils';

import {
  ORDER_FILTERS,
  type OrderFilters,
  type OrderSearch,
  useOrderSearch,
} from '../api/search-orders';
import { queryOf } from '../lib/search-query';
import type { OrderRow } from '../types';
import { DayRangeFields, isBackwards, TextFilterField } from './search-fields';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

export function OrdersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(
    ORDER_FILTERS.map((key) => [key, params.get(key) ?? '']),
  ) as unknown as OrderFilters;
  const search: OrderSearch = { ...filters, before: params.get('before') ?? '' };
  const filtered = ORDER_FILTERS.some((key) => filters[key]);
  const results = useOrderSearch(search);

  let body;
  if (results.isPending) body = <Spinner label={t('common.loading')} />;
  else if (results.isError) {
    body = <ConsoleError error={results.error} what={t('admin.orders.error')} />;
  } else if (results.data.orders.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {filtered ? t('admin.orders.empty') : t('admin.orders.emptyAll')}
      </p>
    );
  } else {
    const { orders, next } = results.data;
    body = (
      <div className="space-y-4" aria-busy={results.isPlaceholderData}>
        <OrdersTable orders={orders} caption={t('admin.orders.results')} />
        {search.before || next ? (
          <nav aria-label={t('admin.orders.pages')} className="flex flex-wrap gap-3">
            {search.before ? (
              <Link to={queryOf({ ...filters })} className={buttonVariants({ variant: 'outline' })}>
                {t('admin.orders.first')}
              </Link>
            ) : null}
            {next ? (
              <Link
                to={queryOf({ ...filters, before: next })}
                className={buttonVariants({ variant: 'outline' })}
              >
                {t('admin.orders.next')}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.orders.title')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('admin.orders.title')}</h1>
      {/* Mounted anew when the address changes (back, forward), so it shows that search. */}
      <SearchForm
        key={ORDER_FILTERS.map((key) => filters[key]).join('\n')}
        initial={filters}
        onSearch={(chosen) => setParams(new URLSearchParams(queryOf({ ...chosen })))}
      />
      {body}
    </div>
  );
}

function SearchForm({
  initial,
  onSearch,
}: {
  initial: OrderFilters;
  onSearch: (filters: OrderFilters) => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [rangeError, setRangeError] = useState(false);
  const set = (key: keyof OrderFilters) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  const search = (chosen: OrderFilters) => {
    const trimmed = Object.fromEntries(
      ORDER_FILTERS.map((key) => [key, chosen[key].trim()]),
    ) as unknown as OrderFilters;
    const backwards = isBackwards(trimmed.since, trimmed.until);
    setRangeError(backwards);
    if (!backwards) onSearch(trimmed);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search(values);
  };
  // A currency code as the catalogue writes it: upper case.
  const codeInput = (key: 'from' | 'to') => (
    <input
      className={inputClass}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={32}
      value={values[key]}
      onChange={(e) => set(key)(e.target.value.toUpperCase())}
    />
  );
  return (
    <form
      role="search"
      onSubmit={submit}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-col gap-3 md:flex-row md:items-end">
        <Field label={t('admin.orders.search')} className="flex-1">
          <input
            type="search"
            className={inputClass}
            placeholder={t('admin.orders.searchPlaceholder')}
            maxLength={200}
            value={values.q}
            onChange={(e) => set('q')(e.target.value)}
          />
        </Field>
        <Field label={t('admin.orders.status')} className="md:w-56">
          <select
            className={inputClass}
            value={values.status}
            onChange={(e) => {
              const status = e.target.value;
              set('status')(status);
              search({ ...values, status });
            }}
          >
            <option value="">{t('admin.orders.allStatuses')}</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`order.status.${status}`)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Field label={t('admin.orders.from')}>{codeInput('from')}</Field>
        <Field label={t('admin.orders.to')}>{codeInput('to')}</Field>
        <TextFilterField
          label={t('admin.orders.provider')}
          hint={t('admin.orders.providerHint')}
          value={values.provider}
          onChange={set('provider')}
        />
        <DayRangeFields
          firstLabel={t('admin.orders.since')}
          lastLabel={t('admin.orders.until')}
          first={values.since}
          last={values.until}
          onFirst={set('since')}
          onLast={set('until')}
          backwardsError={rangeError ? t('admin.orders.rangeError') : null}
        />
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t('admin.orders.submit')}</Button>
        {/* The filters go; the search stays. */}
        <Link
          to={`${paths.adminOrders}${queryOf({ q: initial.q })}`}
          className={buttonVariants({ variant: 'outline' })}
        >
          {t('admin.orders.clear')}
        </Link>
      </div>
    </form>
  );
}

/** `bc1qxy2k…x0wlh`: the start and end of a long value; the whole of it for screen readers. */
export function Shortened({ value, className }: { value: string; className?: string }) {
  const short = value.length > 18 ? `${value.slice(0, 10)}…${value.slice(-6)}` : value;
  return (
    <span className={cn('font-mono', className)} title={value}>
      <span aria-hidden="true">{short}</span>
      <span className="sr-only">{value}</span>
    </span>
  );
}

/** Orders as rows, each id a link to the order's page (the search's results, an account's). */
export function OrdersTable({ orders, caption }: { orders: OrderRow[]; caption: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table>
      <TableCaption>{caption}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.orders.columns.id')}</TableHead>
          <TableHead>{t('admin.orders.columns.created')}</TableHead>
          <TableHead>{t('admin.orders.columns.pair')}</TableHead>
          <TableHead>{t('admin.orders.columns.amounts')}</TableHead>
          <TableHead>{t('admin.orders.columns.status')}</TableHead>
          <TableHead>{t('admin.orders.columns.deposit')}</TableHead>
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
            <TableCell className="whitespace-nowrap">
              {formatTime(order.created_at, locale)}
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
            <TableCell>
              <Shortened value={order.deposit_address} />
              {order.deposit_tag ? (
                <span className="block text-xs text-slate-600">
                  {t('admin.orders.tag', { tag: order.deposit_tag })}
                </span>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

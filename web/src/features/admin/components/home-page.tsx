// The console's home: who is here, with which role; how many orders need a person (each count
// a way to the queue); the last 30 days in figures, all from the server (orders, completed,
// volume, time to complete, the shares that needed a decision or were refunded, and each day);
// the liquidity providers' health (status, latency, uptime of 30 days); and the way to the
// orders.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { cardVariants } from '@/components/ui/card';
import { Section } from '@/components/ui/section';
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
import { formatDay, formatNumber, formatUsd, toFinite } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useQueue } from '../api/get-queue';
import { useStats } from '../api/get-stats';
import { formatDuration, formatShare } from '../lib/figures';
import {
  type ConsoleMe,
  countOf,
  PROVIDER_STATUSES,
  type ProviderHealth,
  type ProviderStatus,
  type Queue,
  QUEUE_REASONS,
  type Stats,
} from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';
import { useReasonTexts } from './queue-page';

/** The period of the home page's figures, in UTC days (today included). */
export const STATS_DAYS = 30;

export function HomePage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const role = t(`admin.roles.${me.role}`);
  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.nav.home')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.home.title')}</h1>
        {me.token ? null : (
          <p className="mt-2 text-slate-700">{t('admin.home.signedInAs', { email: me.email })}</p>
        )}
        <p className="mt-1 text-slate-700">
          {t('admin.home.yourRole', { role })} {t(`admin.home.roleText.${me.role}`)}
        </p>
      </div>
      <QueueSection />
      <StatsSection />
      <ProvidersSection />
      <Section title={t('admin.home.ordersTitle')}>
        <p className="text-sm text-slate-700">{t('admin.home.ordersText')}</p>
        <Link to={paths.adminOrders} className={buttonVariants()}>
          {t('admin.home.ordersLink')}
        </Link>
      </Section>
    </div>
  );
}

function QueueSection() {
  const { t } = useTranslation();
  const queue = useQueue();
  let body;
  if (queue.isPending) body = <Spinner label={t('common.loading')} className="py-6" />;
  else if (queue.isError) body = <ConsoleError error={queue.error} what={t('admin.queue.error')} />;
  else body = <QueueCards queue={queue.data} />;
  return <Section title={t('admin.home.queueTitle')}>{body}</Section>;
}

/** A card per reason: how many orders wait for it, each a link to the queue. */
function QueueCards({ queue }: { queue: Queue }) {
  const { t, i18n } = useTranslation();
  const explain = useReasonTexts(queue);
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {QUEUE_REASONS.map((reason) => (
        <li key={reason}>
          <Link
            to={paths.adminQueue}
            className={cn(
              cardVariants({ padding: 'sm' }),
              'block h-full hover:border-teal-600 hover:bg-teal-50',
            )}
          >
            <span className="block text-sm font-medium text-teal-800 underline underline-offset-2">
              {t(`admin.queue.reasons.${reason}`)}
            </span>{' '}
            <span
              className="mt-1 block text-2xl font-bold text-slate-900 tabular-nums"
              data-testid={`home-queue-${reason}`}
            >
              {formatNumber(countOf(queue.counts, reason), i18n.language)}
            </span>{' '}
            <span className="mt-1 block text-xs text-slate-600">{explain[reason]}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function StatsSection() {
  const { t } = useTranslation();
  const stats = useStats(STATS_DAYS);
  let body;
  if (stats.isPending) body = <Spinner label={t('common.loading')} className="py-6" />;
  else if (stats.isError)
    body = <ConsoleError error={stats.error} what={t('admin.home.statsError')} />;
  else body = <StatsBody stats={stats.data} />;
  return <Section title={t('admin.home.statsTitle')}>{body}</Section>;
}

/** The UTC day of a moment (Unix seconds), `YYYY-MM-DD`. */
const dayOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

function StatsBody({ stats }: { stats: Stats }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const count = (n: number) => formatNumber(n, locale);
  const orders = stats.days.reduce((sum, day) => sum + day.orders, 0);
  const completed = stats.days.reduce((sum, day) => sum + day.completed, 0);
  const volume = stats.days.reduce((sum, day) => sum + (toFinite(day.volume_usd) ?? 0), 0);
  const completion = stats.completion_seconds;
  const share = (part: number) =>
    stats.deposited > 0
      ? t('admin.home.shareOf', { part: count(part), total: count(stats.deposited) })
      : t('admin.home.noDeposits');
  return (
    <>
      <p className="text-sm text-slate-700">
        {t('admin.home.statsSince', { date: formatDay(dayOf(stats.since), locale) })}
      </p>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat label={t('admin.home.totals.orders')} value={count(orders)} />
        <Stat label={t('admin.home.totals.completed')} value={count(completed)} />
        <Stat
          label={t('admin.home.totals.volume')}
          value={formatUsd(volume, locale)}
          testId="home-volume"
        />
      </dl>

      <h3 className="text-base font-semibold text-slate-900">{t('admin.home.completionTitle')}</h3>
      <p className="text-sm text-slate-700">
        {completion.count > 0
          ? t('admin.home.completionText', { orders: count(completion.count) })
          : t('admin.home.completionNone')}
      </p>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat label={t('admin.home.p50')} value={formatDuration(completion.p50, locale)} />
        <Stat label={t('admin.home.p90')} value={formatDuration(completion.p90, locale)} />
        <Stat label={t('admin.home.p99')} value={formatDuration(completion.p99, locale)} />
      </dl>

      <h3 className="text-base font-semibold text-slate-900">{t('admin.home.sharesTitle')}</h3>
      <p className="text-sm text-slate-700">
        {t('admin.home.sharesText', { orders: count(stats.deposited) })}
      </p>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Stat
          label={t('admin.home.emergencyShare')}
          value={formatShare(stats.emergency, stats.deposited, locale)}
          hint={share(stats.emergency)}
          testId="home-emergency-share"
        />
        <Stat
          label={t('admin.home.refundShare')}
          value={formatShare(stats.refunded, stats.deposited, locale)}
          hint={share(stats.refunded)}
          testId="home-refund-share"
        />
      </dl>

      <h3 className="text-base font-semibold text-slate-900">{t('admin.home.daysTitle')}</h3>
      {stats.days.length === 0 ? (
        <p className="text-sm text-slate-700">{t('admin.home.daysEmpty')}</p>
      ) : (
        <Table>
          <TableCaption>{t('admin.home.daysCaption')}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t('admin.home.columns.day')}</TableHead>
              <TableHead className="text-right">{t('admin.home.columns.orders')}</TableHead>
              <TableHead className="text-right">{t('admin.home.columns.completed')}</TableHead>
              <TableHead className="text-right">{t('admin.home.columns.volume')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {stats.days.map((day) => (
              <TableRow key={day.day}>
                <TableCell className="whitespace-nowrap">
                  <time dateTime={day.day}>{formatDay(day.day, locale) ?? day.day}</time>
                </TableCell>
                <TableCell className="text-right tabular-nums">{count(day.orders)}</TableCell>
                <TableCell className="text-right tabular-nums">{count(day.completed)}</TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {formatUsd(day.volume_usd, locale)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

const PROVIDER_TONES: Record<ProviderStatus, BadgeTone> = {
  operational: 'success',
  degraded: 'warning',
  outage: 'danger',
};

function isProviderStatus(status: string): status is ProviderStatus {
  return PROVIDER_STATUSES.some((s) => s === status);
}

/** The liquidity providers as last checked (the same answer as the figures). */
function ProvidersSection() {
  const { t } = useTranslation();
  const stats = useStats(STATS_DAYS);
  let body;
  if (stats.isPending) body = <Spinner label={t('common.loading')} className="py-6" />;
  else if (stats.isError) {
    body = <ConsoleError error={stats.error} what={t('admin.home.providersError')} />;
  } else if (stats.data.providers.length === 0) {
    body = <p className="text-sm text-slate-700">{t('admin.home.providersEmpty')}</p>;
  } else {
    body = <ProvidersTable providers={stats.data.providers} />;
  }
  return <Section title={t('admin.home.providersTitle')}>{body}</Section>;
}

function ProvidersTable({ providers }: { providers: ProviderHealth[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const notMeasured = <span className="text-slate-600">{t('admin.home.notMeasured')}</span>;
  return (
    <Table>
      <TableCaption>{t('admin.home.providersCaption')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.home.providerColumns.name')}</TableHead>
          <TableHead>{t('admin.home.providerColumns.status')}</TableHead>
          <TableHead className="text-right">{t('admin.home.providerColumns.latency')}</TableHead>
          <TableHead className="text-right">{t('admin.home.providerColumns.uptime')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {providers.map((provider) => (
          <TableRow key={provider.key}>
            <TableCell>{provider.name}</TableCell>
            <TableCell>
              {isProviderStatus(provider.status) ? (
                <Badge tone={PROVIDER_TONES[provider.status]}>
                  {t(`admin.home.providerStatuses.${provider.status}`)}
                </Badge>
              ) : (
                <Badge tone="neutral">{provider.status}</Badge>
              )}
            </TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">
              {provider.latency_ms === null
                ? notMeasured
                : formatNumber(provider.latency_ms, locale, {
                    style: 'unit',
                    unit: 'millisecond',
                    unitDisplay: 'short',
                    maximumFractionDigits: 0,
                  })}
            </TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">
              {provider.uptime === null
                ? notMeasured
                : formatNumber(provider.uptime / 100, locale, {
                    style: 'percent',
                    maximumFractionDigits: 2,
                  })}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

// The home page below the swap form (spec/accounts-and-pages.md §2.2): trust cards, recent
// transactions, why-choose cards, popular pairs, the app teaser and the FAQ teaser. Loaded
// after the widget, so the landing page's first paint carries only the form.
import { ArrowRight, Clock, Headphones, ShieldCheck, Smartphone, TrendingDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

import popularPairs from '@popular-pairs';

import { formatAmount, formatNumber, formatUsd } from '@/lib/format';
import { useSiteConfig } from '@/lib/site-config';
import { percentFees } from '@/lib/site-fees';

import { useRecentTransactions } from '../api/get-recent-transactions';
import { shownStats, useSiteStats } from '../api/get-site-stats';
import { receiveAmount } from '../lib/recent-estimate';

/** Twelve pairs, shared with the server's sitemap; the first eight are shown (§2.2). */
export const POPULAR_PAIRS = popularPairs.pairs as [string, string][];
const POPULAR_SHOWN = 8;

const coinOf = (code: string) => code.replace(/(TRC|BSC)$/, '');

function relativeTime(seconds: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const ago = Math.max(0, Math.floor(Date.now() / 1000) - seconds);
  if (ago < 60) return format.format(-ago, 'second');
  if (ago < 3600) return format.format(-Math.floor(ago / 60), 'minute');
  if (ago < 86400) return format.format(-Math.floor(ago / 3600), 'hour');
  return format.format(-Math.floor(ago / 86400), 'day');
}

function duration(seconds: number, language: string): string {
  const minutes = Math.round(seconds / 60);
  return minutes >= 1
    ? formatNumber(minutes, language, { style: 'unit', unit: 'minute', unitDisplay: 'short' })
    : formatNumber(Math.max(0, seconds), language, {
        style: 'unit',
        unit: 'second',
        unitDisplay: 'short',
      });
}

function RecentTransactions() {
  const { t, i18n } = useTranslation();
  const { data, isPending } = useRecentTransactions();
  return (
    <Card as="section" aria-labelledby="recent-title">
      <h2 id="recent-title" className="text-xl font-semibold">
        {t('home.recent.title')}
      </h2>
      {isPending ? (
        <p className="mt-3 text-sm text-slate-600">{t('home.recent.loading')}</p>
      ) : !data || data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('home.recent.empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {data.slice(0, 10).map((tx) => {
            const received = receiveAmount(tx);
            return (
              <li
                key={tx.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
              >
                <span className="font-medium">
                  {formatAmount(tx.from_amount, i18n.language)} {tx.from_currency} →{' '}
                  {received.estimated ? '≈ ' : ''}
                  {received.estimated
                    ? received.amount
                    : formatAmount(received.amount, i18n.language)}{' '}
                  {tx.to_currency}
                </span>
                <span className="text-slate-600">
                  {relativeTime(tx.timestamp, i18n.language)} ·{' '}
                  {t('home.recent.took', { duration: duration(tx.execution_time, i18n.language) })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** Support as the operator states it: "24/7" only if they say so, their hours if they give them. */
function useSupportCard() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  if (config?.support_always_open) {
    return { title: t('home.trust.supportAlwaysTitle'), text: t('home.trust.supportAlways') };
  }
  return {
    title: t('home.trust.supportTitle'),
    text: config?.support_hours
      ? t('home.trust.supportHours', { hours: config.support_hours })
      : t('home.trust.support'),
  };
}

/** The trust section's heading and figures: from the server's count, or none at all. */
function TrustHeading() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const stats = shownStats(useSiteStats().data);
  return (
    <>
      <h2 id="trust-title" className="text-2xl font-semibold">
        {stats
          ? t('home.trust.title', { year: config?.trusted_since ?? 2024 })
          : t('home.trust.titleNew', { siteName: config?.site_name ?? 'Ferry' })}
      </h2>
      {stats ? (
        <p className="mt-2 text-slate-700" data-testid="site-stats">
          {t('home.trust.figures', {
            orders: formatNumber(stats.completed_orders, i18n.language),
            volume: formatUsd(stats.volume_usd, i18n.language, 0),
          })}
        </p>
      ) : null}
    </>
  );
}

export default function HomeSections() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const fees = percentFees(config, i18n.language);
  const support = useSupportCard();
  const trust = [
    { icon: ShieldCheck, title: t('home.trust.secureTitle'), text: t('home.trust.secure') },
    { icon: Clock, title: t('home.trust.fastTitle'), text: t('claims.completionTime') },
    { icon: TrendingDown, title: t('home.trust.ratesTitle'), text: t('home.trust.rates', fees) },
    { icon: Headphones, ...support },
  ];
  const why = [
    { title: t('home.why.noAccountTitle'), text: t('home.why.noAccount') },
    { title: t('home.why.ratesTitle'), text: t('home.why.rates', fees) },
    { title: t('home.why.coinsTitle'), text: t('home.why.coins') },
  ];
  const faq = ['how', 'account', 'fees', 'time'] as const;
  return (
    <div className="mx-auto max-w-6xl space-y-14 px-4 py-14">
      <section aria-labelledby="trust-title">
        <TrustHeading />
        <div className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {trust.map(({ icon: Icon, title, text }) => (
            <Card key={title}>
              <Icon aria-hidden="true" className="size-6 text-teal-700" />
              <h3 className="mt-3 font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-slate-700">{text}</p>
            </Card>
          ))}
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <RecentTransactions />
        <Card as="section" aria-labelledby="pairs-title">
          <h2 id="pairs-title" className="text-xl font-semibold">
            {t('home.pairs.title')}
          </h2>
          <ul className="mt-3 grid grid-cols-2 gap-2">
            {POPULAR_PAIRS.slice(0, POPULAR_SHOWN).map(([from, to]) => (
              <li key={`${from}-${to}`}>
                <Link
                  to={paths.exchangePair(from, to)}
                  className="flex min-h-11 items-center justify-between rounded-lg border border-slate-200 px-3 py-2 text-sm font-medium hover:border-teal-600"
                >
                  {coinOf(from)} → {coinOf(to)}
                  <ArrowRight aria-hidden="true" className="size-4 text-slate-500" />
                </Link>
              </li>
            ))}
          </ul>
          <Link
            to={paths.allPairs}
            className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline"
          >
            {t('home.pairs.all')}
          </Link>
        </Card>
      </div>

      <section aria-labelledby="why-title">
        <h2 id="why-title" className="text-2xl font-semibold">
          {t('home.why.title', { siteName: config?.site_name ?? 'Ferry' })}
        </h2>
        <div className="mt-5 grid gap-4 md:grid-cols-3">
          {why.map(({ title, text }) => (
            <div key={title} className="rounded-2xl bg-teal-50 p-5">
              <h3 className="font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-slate-700">{text}</p>
            </div>
          ))}
        </div>
      </section>

      <section
        aria-labelledby="app-title"
        className="flex flex-col items-start gap-3 rounded-2xl bg-slate-900 p-6 text-white sm:flex-row sm:items-center"
      >
        <Smartphone aria-hidden="true" className="size-10 shrink-0" />
        <div>
          <h2 id="app-title" className="text-xl font-semibold">
            {t('home.app.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-200">{t('home.app.text')}</p>
        </div>
      </section>

      <section aria-labelledby="faq-title">
        <h2 id="faq-title" className="text-2xl font-semibold">
          {t('home.faq.title')}
        </h2>
        <Card padding="none" className="mt-4 divide-y divide-slate-200">
          {faq.map((key) => (
            <details key={key} className="group px-4 py-1">
              <summary className="flex min-h-11 cursor-pointer items-center font-medium">
                {t(`home.faq.${key}Q`)}
              </summary>
              <p className="mb-3 text-sm text-slate-700">
                {key === 'time' ? t('claims.completionTime') : t(`home.faq.${key}A`, fees)}
              </p>
            </details>
          ))}
        </Card>
        <Link
          to={paths.faq}
          className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline"
        >
          {t('home.faq.more')}
        </Link>
      </section>
    </div>
  );
}

// /affiliate: the partner's referral link (copy, QR), statistics, the last 90 days, the
// attributed orders and payout requests.
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { OrderStatusBadge } from '@/components/order-status-badge';
import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Stat } from '@/components/ui/stat';
import { Section } from '@/components/ui/section';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { formatNumber, formatTime, formatUsd } from '@/lib/format';

import {
  type AffiliateSummary,
  type DayPoint,
  useAffiliateSummary,
  useRequestPayout,
} from '../api/partners';
import { chartGeometry } from '../lib/chart';

/** Currencies a partner may be paid in: the catalogue codes of the usual payout coins. */
const PAYOUT_CURRENCIES = [
  ['BTC', 'Bitcoin (BTC)'],
  ['ETH', 'Ethereum (ETH)'],
  ['USDTTRC', 'Tether USDT (TRC20)'],
  ['USDT', 'Tether USDT (ERC20)'],
  ['USDC', 'USD Coin (ERC20)'],
  ['LTC', 'Litecoin (LTC)'],
] as const;

export default function AffiliatePage() {
  const { t } = useTranslation();
  const summary = useAffiliateSummary();
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      <PageMeta title={t('account.affiliate.title')} noindex />
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-slate-900">{t('account.affiliate.title')}</h1>
        {summary.data ? (
          <p className="text-slate-700">
            {t('account.affiliate.intro', { share: summary.data.share_percent })}
          </p>
        ) : null}
      </header>
      {summary.isPending ? <Spinner label={t('common.loading')} /> : null}
      {summary.error ? <Alert tone="error">{summary.error.message}</Alert> : null}
      {summary.data ? <Dashboard summary={summary.data} /> : null}
    </div>
  );
}

function Dashboard({ summary }: { summary: AffiliateSummary }) {
  const { t, i18n } = useTranslation();
  const count = (value: number) => formatNumber(value, i18n.language);
  const money = (value: string) => formatUsd(value, i18n.language);
  return (
    <>
      <ReferralLink link={summary.referral_link} code={summary.referral_code} />
      <dl
        aria-label={t('account.affiliate.statsTitle')}
        className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4"
      >
        <Stat
          testId="stat-clicks"
          label={t('account.affiliate.clicks')}
          value={count(summary.clicks)}
        />
        <Stat
          testId="stat-signups"
          label={t('account.affiliate.signups')}
          value={count(summary.signups)}
        />
        <Stat
          testId="stat-orders"
          label={t('account.affiliate.orders')}
          value={count(summary.orders)}
          hint={t('account.affiliate.completedCount', { count: summary.completed_orders })}
        />
        <Stat
          testId="stat-volume"
          label={t('account.affiliate.volume')}
          value={money(summary.volume_usd)}
        />
        <Stat
          testId="stat-earned"
          label={t('account.affiliate.earned')}
          value={money(summary.earned_usd)}
          hint={`${summary.earned_btc} BTC`}
        />
        <Stat
          testId="stat-pending"
          label={t('account.affiliate.pending')}
          value={money(summary.pending_usd)}
        />
        <Stat
          testId="stat-available"
          label={t('account.affiliate.available')}
          value={money(summary.available_usd)}
        />
        <Stat
          testId="stat-paid"
          label={t('account.affiliate.paid')}
          value={money(summary.paid_usd)}
        />
      </dl>
      <Chart points={summary.chart} />
      <OrdersTable summary={summary} />
      <PayoutSection summary={summary} />
    </>
  );
}

function ReferralLink({ link, code }: { link: string; code: string }) {
  const { t } = useTranslation();
  return (
    <Section title={t('account.affiliate.linkTitle')}>
      <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
        <div className="rounded-xl bg-white p-2 ring-1 ring-slate-200">
          <QRCodeSVG value={link} size={128} level="M" title={t('account.affiliate.qrLabel')} />
        </div>
        <div className="min-w-0 flex-1 space-y-3">
          <div className="flex items-center gap-2">
            <code
              data-testid="referral-link"
              className="flex-1 rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
            >
              {link}
            </code>
            <CopyButton
              value={link}
              what={t('account.affiliate.linkTitle')}
              text={t('account.affiliate.copy')}
              successMessage={t('account.affiliate.copied')}
            />
          </div>
          <p className="text-sm text-slate-600">{t('account.affiliate.codeLine', { code })}</p>
        </div>
      </div>
    </Section>
  );
}

const CHART_WIDTH = 720;
const CHART_HEIGHT = 160;

function Chart({ points }: { points: DayPoint[] }) {
  const { t, i18n } = useTranslation();
  const geometry = chartGeometry(points, CHART_WIDTH, CHART_HEIGHT);
  const slot = CHART_WIDTH / Math.max(points.length, 1);
  const date = (day: number) =>
    new Date(day * 1000).toLocaleDateString(i18n.language, { month: 'short', day: 'numeric' });
  const summary = t('account.affiliate.chartSummary', {
    clicks: geometry.totals.clicks,
    orders: geometry.totals.orders,
    earned: formatUsd(geometry.totals.earned, i18n.language),
  });
  return (
    <Section title={t('account.affiliate.chartTitle')}>
      <p className="text-sm text-slate-700">{summary}</p>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT + 20}`}
        className="h-auto w-full"
      >
        <line
          x1={0}
          x2={CHART_WIDTH}
          y1={CHART_HEIGHT}
          y2={CHART_HEIGHT}
          className="stroke-slate-300"
        />
        {geometry.clicks.map((bar, i) => (
          <rect
            key={`c${i}`}
            x={bar.x}
            y={CHART_HEIGHT - bar.height}
            width={slot / 2 - 1}
            height={bar.height}
            className="fill-slate-400"
          >
            <title>{`${date(points[i]!.day)}: ${t('account.affiliate.clicks')} ${points[i]!.clicks}`}</title>
          </rect>
        ))}
        {geometry.orders.map((bar, i) => (
          <rect
            key={`o${i}`}
            x={bar.x}
            y={CHART_HEIGHT - bar.height}
            width={slot / 2 - 1}
            height={bar.height}
            className="fill-teal-700"
          >
            <title>{`${date(points[i]!.day)}: ${t('account.affiliate.orders')} ${points[i]!.orders}`}</title>
          </rect>
        ))}
        {points.length > 0 ? (
          <>
            <text x={0} y={CHART_HEIGHT + 16} fontSize={12} className="fill-slate-600">
              {date(points[0]!.day)}
            </text>
            <text
              x={CHART_WIDTH}
              y={CHART_HEIGHT + 16}
              fontSize={12}
              className="fill-slate-600"
              textAnchor="end"
            >
              {date(points[points.length - 1]!.day)}
            </text>
          </>
        ) : null}
      </svg>
      <p className="flex gap-4 text-xs text-slate-700">
        <span className="inline-flex items-center gap-1">
          <span aria-hidden className="inline-block size-3 rounded-sm bg-slate-400" />
          {t('account.affiliate.clicks')}
        </span>
        <span className="inline-flex items-center gap-1">
          <span aria-hidden className="inline-block size-3 rounded-sm bg-teal-700" />
          {t('account.affiliate.orders')}
        </span>
      </p>
    </Section>
  );
}

function OrdersTable({ summary }: { summary: AffiliateSummary }) {
  const { t, i18n } = useTranslation();
  const usd = (value: string) => formatUsd(value, i18n.language);
  return (
    <Section title={t('account.affiliate.ordersTitle')}>
      {summary.recent_orders.length === 0 ? (
        <p className="text-slate-600">{t('account.affiliate.noOrders')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                {(['date', 'order', 'pair', 'status', 'volume', 'commission'] as const).map((c) => (
                  <th key={c} scope="col" className="py-2 pr-3 font-medium">
                    {t(`account.affiliate.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {summary.recent_orders.map((o) => (
                <tr key={o.id} className="border-t border-slate-100">
                  <td className="py-2 pr-3">{formatTime(o.created_at, i18n.language)}</td>
                  <td className="py-2 pr-3 font-mono">{o.id}</td>
                  <td className="py-2 pr-3">
                    {o.from_amount} {o.from_code} → {o.to_code}
                  </td>
                  <td className="py-2 pr-3">
                    <OrderStatusBadge status={o.status} />
                  </td>
                  <td className="py-2 pr-3">{usd(o.volume_usd)}</td>
                  <td className="py-2">
                    {usd(o.commission_usd)}{' '}
                    <span className="text-xs text-slate-600">
                      ({t(`account.affiliate.states.${o.commission_state}`)})
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function PayoutSection({ summary }: { summary: AffiliateSummary }) {
  const { t, i18n } = useTranslation();
  const [currency, setCurrency] = useState<string>('BTC');
  const [address, setAddress] = useState('');
  const request = useRequestPayout();
  const usd = (value: number | string) => formatUsd(value, i18n.language);
  const available = Number(summary.available_usd) || 0;
  const minimum = Number(summary.min_payout_usd) || 0;
  const open = summary.payouts.some((p) => p.status === 'requested');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(
      { currency, address: address.trim() },
      {
        onSuccess: () => {
          setAddress('');
          notify(t('account.affiliate.payoutRequested'), {
            description: t('account.affiliate.payoutRequestedText'),
          });
        },
        onError: (error) =>
          notify(t('account.affiliate.payoutFailed'), {
            description: error.message,
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <Section title={t('account.affiliate.payoutTitle')}>
      <p className="text-sm text-slate-700">
        {t('account.affiliate.payoutText', {
          available: usd(available),
          minimum: usd(minimum),
        })}
      </p>
      {open ? <Alert tone="warning">{t('account.affiliate.payoutOpen')}</Alert> : null}
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[auto_1fr_auto] sm:items-end">
        <Field label={t('account.affiliate.payoutCurrency')}>
          <select
            className={inputClass}
            value={currency}
            onChange={(e) => setCurrency(e.target.value)}
          >
            {PAYOUT_CURRENCIES.map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('account.affiliate.payoutAddress')}>
          <input
            className={inputClass}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
        </Field>
        <Button
          type="submit"
          disabled={
            request.isPending || open || available < minimum || available <= 0 || !address.trim()
          }
        >
          {t('account.affiliate.requestPayout')}
        </Button>
      </form>
      {summary.payouts.length > 0 ? (
        <ul
          aria-label={t('account.affiliate.payoutHistory')}
          className="divide-y divide-slate-100 text-sm"
        >
          {summary.payouts.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
              <span>{formatTime(p.created_at, i18n.language)}</span>
              <span className="font-medium">{usd(p.amount_usd)}</span>
              <span>{p.currency}</span>
              <span className="font-mono break-all text-slate-700">{p.address}</span>
              <Badge>{t(`account.affiliate.payoutStates.${p.status}`)}</Badge>
              {p.txid ? <span className="font-mono text-xs break-all">{p.txid}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

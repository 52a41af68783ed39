// The status page (spec/accounts-and-pages.md §2.6, §4.3), with what the server measured:
// the banner, the services with their uptime, the networks with congestion bars, and the
// incident history.
import { CheckCircle2, CircleAlert, CircleX } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { Card } from '@/components/ui/card';
import { formatNumber, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { type StatusService, useStatus } from '../api/get-status';
import { congestionBar, labelOf, toneOf } from '../lib/labels';

const TONES = { good: 'info', warn: 'warning', bad: 'danger', neutral: 'neutral' } as const;

function StatusLabel({ status }: { status: string }) {
  const { t } = useTranslation();
  const label = labelOf(status);
  return <Badge tone={TONES[toneOf(label)]}>{t(`status.labels.${label}`)}</Badge>;
}

/** Providers whose brand is not their key capitalised. */
const PROVIDER_NAMES: Record<string, string> = { fixedfloat: 'FixedFloat' };

function useServiceName() {
  const { t } = useTranslation();
  return (service: StatusService) => {
    if (service.key.startsWith('provider:')) {
      const name = service.key.slice('provider:'.length);
      const brand = PROVIDER_NAMES[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
      return t('status.services.provider', { name: brand });
    }
    const known = ['api', 'database', 'orders', 'mail'] as const;
    const key = known.find((k) => k === service.key);
    return key ? t(`status.services.${key}`) : service.name;
  };
}

export default function StatusPage() {
  const { t, i18n } = useTranslation();
  const status = useStatus();
  const serviceName = useServiceName();
  const title = t('status.title');
  if (status.isPending) {
    return (
      <>
        <PageMeta title={title} description={t('status.subtitle')} />
        <Spinner label={t('common.loading')} />
      </>
    );
  }
  if (status.error) {
    return (
      <section className="mx-auto max-w-4xl px-4 py-16">
        <PageMeta title={title} />
        <p role="alert">{t('status.failed')}</p>
      </section>
    );
  }
  const report = status.data;
  const overall =
    (['operational', 'degraded', 'outage'] as const).find((s) => s === report.status) ?? 'degraded';
  const Icon =
    overall === 'operational' ? CheckCircle2 : overall === 'outage' ? CircleX : CircleAlert;

  return (
    <div className="mx-auto max-w-5xl space-y-10 px-4 py-12">
      <PageMeta title={title} description={t('status.subtitle')} />
      <header>
        <h1 className="text-4xl font-bold text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-700">{t('status.subtitle')}</p>
      </header>
      <div
        role="status"
        className={cn(
          'flex items-center gap-3 rounded-2xl p-5 text-lg font-semibold',
          overall === 'operational'
            ? 'bg-teal-700 text-white'
            : overall === 'outage'
              ? 'bg-red-700 text-white'
              : 'bg-amber-400 text-amber-950',
        )}
      >
        <Icon aria-hidden="true" className="size-7" />
        <span>{t(`status.banner.${overall}`)}</span>
        <span className="ml-auto text-sm font-normal">
          {t('status.checkedAt', { time: formatTime(report.checked_at, i18n.language) })}
        </span>
      </div>

      <section aria-labelledby="services-title">
        <h2 id="services-title" className="text-2xl font-semibold text-slate-900">
          {t('status.servicesTitle')}
        </h2>
        <ul className="mt-4 divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white">
          {report.services.map((service) => (
            <li key={service.key} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div>
                <p className="font-medium text-slate-900">{serviceName(service)}</p>
                <p className="text-xs text-slate-600">
                  {service.uptime !== null
                    ? t('status.uptime', {
                        uptime: formatNumber(service.uptime / 100, i18n.language, {
                          style: 'percent',
                          minimumFractionDigits: 2,
                          maximumFractionDigits: 2,
                        }),
                      })
                    : t('status.uptimeNone')}
                  {service.latency_ms !== null
                    ? ` · ${t('status.latency', { ms: service.latency_ms })}`
                    : ''}
                </p>
              </div>
              <StatusLabel status={service.status} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="networks-title">
        <h2 id="networks-title" className="text-2xl font-semibold text-slate-900">
          {t('status.networksTitle')}
        </h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {report.networks.map((network) => {
            const bar = congestionBar(network.congestion);
            return (
              <Card as="li" padding="sm" key={network.code}>
                <div className="flex items-start justify-between gap-2">
                  <p className="font-medium text-slate-900">{network.name}</p>
                  <StatusLabel status={network.status} />
                </div>
                {network.blockTime !== null ? (
                  <p className="mt-1 text-xs text-slate-600">
                    {t('status.blockTime', { seconds: network.blockTime })}
                  </p>
                ) : null}
                {bar !== null && network.congestion ? (
                  <div className="mt-2">
                    <p className="text-xs text-slate-600">
                      {t('status.congestion')}:{' '}
                      {t(
                        `status.congestionLevels.${network.congestion as 'low' | 'medium' | 'high'}`,
                      )}
                      {network.confirmation_seconds !== null
                        ? ` · ${t('status.confirmation', { seconds: network.confirmation_seconds })}`
                        : ''}
                    </p>
                    <div
                      className="mt-1 h-2 rounded-full bg-slate-100"
                      role="meter"
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={bar}
                      aria-label={t('status.congestion')}
                    >
                      <div
                        className={cn(
                          'h-2 rounded-full',
                          bar >= 90 ? 'bg-red-600' : bar >= 50 ? 'bg-amber-500' : 'bg-teal-600',
                        )}
                        style={{ width: `${bar}%` }}
                      />
                    </div>
                  </div>
                ) : (
                  <p className="mt-1 text-xs text-slate-600">{t('status.noDeposits')}</p>
                )}
              </Card>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="incidents-title">
        <h2 id="incidents-title" className="text-2xl font-semibold text-slate-900">
          {t('status.incidentsTitle')}
        </h2>
        {report.incidents.length === 0 ? (
          <p className="mt-4 text-slate-700">{t('status.noIncidents')}</p>
        ) : (
          <ol className="mt-4 space-y-4">
            {report.incidents.map((incident) => (
              <Card as="li" key={incident.id}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-semibold text-slate-900">{incident.title}</h3>
                  <StatusLabel status={incident.status} />
                </div>
                <p className="text-xs text-slate-600">{formatTime(incident.date, i18n.language)}</p>
                {incident.description ? (
                  <p className="mt-2 text-slate-700">{incident.description}</p>
                ) : null}
                <ul className="mt-3 space-y-2 border-l-2 border-slate-200 pl-4">
                  {incident.updates.map((update) => (
                    <li key={`${update.time}-${update.message}`} className="text-sm">
                      <span className="font-medium">
                        {t(`status.labels.${labelOf(update.status)}`)}
                      </span>{' '}
                      <span className="text-slate-600">
                        {formatTime(update.time, i18n.language)}
                      </span>
                      <p className="text-slate-700">{update.message}</p>
                    </li>
                  ))}
                </ul>
              </Card>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

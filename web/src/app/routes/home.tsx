import { CheckCircle2 } from 'lucide-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { HOME_PAIR } from '@/features/exchange/lib/constants';
import { SAMPLE_ADDRESSES } from '@/features/exchange/lib/samples';
import { formatPercent } from '@/lib/format-number';
import { useSiteConfig } from '@/lib/site-config';
import { lazyWithTexts } from '@/lib/i18n';

const HomeSections = lazyWithTexts(() => import('@/features/site/components/home-sections'));

export default function HomeRoute() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  const fees = config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;
  const facts = [
    t('home.noAccount'),
    t('home.nonCustodial'),
    ...(fees
      ? [
          t('home.floatFee', { fee: formatPercent(fees.float, i18n.language) }),
          t('home.fixedFee', { fee: formatPercent(fees.fixed, i18n.language) }),
        ]
      : []),
  ];
  return (
    <section className="bg-gradient-to-b from-teal-50 to-slate-50">
      <PageMeta title={t('meta.defaultTitle', { siteName })} description={t('meta.description')} />
      {/* On a phone the form comes right after the title, so its amounts and "Exchange now"
          are on the first screen; the rest of the introduction follows it. */}
      <div className="mx-auto grid max-w-6xl grid-cols-1 items-start gap-x-10 gap-y-4 px-4 py-4 sm:gap-y-8 sm:py-12 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:py-16">
        <h1 className="max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:col-start-1 lg:row-start-1 lg:text-5xl">
          {t('home.title')}
        </h1>
        <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <ExchangeWidget
            initialFrom={HOME_PAIR.from}
            initialTo={HOME_PAIR.to}
            {...(fees ? { fees } : {})}
            {...(config?.sandbox ? { samples: SAMPLE_ADDRESSES } : {})}
          />
        </div>
        <div className="lg:col-start-1 lg:row-start-2">
          <p className="max-w-2xl text-lg text-slate-700">{t('home.subtitle')}</p>
          <ul className="mt-6 flex flex-wrap gap-3">
            {facts.map((fact) => (
              <li
                key={fact}
                className="flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm"
              >
                <CheckCircle2 aria-hidden="true" className="size-4 text-teal-700" />
                {fact}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <Suspense fallback={null}>
        <HomeSections />
      </Suspense>
    </section>
  );
}

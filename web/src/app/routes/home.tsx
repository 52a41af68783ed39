import { CheckCircle2 } from 'lucide-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { ExchangeWidget } from '@/features/exchange/components/exchange-widget';
import { HOME_PAIR } from '@/features/exchange/lib/constants';
import { SAMPLE_ADDRESSES } from '@/features/exchange/lib/samples';
import { useSiteConfig } from '@/lib/site-config';
import { lazyWithTexts } from '@/lib/i18n';

const HomeSections = lazyWithTexts(() => import('@/features/site/components/home-sections'));

export default function HomeRoute() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  const fees = config
    ? { float: config.fees.float_percent, fixed: config.fees.fixed_percent }
    : undefined;
  const facts = [
    t('home.noAccount'),
    t('home.nonCustodial'),
    ...(fees
      ? [t('home.floatFee', { fee: fees.float }), t('home.fixedFee', { fee: fees.fixed })]
      : []),
  ];
  return (
    <section className="bg-gradient-to-b from-teal-50 to-slate-50">
      <PageMeta title={t('meta.defaultTitle', { siteName })} description={t('meta.description')} />
      <div className="mx-auto grid max-w-6xl grid-cols-1 items-start gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2">
        <div>
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            {t('home.title')}
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-700">{t('home.subtitle')}</p>
          <ul className="mt-8 flex flex-wrap gap-3">
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
        <ExchangeWidget
          initialFrom={HOME_PAIR.from}
          initialTo={HOME_PAIR.to}
          {...(fees ? { fees } : {})}
          {...(config?.sandbox ? { samples: SAMPLE_ADDRESSES } : {})}
        />
      </div>
      <Suspense fallback={null}>
        <HomeSections />
      </Suspense>
    </section>
  );
}

// /about (spec/accounts-and-pages.md §1): mission, vision, three selling points and the roadmap,
// told as it stands rather than as it was once announced.
import { CheckCircle2, CircleDashed } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

import { useSiteConfig } from '@/lib/site-config';
import { percentFees } from '@/lib/site-fees';

const ROADMAP = [
  { quarter: 'Q2 2025', key: 'currencies', done: true },
  { quarter: 'Q3 2025', key: 'accounts', done: false },
  { quarter: 'Q4 2025', key: 'partners', done: false },
  { quarter: 'Q1 2026', key: 'languages', done: false },
] as const;

export default function AboutPage() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const siteName = config?.site_name ?? 'Ferry';
  const fees = percentFees(config, i18n.language);
  const points = [
    { title: t('about.points.custodyTitle'), text: t('about.points.custody') },
    { title: t('about.points.pricingTitle'), text: t('about.points.pricing', fees) },
    { title: t('about.points.openTitle'), text: t('about.points.open') },
  ];
  return (
    <article className="mx-auto max-w-4xl px-4 py-12">
      <PageMeta
        title={t('about.title', { siteName })}
        description={t('about.intro', { siteName })}
      />
      <h1 className="text-3xl font-bold">{t('about.title', { siteName })}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('about.intro', { siteName })}</p>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="mission">
          <h2 id="mission" className="text-xl font-semibold">
            {t('about.missionTitle')}
          </h2>
          <p className="mt-2 text-slate-700">{t('about.mission')}</p>
        </section>
        <section aria-labelledby="vision">
          <h2 id="vision" className="text-xl font-semibold">
            {t('about.visionTitle')}
          </h2>
          <p className="mt-2 text-slate-700">{t('about.vision')}</p>
        </section>
      </div>
      <div className="mt-10 grid gap-4 md:grid-cols-3">
        {points.map((point) => (
          <Card as="section" key={point.title}>
            <h2 className="font-semibold">{point.title}</h2>
            <p className="mt-1 text-sm text-slate-700">{point.text}</p>
          </Card>
        ))}
      </div>
      <section aria-labelledby="roadmap" className="mt-10">
        <h2 id="roadmap" className="text-xl font-semibold">
          {t('about.roadmapTitle')}
        </h2>
        <ol className="mt-4 space-y-3">
          {ROADMAP.map((step) => (
            <li key={step.key} className="flex gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200">
              {step.done ? (
                <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-emerald-700" />
              ) : (
                <CircleDashed aria-hidden="true" className="size-5 shrink-0 text-slate-500" />
              )}
              <div>
                <p className="font-medium">
                  {step.quarter} — {t(`about.roadmap.${step.key}`)}
                </p>
                <p className="text-sm text-slate-600">{t(`about.roadmap.${step.key}Status`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
      <Link to={paths.home} className={buttonVariants({ className: 'mt-10' })}>
        {t('about.cta')}
      </Link>
    </article>
  );
}

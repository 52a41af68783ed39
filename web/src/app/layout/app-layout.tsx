import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router';

import { SiteNameProvider } from '@/components/seo/page-meta';
import { Spinner } from '@/components/ui/spinner';
import { useReferralCapture } from '@/features/affiliate/hooks/use-referral-capture';
import { useSiteConfig } from '@/lib/site-config';

import { lazyWithTexts } from '@/lib/i18n';

import { Header } from './header';
import { LanguageSync } from './language-sync';
import { SandboxBanner } from './sandbox-banner';

// Below the fold on every page: its code loads after the first screen's.
const Footer = lazyWithTexts(() => import('./footer'));

export function AppLayout() {
  const { t } = useTranslation();
  const { data: config } = useSiteConfig();
  useReferralCapture();
  return (
    <SiteNameProvider value={config?.site_name ?? 'Ferry'}>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          {t('common.skipToContent')}
        </a>
        <LanguageSync />
        <SandboxBanner />
        <Header />
        {/* At least a screen tall, so the footer starts below the fold and pages that load their
          content late never push it around in view. */}
        <main id="main" className="min-h-screen flex-1">
          <Suspense fallback={<Spinner label={t('common.loading')} />}>
            <Outlet />
          </Suspense>
        </main>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
        <ScrollRestoration />
      </div>
    </SiteNameProvider>
  );
}

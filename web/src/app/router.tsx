import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject } from 'react-router';

import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { lazyWithTexts } from '@/lib/i18n';

import { RouteError } from './error-boundary';
import { AppLayout } from './layout/app-layout';

import HomeRoute from './routes/home';
import { MarketsRoute } from './routes/markets';

// The landing page ships in the entry chunk; every other page is code-split with React.lazy,
// and the layout's Suspense shows a spinner while one loads.
const NotFoundRoute = lazyWithTexts(() => import('./routes/not-found'));
const ExchangePairRoute = lazyWithTexts(() => import('./routes/exchange-pair'));
const OrderPage = lazyWithTexts(() => import('@/features/exchange/components/order-page'));
const TrackPage = lazyWithTexts(() => import('@/features/exchange/components/track-page'));
const AllPairsPage = lazyWithTexts(() => import('@/features/exchange/components/all-pairs-page'));
const ConvertPage = lazyWithTexts(() => import('@/features/exchange/components/convert-page'));
const AboutPage = lazyWithTexts(() => import('@/features/site/components/about-page'));
const TermsRoute = lazyWithTexts(() =>
  import('./routes/legal').then((m) => ({ default: m.TermsRoute })),
);
const PrivacyRoute = lazyWithTexts(() =>
  import('./routes/legal').then((m) => ({ default: m.PrivacyRoute })),
);

// The guards of the account and sign-in pages load with them, not with the landing page.
const ProtectedRoute = lazyWithTexts(
  () =>
    import('@/features/auth/components/protected-route').then((m) => ({
      default: m.ProtectedRoute,
    })),
  [],
);
const GuestRoute = lazyWithTexts(
  () =>
    import('@/features/auth/components/protected-route').then((m) => ({ default: m.GuestRoute })),
  [],
);

const account = ['account'] as const;
const SignInPage = lazyWithTexts(() => import('@/features/auth/components/signin-page'), account);
const SignUpPage = lazyWithTexts(() => import('@/features/auth/components/signup-page'), account);
const ForgotPasswordPage = lazyWithTexts(
  () => import('@/features/auth/components/forgot-password-page'),
  account,
);
const ResetPasswordPage = lazyWithTexts(
  () => import('@/features/auth/components/reset-password-page'),
  account,
);
const VerifyEmailPage = lazyWithTexts(
  () => import('@/features/auth/components/verify-email-page'),
  account,
);
const withPages = ['pages', 'account'] as const;
const OrdersPage = lazyWithTexts(
  () => import('@/features/orders/components/orders-page'),
  withPages,
);
const DashboardPage = lazyWithTexts(() => import('./routes/dashboard'), withPages);
const ProfilePage = lazyWithTexts(
  () => import('@/features/account/components/profile-page'),
  withPages,
);
const WalletPage = lazyWithTexts(
  () => import('@/features/account/components/wallet-page'),
  account,
);

// Its copy buttons speak in page texts.
const ApiKeysPage = lazyWithTexts(
  () => import('@/features/partners/components/api-keys-page'),
  withPages,
);
// Its orders table shows order statuses, whose names are page texts.
const AffiliatePage = lazyWithTexts(
  () => import('@/features/partners/components/affiliate-page'),
  withPages,
);

const HelpPage = lazyWithTexts(() => import('@/features/help/components/help-page'));
const ArticlePage = lazyWithTexts(() => import('@/features/help/components/article-page'));
const BlogListPage = lazyWithTexts(() =>
  import('@/features/blog/components/blog-pages').then((m) => ({ default: m.BlogListPage })),
);
const BlogPostPage = lazyWithTexts(() =>
  import('@/features/blog/components/blog-pages').then((m) => ({ default: m.BlogPostPage })),
);

const FaqPage = lazyWithTexts(() => import('@/features/faq/components/faq-page'), ['faq']);
const PresalePage = lazyWithTexts(() => import('@/features/site/components/presale-page'));
const LanguageTestPage = lazyWithTexts(
  () => import('@/features/site/components/language-test-page'),
);
const ApiDocsPage = lazyWithTexts(() => import('@/features/api-docs/components/api-docs-page'));
const StatusPage = lazyWithTexts(() => import('@/features/status/components/status-page'));
const ContactPage = lazyWithTexts(() => import('@/features/contact/components/contact-page'));

// The back office: its own layout, its own texts, and none of its code in the public bundle.
const AdminApp = lazyWithTexts(
  () => import('@/features/admin/components/admin-app'),
  ['pages', 'admin'],
);

function AdminRoute() {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Spinner label={t('common.loading')} />}>
      <AdminApp />
    </Suspense>
  );
}

/** Every page of the app; the browser's router and the build's prerender (`entry-prerender`) share it. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomeRoute /> },
      { path: '/exchange/all-pairs', element: <AllPairsPage /> },
      { path: '/exchange/:pair', element: <ExchangePairRoute /> },
      { path: '/convert', element: <ConvertPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/terms', element: <TermsRoute /> },
      { path: paths.help, element: <HelpPage /> },
      { path: paths.contact, element: <ContactPage /> },
      { path: paths.faq, element: <FaqPage /> },
      { path: paths.status, element: <StatusPage /> },
      { path: paths.markets, element: <MarketsRoute /> },
      { path: paths.apiDocs, element: <ApiDocsPage /> },
      { path: paths.documentation, element: <ApiDocsPage /> },
      { path: paths.presale, element: <PresalePage /> },
      { path: paths.languageTest, element: <LanguageTestPage /> },
      { path: '/help/articles/:slug', element: <ArticlePage /> },
      { path: paths.blog, element: <BlogListPage /> },
      { path: '/blog/category/:category', element: <BlogListPage /> },
      { path: '/blog/tag/:tag', element: <BlogListPage /> },
      { path: '/blog/:slug', element: <BlogPostPage /> },
      { path: '/privacy', element: <PrivacyRoute /> },
      { path: paths.track, element: <TrackPage /> },
      { path: '/order/:orderId', element: <OrderPage /> },
      { path: '/order-details/:orderId', element: <OrderPage /> },
      { path: paths.forgotPassword, element: <ForgotPasswordPage /> },
      { path: paths.resetPassword, element: <ResetPasswordPage /> },
      { path: paths.verifyEmail, element: <VerifyEmailPage /> },
      {
        // Account pages: signed-in users only.
        element: <ProtectedRoute />,
        children: [
          { path: paths.orders, element: <OrdersPage /> },
          { path: paths.dashboard, element: <DashboardPage /> },
          { path: paths.profile, element: <ProfilePage /> },
          { path: paths.wallet, element: <WalletPage /> },
          { path: paths.affiliate, element: <AffiliatePage /> },
          { path: paths.api, element: <ApiKeysPage /> },
          { path: paths.apiManagement, element: <ApiKeysPage /> },
        ],
      },
      {
        // Sign-in and sign-up are for visitors only.
        element: <GuestRoute />,
        children: [
          { path: paths.signIn, element: <SignInPage /> },
          { path: paths.auth, element: <SignInPage /> },
          { path: paths.signUp, element: <SignUpPage /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
  { path: `${paths.admin}/*`, element: <AdminRoute />, errorElement: <RouteError /> },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

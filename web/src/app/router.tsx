import { createBrowserRouter } from 'react-router';

import { protectedPaths } from '@/config/paths';
import { GuestRoute, ProtectedRoute } from '@/features/auth/components/protected-route';
import { lazyWithTexts } from '@/lib/i18n';

import { RouteError } from './error-boundary';
import { AppLayout } from './layout/app-layout';

import HomeRoute from './routes/home';

// The landing page ships in the entry chunk; every other page is code-split with React.lazy,
// and the layout's Suspense shows a spinner while one loads.
const NotFoundRoute = lazyWithTexts(() => import('./routes/not-found'));
const ExchangePairRoute = lazyWithTexts(() => import('./routes/exchange-pair'));
const OrderPage = lazyWithTexts(() => import('@/features/exchange/components/order-page'));
const AllPairsPage = lazyWithTexts(() => import('@/features/exchange/components/all-pairs-page'));
const ConvertPage = lazyWithTexts(() => import('@/features/exchange/components/convert-page'));
const AboutPage = lazyWithTexts(() => import('@/features/site/components/about-page'));
const TermsRoute = lazyWithTexts(() =>
  import('./routes/legal').then((m) => ({ default: m.TermsRoute })),
);
const PrivacyRoute = lazyWithTexts(() =>
  import('./routes/legal').then((m) => ({ default: m.PrivacyRoute })),
);

export function createRouter() {
  return createBrowserRouter([
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
        { path: '/privacy', element: <PrivacyRoute /> },
        { path: '/order/:orderId', element: <OrderPage /> },
        { path: '/order-details/:orderId', element: <OrderPage /> },
        {
          // Account pages: signed-in users only. Their pages arrive with the accounts work;
          // until then a signed-in visitor sees the not-found page.
          element: <ProtectedRoute />,
          children: protectedPaths.map((path) => ({ path, element: <NotFoundRoute /> })),
        },
        {
          // Sign-in and sign-up are for visitors only.
          element: <GuestRoute />,
          children: ['/signin', '/auth', '/signup'].map((path) => ({
            path,
            element: <NotFoundRoute />,
          })),
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ]);
}

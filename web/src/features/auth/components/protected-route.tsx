// The guard of spec/accounts-and-pages.md §2.1: a spinner while the user loads, the page when
// signed in, else a redirect to /signin.
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';

import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

import { useUser } from '@/lib/auth';

export function ProtectedRoute() {
  const { user, isLoading } = useUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (isLoading) return <Spinner label={t('common.loading')} />;
  if (!user) return <Navigate to={paths.signIn} replace state={{ from: location }} />;
  return <Outlet />;
}

/**
 * Sign-in and sign-up are for visitors: a signed-in user goes home, or back to the protected
 * page that sent them to sign in.
 */
export function GuestRoute() {
  const { user, isLoading } = useUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (isLoading) return <Spinner label={t('common.loading')} />;
  if (user) {
    const from = (location.state as { from?: { pathname?: string } } | null)?.from?.pathname;
    return <Navigate to={from?.startsWith('/') ? from : paths.home} replace />;
  }
  return <Outlet />;
}

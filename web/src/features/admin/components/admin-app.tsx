// The back office at /admin (issue 22), a lazily loaded part of the app with its own layout.
// Its guard: signed out → sign in (and back); not an operator → the app's "not found"; no
// second factor → how to turn it on; locked → a code from the authenticator app. A console
// that locks while in use shows the code's dialog over the page, which stays as it was.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useRoutes } from 'react-router';

import { NotFound } from '@/components/not-found';
import { PageMeta } from '@/components/seo/page-meta';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';

import { consoleMeQueryOptions, useConsoleMe } from '../api/get-console-me';
import { abandonWaiting, lockState, onConsoleCall, subscribeLock } from '../lib/console-lock';
import type { ConsoleMe } from '../types';
import { AdminLayout, ConsoleTitle } from './admin-layout';
import { ApiKeysPage } from './api-keys-page';
import { AuditPage } from './audit-page';
import { TwoFactorNeeded } from './console-error';
import { CurrenciesPage } from './currencies-page';
import { HomePage } from './home-page';
import { IncidentsPage } from './incidents-page';
import { MessagesPage } from './messages-page';
import { OrderPage } from './order-page';
import { OperatorsPage } from './operators-page';
import { OrdersPage } from './orders-page';
import { PayoutsPage } from './payouts-page';
import { QueuePage } from './queue-page';
import { UnlockDialog, UnlockPanel } from './unlock-form';
import { UserPage } from './user-page';
import { UsersPage } from './users-page';

export default function AdminApp() {
  const { user, isLoading } = useUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (isLoading) return <Spinner label={t('common.loading')} />;
  if (!user) return <Navigate to={paths.signIn} replace state={{ from: location }} />;
  return <Console />;
}

function Console() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useConsoleMe();
  const lock = useSyncExternalStore(subscribeLock, lockState, lockState);
  const open = lock.openUntil !== null;
  // Whether the console has been open since this visit began (or was last locked by hand).
  const [entered, setEntered] = useState(open);
  if (open && !entered) setEntered(true);

  // Every call starts the idle time again: the countdown reads the server's new deadline.
  useEffect(
    () =>
      onConsoleCall(
        () => void queryClient.invalidateQueries({ queryKey: consoleMeQueryOptions().queryKey }),
      ),
    [queryClient],
  );
  // Calls still waiting for a code when the console is left fail.
  useEffect(() => () => abandonWaiting(new Error('The back office was left while locked')), []);

  if (me.isPending) return <Spinner label={t('common.loading')} />;
  if (me.isError) {
    return (
      <div className="mx-auto max-w-lg space-y-4 px-4 py-16">
        <PageMeta title={t('admin.title')} noindex />
        <Alert tone="error">{t('admin.errors.generic')}</Alert>
        <Button variant="outline" onClick={() => void me.refetch()}>
          {t('admin.errors.retry')}
        </Button>
      </div>
    );
  }
  if (me.data === null) return <NotFound />;
  const operator = me.data;
  if (!operator.token && !operator.two_factor) {
    return (
      <AdminLayout me={operator}>
        <ConsoleTitle title={t('admin.session.twoFactorTitle')} />
        <TwoFactorNeeded heading="h1" />
      </AdminLayout>
    );
  }
  if (!open && !entered) {
    return (
      <AdminLayout me={operator}>
        <ConsoleTitle title={t('admin.session.lockedTitle')} />
        <UnlockPanel />
      </AdminLayout>
    );
  }
  return (
    <AdminLayout
      me={operator}
      session={{ openUntil: lock.openUntil, onLocked: () => setEntered(false) }}
    >
      <ConsolePages me={operator} />
      {open ? null : <UnlockDialog />}
    </AdminLayout>
  );
}

/** The console's pages, below `/admin`. */
function ConsolePages({ me }: { me: ConsoleMe }) {
  // `useRoutes` rather than `<Routes>`: the router's entry code already has it, while
  // `<Routes>` would add its children parser to the landing page's bundle.
  return useRoutes([
    { index: true, element: <HomePage me={me} /> },
    { path: 'queue', element: <QueuePage /> },
    { path: 'orders', element: <OrdersPage /> },
    { path: 'orders/:id', element: <OrderPage /> },
    { path: 'messages', element: <MessagesPage /> },
    { path: 'users', element: <UsersPage /> },
    { path: 'users/:id', element: <UserPage me={me} /> },
    { path: 'currencies', element: <CurrenciesPage me={me} /> },
    { path: 'incidents', element: <IncidentsPage me={me} /> },
    { path: 'api-keys', element: <ApiKeysPage me={me} /> },
    { path: 'audit', element: <AuditPage /> },
    { path: 'payouts', element: <PayoutsPage me={me} /> },
    { path: 'operators', element: <OperatorsPage me={me} /> },
    { path: '*', element: <ConsoleNotFound /> },
  ]);
}

function ConsoleNotFound() {
  const { t } = useTranslation();
  return (
    <section className="space-y-3">
      <ConsoleTitle title={t('admin.notFound.title')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('admin.notFound.title')}</h1>
      <p className="text-slate-700">{t('admin.notFound.text')}</p>
      <Link to={paths.admin} className="font-medium text-teal-800 underline underline-offset-2">
        {t('admin.notFound.home')}
      </Link>
    </section>
  );
}

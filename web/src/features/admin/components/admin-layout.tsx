// The back office's frame: its own header (no public header or footer), the navigation (the
// pages the operator's role may open) with the count of orders that need a person, the
// operator and their role, the time left before the console locks itself, a Lock button, and
// `noindex`.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useQueue } from '../api/get-queue';
import { useLockConsole } from '../api/lock-console';
import { useSecondsLeft } from '../hooks/use-seconds-left';
import { consolePaths } from '../lib/console-paths';
import { atLeast } from '../lib/roles';
import { type ConsoleMe, totalOf } from '../types';

/** The page's title, after which the console's name (and the site's) follows. */
export function ConsoleTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  return <PageMeta title={`${title} · ${t('admin.title')}`} />;
}

interface AdminLayoutProps {
  me: ConsoleMe;
  /** While the console is open: its navigation, the idle countdown and the Lock button. */
  session?: { openUntil: number | null; onLocked: () => void };
  children: ReactNode;
}

export function AdminLayout({ me, session, children }: AdminLayoutProps) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-slate-50">
      <meta name="robots" content="noindex" />
      <a
        href="#console-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('common.skipToContent')}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2">
          <Link
            to={paths.admin}
            className="flex min-h-11 items-center font-bold text-slate-900 underline-offset-4 hover:underline"
          >
            {t('admin.title')}
          </Link>
          {session ? (
            <nav aria-label={t('admin.nav.label')}>
              <ul className="flex flex-wrap gap-1">
                <li>
                  <ConsoleLink to={paths.admin} end>
                    {t('admin.nav.home')}
                  </ConsoleLink>
                </li>
                <li>
                  <QueueLink />
                </li>
                <li>
                  <ConsoleLink to={paths.adminOrders}>{t('admin.nav.orders')}</ConsoleLink>
                </li>
                <li>
                  <ConsoleLink to={consolePaths.messages}>{t('admin.nav.messages')}</ConsoleLink>
                </li>
                <li>
                  <ConsoleLink to={paths.adminUsers}>{t('admin.nav.users')}</ConsoleLink>
                </li>
                <li>
                  <ConsoleLink to={consolePaths.currencies}>
                    {t('admin.nav.currencies')}
                  </ConsoleLink>
                </li>
                <li>
                  <ConsoleLink to={consolePaths.incidents}>{t('admin.nav.incidents')}</ConsoleLink>
                </li>
                <li>
                  <ConsoleLink to={consolePaths.apiKeys}>{t('admin.nav.apiKeys')}</ConsoleLink>
                </li>
                {/* The pages a role may not open are not offered (the server refuses them). */}
                {atLeast(me.role, 'operator') ? (
                  <>
                    <li>
                      <ConsoleLink to={paths.adminPayouts}>{t('admin.nav.payouts')}</ConsoleLink>
                    </li>
                    <li>
                      <ConsoleLink to={paths.adminAudit}>{t('admin.nav.audit')}</ConsoleLink>
                    </li>
                  </>
                ) : null}
                {me.role === 'owner' ? (
                  <li>
                    <ConsoleLink to={paths.adminOperators}>{t('admin.nav.operators')}</ConsoleLink>
                  </li>
                ) : null}
              </ul>
            </nav>
          ) : null}
          <div className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            <span className="break-all">{me.token ? t('admin.nav.token') : me.email}</span>
            <Badge tone="info">
              <span className="sr-only">{t('admin.roles.label')}: </span>
              {t(`admin.roles.${me.role}`)}
            </Badge>
            {session && !me.token ? (
              <>
                <IdleCountdown until={session.openUntil} idleSeconds={me.idle_seconds} />
                <LockButton onLocked={session.onLocked} />
              </>
            ) : null}
          </div>
        </div>
      </header>
      <main id="console-main" className="mx-auto max-w-7xl px-4 py-8">
        {children}
      </main>
    </div>
  );
}

function ConsoleLink({ to, end, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) =>
        cn(
          'inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 md:min-h-9',
          // The current page is underlined as well as coloured (and `aria-current`).
          isActive && 'bg-teal-50 text-teal-900 underline underline-offset-4',
        )
      }
    >
      {children}
    </NavLink>
  );
}

/** "Needs a person", with how many orders wait (once known) as a badge. */
function QueueLink() {
  const { t, i18n } = useTranslation();
  const queue = useQueue();
  const counts = queue.data?.counts;
  // Every reason, the orders listed only for a message waiting included.
  const total = counts ? totalOf(counts) : null;
  if (total === null) {
    return <ConsoleLink to={paths.adminQueue}>{t('admin.nav.queue')}</ConsoleLink>;
  }
  return (
    <ConsoleLink to={paths.adminQueue}>
      <span aria-hidden="true" className="flex items-center gap-2">
        {t('admin.nav.queue')}
        <Badge tone={total > 0 ? 'danger' : 'neutral'} className="tabular-nums">
          {formatNumber(total, i18n.language)}
        </Badge>
      </span>
      <span className="sr-only">{t('admin.nav.queueCount', { count: total })}</span>
    </ConsoleLink>
  );
}

/** "Locks in 14:59": the console's idle time, read again after every call. */
function IdleCountdown({ until, idleSeconds }: { until: number | null; idleSeconds: number }) {
  const { t, i18n } = useTranslation();
  const left = useSecondsLeft(until);
  if (left === null) return null;
  const minutes = Math.floor(left / 60);
  const seconds = new Intl.NumberFormat(i18n.language, { minimumIntegerDigits: 2 }).format(
    left % 60,
  );
  return (
    <span
      className="tabular-nums"
      title={t('admin.session.idleHint', { minutes: Math.round(idleSeconds / 60) })}
    >
      {t('admin.session.locksIn', { time: `${minutes}:${seconds}` })}
    </span>
  );
}

function LockButton({ onLocked }: { onLocked: () => void }) {
  const { t } = useTranslation();
  const lock = useLockConsole();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={lock.isPending}
      onClick={() =>
        lock.mutate(undefined, {
          onSuccess: onLocked,
          onError: () => notify(t('admin.session.lockFailed'), { variant: 'destructive' }),
        })
      }
    >
      {t('admin.session.lock')}
    </Button>
  );
}

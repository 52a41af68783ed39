// One account as the back office sees it: its facts, whether it is locked, its newest orders,
// open sessions and API keys; and, for an operator or owner, the acts on it (lock or unlock,
// sign out everywhere), each with a required reason and its own Idempotency-Key. Never on one's
// own account, and an owner's account only by an owner (the server refuses the rest anyway).
// An operator or owner also revokes its API keys, one at a time (api-keys-table.tsx).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { Section } from '@/components/ui/section';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatNumber, formatTime } from '@/lib/format';

import { useAccount } from '../api/get-user';
import { type UserAct, type UserActResult, useUserAct } from '../api/user-act';
import { above, atLeast } from '../lib/roles';
import { queryOf } from '../lib/search-query';
import type { AccountView, ConsoleMe, UserApiKey, UserRow, UserSession } from '../types';
import { ActDialog, ReasonForm } from './act-form';
import { ConsoleTitle } from './admin-layout';
import { ApiKeysTable } from './api-keys-table';
import { ConsoleError } from './console-error';
import { OrdersTable } from './orders-page';
import { YesNo } from './users-page';

export function UserPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const view = useAccount(id);
  const title = t('admin.user.title', { name: view.data?.user.email ?? id });

  let body;
  if (view.isPending) body = <Spinner label={t('common.loading')} />;
  else if (view.isError) {
    body =
      view.error instanceof ApiError && view.error.status === 404 ? (
        <Alert tone="neutral">{t('admin.user.notFound', { id })}</Alert>
      ) : (
        <ConsoleError error={view.error} what={t('admin.user.error')} />
      );
  } else {
    body = <Account me={me} view={view.data} />;
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={title} />
      <Link
        to={paths.adminUsers}
        className="inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline underline-offset-2"
      >
        {t('admin.user.back')}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold break-all text-slate-900 sm:text-3xl">{title}</h1>
        {view.data?.user.locked_at ? <Badge tone="danger">{t('admin.users.locked')}</Badge> : null}
      </div>
      {body}
    </div>
  );
}

function Account({ me, view }: { me: ConsoleMe; view: AccountView }) {
  const { t, i18n } = useTranslation();
  const { user } = view;
  return (
    <div className="space-y-6">
      {user.locked_at ? (
        <Alert tone="warning">
          {t('admin.user.lockedSince', { time: formatTime(user.locked_at, i18n.language) })}
        </Alert>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Facts user={user} />
        </div>
        <Acts me={me} user={user} />
      </div>
      <Section title={t('admin.user.orders')}>
        {view.orders.length === 0 ? (
          <p className="text-sm text-slate-700">{t('admin.user.noOrders')}</p>
        ) : (
          <OrdersTable orders={view.orders} caption={t('admin.user.ordersCaption')} />
        )}
      </Section>
      <Sessions sessions={view.sessions} />
      <ApiKeys me={me} user={user} keys={view.api_keys} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

function Facts({ user }: { user: UserRow }) {
  const { t, i18n } = useTranslation();
  const label = (key: FactKey) => t(`admin.user.fields.${key}`);
  return (
    <Section title={t('admin.user.facts')}>
      <dl className="divide-y divide-slate-100">
        <Row label={label('id')}>
          <span className="flex items-start gap-1">
            <span className="font-mono break-all">{user.id}</span>
            <CopyButton value={user.id} what={label('id')} className="-mt-2" />
          </span>
        </Row>
        <Row label={label('email')}>{user.email}</Row>
        <Row label={label('name')}>
          {user.full_name || <span className="text-slate-600">{t('admin.order.none')}</span>}
        </Row>
        <Row label={label('created')}>{formatTime(user.created_at, i18n.language)}</Row>
        <Row label={label('verified')}>
          <YesNo value={user.email_verified} />
        </Row>
        <Row label={label('twoFactor')}>
          <YesNo value={user.two_factor} />
        </Row>
        <Row label={label('password')}>
          {user.has_password ? t('admin.user.passwordSet') : t('admin.user.passwordNone')}
        </Row>
        <Row label={label('role')}>
          {user.role ? t(`admin.roles.${user.role}`) : t('admin.users.noRole')}
        </Row>
        <Row label={label('status')}>
          {user.locked_at
            ? t('admin.user.lockedAt', { time: formatTime(user.locked_at, i18n.language) })
            : t('admin.users.active')}
        </Row>
      </dl>
    </Section>
  );
}

type FactKey =
  'id' | 'email' | 'name' | 'created' | 'verified' | 'twoFactor' | 'password' | 'role' | 'status';

/** Why this operator may not act on the account, or null when they may (as the server decides). */
function refusal(me: ConsoleMe, user: UserRow): 'role' | 'self' | 'higher' | null {
  if (!atLeast(me.role, 'operator')) return 'role';
  if (!me.token && me.email.toLowerCase() === user.email.toLowerCase()) return 'self';
  // An account with a role only by a role above it; owners act on owners.
  if (user.role && me.role !== 'owner' && !above(me.role, user.role)) return 'higher';
  return null;
}

function Acts({ me, user }: { me: ConsoleMe; user: UserRow }) {
  const { t } = useTranslation();
  const why = refusal(me, user);
  return (
    <Section title={t('admin.user.acts')}>
      {why ? (
        <p className="text-sm text-slate-700">
          {why === 'higher' && user.role
            ? t('admin.user.cannotAct.higher', { role: t(`admin.roles.${user.role}`) })
            : t(`admin.user.cannotAct.${why === 'self' ? 'self' : 'role'}`)}
        </p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {user.locked_at ? (
            <UserActDialog user={user} act="unlock" />
          ) : (
            <UserActDialog user={user} act="lock" />
          )}
          <UserActDialog user={user} act="sign-out" />
        </div>
      )}
      {atLeast(me.role, 'operator') ? (
        <Link
          to={`${paths.adminAudit}${queryOf({ subject_kind: 'user', subject_id: user.id })}`}
          className="inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline underline-offset-2"
        >
          {t('admin.user.auditLink')}
        </Link>
      ) : null}
    </Section>
  );
}

/** Each act's texts (`admin.{key}.*`). */
const ACT_TEXTS = { lock: 'lockUser', unlock: 'unlockUser', 'sign-out': 'signOutUser' } as const;

function UserActDialog({ user, act }: { user: UserRow; act: UserAct }) {
  const { t } = useTranslation();
  const key = ACT_TEXTS[act];
  return (
    <ActDialog
      label={t(`admin.${key}.open`)}
      variant={act === 'lock' ? 'destructive' : 'outline'}
      title={t(`admin.${key}.title`, { email: user.email })}
      description={t(`admin.${key}.description`)}
      form={(close) => <UserActForm user={user} act={act} onClose={close} />}
    />
  );
}

function UserActForm({ user, act, onClose }: { user: UserRow; act: UserAct; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const mutation = useUserAct(user.id, act);
  const key = ACT_TEXTS[act];
  const locale = i18n.language;
  // A retried act already done answers without its figures: then the toast says less.
  const description = (result: UserActResult) => {
    if (act === 'sign-out') {
      return result.sessions_ended === undefined
        ? undefined
        : t('admin.signOutUser.doneText', {
            sessions: formatNumber(result.sessions_ended, locale),
          });
    }
    const text = t(`admin.${act === 'lock' ? 'lockUser' : 'unlockUser'}.doneText`, {
      email: user.email,
    });
    return act === 'lock' && result.api_keys_revoked
      ? `${text} ${t('admin.lockUser.keysRevoked', {
          keys: formatNumber(result.api_keys_revoked, locale),
        })}`
      : text;
  };
  const done = (result: UserActResult) =>
    notify(t(`admin.${key}.done`), { description: description(result), variant: 'success' });
  return (
    <ReasonForm
      mutation={mutation}
      submit={t(`admin.${key}.submit`)}
      dismiss={t('admin.act.dismiss')}
      destructive={act === 'lock'}
      failed={t(`admin.${key}.failed`)}
      onDone={done}
      onClose={onClose}
    />
  );
}

function Sessions({ sessions }: { sessions: UserSession[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Section title={t('admin.user.sessions')}>
      {sessions.length === 0 ? (
        <p className="text-sm text-slate-700">{t('admin.user.noSessions')}</p>
      ) : (
        <Table>
          <TableCaption>{t('admin.user.sessionsCaption')}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t('admin.user.sessionColumns.created')}</TableHead>
              <TableHead>{t('admin.user.sessionColumns.lastSeen')}</TableHead>
              <TableHead>{t('admin.user.sessionColumns.expires')}</TableHead>
              <TableHead>{t('admin.user.sessionColumns.browser')}</TableHead>
              <TableHead>{t('admin.user.sessionColumns.ip')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sessions.map((session) => (
              <TableRow key={session.id}>
                <TableCell className="whitespace-nowrap">
                  {formatTime(session.created_at, locale)}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatTime(session.last_seen_at, locale)}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatTime(session.expires_at, locale)}
                </TableCell>
                <TableCell className="max-w-xs break-words">{session.user_agent}</TableCell>
                <TableCell className="font-mono break-all">{session.ip}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}

function ApiKeys({ me, user, keys }: { me: ConsoleMe; user: UserRow; keys: UserApiKey[] }) {
  const { t } = useTranslation();
  return (
    <Section title={t('admin.user.apiKeys')}>
      {keys.length === 0 ? (
        <p className="text-sm text-slate-700">{t('admin.user.noApiKeys')}</p>
      ) : (
        <ApiKeysTable
          keys={keys.map((key) => ({ ...key, user_id: user.id, user_email: user.email }))}
          caption={t('admin.user.apiKeysCaption')}
          showOwner={false}
          canRevoke={atLeast(me.role, 'operator')}
        />
      )}
    </Section>
  );
}

// Accounts: a search by an account's id or the start of its e-mail address, kept in the
// address (`?q=`, and `before=` for later pages), with the results a page at a time.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
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
import { paths } from '@/config/paths';
import { formatTime } from '@/lib/format';

import { type UserSearch, useUserSearch } from '../api/search-users';
import { queryOf } from '../lib/search-query';
import type { UserRow } from '../types';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

export function UsersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const search: UserSearch = { q: params.get('q') ?? '', before: params.get('before') ?? '' };
  const results = useUserSearch(search);

  let body;
  if (results.isPending) body = <Spinner label={t('common.loading')} />;
  else if (results.isError) {
    body = <ConsoleError error={results.error} what={t('admin.users.error')} />;
  } else if (results.data.users.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {search.q ? t('admin.users.empty') : t('admin.users.emptyAll')}
      </p>
    );
  } else {
    const { users, next } = results.data;
    body = (
      <div className="space-y-4" aria-busy={results.isPlaceholderData}>
        <UsersTable users={users} />
        {search.before || next ? (
          <nav aria-label={t('admin.users.pages')} className="flex flex-wrap gap-3">
            {search.before ? (
              <Link
                to={queryOf({ q: search.q })}
                className={buttonVariants({ variant: 'outline' })}
              >
                {t('admin.users.first')}
              </Link>
            ) : null}
            {next ? (
              <Link
                to={queryOf({ q: search.q, before: next })}
                className={buttonVariants({ variant: 'outline' })}
              >
                {t('admin.users.next')}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.users.title')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('admin.users.title')}</h1>
      {/* Mounted anew when the address changes (back, forward), so it shows that search. */}
      <SearchForm
        key={search.q}
        initial={search.q}
        onSearch={(q) => setParams(new URLSearchParams(queryOf({ q })))}
      />
      {body}
    </div>
  );
}

function SearchForm({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(q.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex flex-col gap-3 md:flex-row md:items-end">
      <Field label={t('admin.users.search')} className="flex-1">
        <input
          type="search"
          className={inputClass}
          placeholder={t('admin.users.searchPlaceholder')}
          maxLength={200}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </Field>
      <Button type="submit">{t('admin.users.submit')}</Button>
    </form>
  );
}

/** Yes or No, in words. */
export function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return <>{value ? t('admin.users.yes') : t('admin.users.no')}</>;
}

function UsersTable({ users }: { users: UserRow[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Table>
      <TableCaption>{t('admin.users.results')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.users.columns.email')}</TableHead>
          <TableHead>{t('admin.users.columns.created')}</TableHead>
          <TableHead>{t('admin.users.columns.verified')}</TableHead>
          <TableHead>{t('admin.users.columns.twoFactor')}</TableHead>
          <TableHead>{t('admin.users.columns.role')}</TableHead>
          <TableHead>{t('admin.users.columns.status')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => (
          <TableRow key={user.id}>
            <TableCell>
              <Link
                to={paths.adminUser(user.id)}
                className="font-medium break-all text-teal-800 underline underline-offset-2"
              >
                {user.email}
              </Link>
              {user.full_name ? (
                <span className="block text-xs text-slate-600">{user.full_name}</span>
              ) : null}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {formatTime(user.created_at, i18n.language)}
            </TableCell>
            <TableCell>
              <YesNo value={user.email_verified} />
            </TableCell>
            <TableCell>
              <YesNo value={user.two_factor} />
            </TableCell>
            <TableCell>
              {user.role ? t(`admin.roles.${user.role}`) : t('admin.users.noRole')}
            </TableCell>
            <TableCell>
              {user.locked_at ? (
                <Badge tone="danger">{t('admin.users.locked')}</Badge>
              ) : (
                <Badge tone="success">{t('admin.users.active')}</Badge>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

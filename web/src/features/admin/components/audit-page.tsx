// The audit log: every act in the back office (who, with which role, did what to what, when,
// from where and why, and the subject before and after), newest first, a page at a time. Its
// filters (action, subject, actor, a range of UTC days) are kept in the address, and the same
// filters give the CSV of every entry they select.
import type { TFunction } from 'i18next';
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

import { auditCsvHref, type AuditFilters, type AuditSearch, useAuditLog } from '../api/get-audit';
import { auditActionName, KNOWN_ACTIONS, SUBJECT_KINDS } from '../lib/audit-actions';
import { isRole } from '../lib/roles';
import { queryOf } from '../lib/search-query';
import type { AuditLogEntry } from '../types';
import { DayRangeFields, isBackwards, TextFilterField } from './search-fields';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

const FILTERS = ['action', 'subject_kind', 'subject_id', 'actor', 'from', 'to'] as const;

export function AuditPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(
    FILTERS.map((key) => [key, params.get(key) ?? '']),
  ) as unknown as AuditFilters;
  const search: AuditSearch = { ...filters, before: params.get('before') ?? '' };
  const filtered = FILTERS.some((key) => filters[key]);
  const log = useAuditLog(search);

  let body;
  if (log.isPending) body = <Spinner label={t('common.loading')} />;
  else if (log.isError) body = <ConsoleError error={log.error} what={t('admin.audit.error')} />;
  else if (log.data.entries.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {filtered ? t('admin.audit.empty') : t('admin.audit.emptyAll')}
      </p>
    );
  } else {
    const { entries, next } = log.data;
    body = (
      <div className="space-y-4" aria-busy={log.isPlaceholderData}>
        <AuditTable entries={entries} />
        {search.before || next !== null ? (
          <nav aria-label={t('admin.audit.pages')} className="flex flex-wrap gap-3">
            {search.before ? (
              <Link to={queryOf({ ...filters })} className={buttonVariants({ variant: 'outline' })}>
                {t('admin.audit.first')}
              </Link>
            ) : null}
            {next !== null ? (
              <Link
                to={queryOf({ ...filters, before: String(next) })}
                className={buttonVariants({ variant: 'outline' })}
              >
                {t('admin.audit.next')}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.audit.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.audit.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.audit.intro')}</p>
      </div>
      {/* Mounted anew when the address changes (back, forward), so it shows those filters. */}
      <FilterForm
        key={FILTERS.map((key) => filters[key]).join('\n')}
        initial={filters}
        onFilter={(chosen) => setParams(new URLSearchParams(queryOf({ ...chosen })))}
      />
      <div className="flex flex-wrap items-center gap-3">
        {/* A plain link: the browser downloads it with the session's cookie. */}
        <a href={auditCsvHref(filters)} download className={buttonVariants({ variant: 'outline' })}>
          {t('admin.audit.download')}
        </a>
        <span className="text-sm text-slate-700">{t('admin.audit.downloadHint')}</span>
      </div>
      {body}
    </div>
  );
}

function FilterForm({
  initial,
  onFilter,
}: {
  initial: AuditFilters;
  onFilter: (filters: AuditFilters) => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [rangeError, setRangeError] = useState(false);
  const set = (key: keyof AuditFilters) => (value: string) =>
    setValues((current) => ({ ...current, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = Object.fromEntries(
      FILTERS.map((key) => [key, values[key].trim()]),
    ) as unknown as AuditFilters;
    const backwards = isBackwards(chosen.from, chosen.to);
    setRangeError(backwards);
    if (!backwards) onFilter(chosen);
  };
  // An action the address names that this list does not know yet is offered too.
  const actions: string[] = [...KNOWN_ACTIONS];
  if (initial.action && !actions.includes(initial.action)) actions.push(initial.action);
  const kinds: string[] = [...SUBJECT_KINDS];
  if (initial.subject_kind && !kinds.includes(initial.subject_kind)) {
    kinds.push(initial.subject_kind);
  }
  return (
    <form
      aria-label={t('admin.audit.filters')}
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="grid gap-4 md:grid-cols-3">
        <Field label={t('admin.audit.action')}>
          <select
            className={inputClass}
            value={values.action}
            onChange={(e) => set('action')(e.target.value)}
          >
            <option value="">{t('admin.audit.allActions')}</option>
            {actions.map((action) => {
              const name = auditActionName(t, action);
              return (
                <option key={action} value={action}>
                  {name === action ? action : `${name} (${action})`}
                </option>
              );
            })}
          </select>
        </Field>
        <Field label={t('admin.audit.subjectKind')}>
          <select
            className={inputClass}
            value={values.subject_kind}
            onChange={(e) => set('subject_kind')(e.target.value)}
          >
            <option value="">{t('admin.audit.allKinds')}</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindName(t, kind)}
              </option>
            ))}
          </select>
        </Field>
        <TextFilterField
          label={t('admin.audit.subjectId')}
          hint={t('admin.audit.subjectIdHint')}
          value={values.subject_id}
          onChange={set('subject_id')}
        />
        <TextFilterField
          label={t('admin.audit.actor')}
          hint={t('admin.audit.actorHint')}
          value={values.actor}
          onChange={set('actor')}
        />
        <DayRangeFields
          firstLabel={t('admin.audit.from')}
          lastLabel={t('admin.audit.to')}
          first={values.from}
          last={values.to}
          onFirst={set('from')}
          onLast={set('to')}
          backwardsError={rangeError ? t('admin.audit.rangeError') : null}
        />
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t('admin.audit.apply')}</Button>
        <Link to={paths.adminAudit} className={buttonVariants({ variant: 'outline' })}>
          {t('admin.audit.clear')}
        </Link>
      </div>
    </form>
  );
}

/** What kind of thing an entry is about, in words when the console knows the kind. */
function kindName(t: TFunction, kind: string): string {
  const known = SUBJECT_KINDS.find((k) => k === kind);
  return known ? t(`admin.audit.kinds.${known}`) : kind;
}

/** Who acted: their e-mail address, the admin token or the command line, and their role. */
function Actor({ entry }: { entry: AuditLogEntry }) {
  const { t } = useTranslation();
  const who =
    entry.actor_email ??
    (entry.actor === 'token'
      ? t('admin.audit.token')
      : entry.actor === 'cli'
        ? t('admin.audit.cli')
        : entry.actor);
  return (
    <span className="flex flex-col items-start gap-1">
      <span className="break-all">{who}</span>
      <Badge tone="neutral">
        <span className="sr-only">{t('admin.roles.label')}: </span>
        {isRole(entry.actor_role) ? t(`admin.roles.${entry.actor_role}`) : entry.actor_role}
      </Badge>
    </span>
  );
}

const linkClass = 'font-mono break-all text-teal-800 underline underline-offset-2';

/** The entry's subject; an order or an account links to its page. */
function Subject({ entry }: { entry: AuditLogEntry }) {
  const { t } = useTranslation();
  const id = entry.subject_id;
  let target: string | null = null;
  if (entry.subject_kind === 'order' && id) target = paths.adminOrder(id);
  else if (entry.subject_kind === 'user' && id) {
    // A role is given by e-mail address: such an entry names its account by it.
    target = id.includes('@') ? `${paths.adminUsers}${queryOf({ q: id })}` : paths.adminUser(id);
  }
  return (
    <span className="flex flex-col items-start gap-0.5">
      <span className="text-xs text-slate-600">{kindName(t, entry.subject_kind)}</span>
      {target ? (
        <Link to={target} className={linkClass}>
          {id}
        </Link>
      ) : (
        <span className="font-mono break-all">{id}</span>
      )}
    </span>
  );
}

/** A JSON view as text (never as markup), or "None". */
function Json({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) {
    return <p className="text-slate-600">{t('admin.audit.none')}</p>;
  }
  return (
    <pre className="max-w-md overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap text-slate-900">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function Changes({ entry }: { entry: AuditLogEntry }) {
  const { t } = useTranslation();
  const nothing = (value: unknown) => value === null || value === undefined;
  return (
    <details>
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-teal-800 underline underline-offset-2 md:min-h-0">
        {t('admin.audit.show')}
      </summary>
      <dl className="mt-2 space-y-2">
        {nothing(entry.before) && nothing(entry.after) ? null : (
          <>
            <dt className="font-medium text-slate-700">{t('admin.audit.before')}</dt>
            <dd>
              <Json value={entry.before} />
            </dd>
            <dt className="font-medium text-slate-700">{t('admin.audit.after')}</dt>
            <dd>
              <Json value={entry.after} />
            </dd>
          </>
        )}
        <dt className="font-medium text-slate-700">{t('admin.audit.userAgent')}</dt>
        <dd className="break-words text-slate-800">{entry.user_agent || t('admin.audit.none')}</dd>
      </dl>
    </details>
  );
}

function AuditTable({ entries }: { entries: AuditLogEntry[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Table>
      <TableCaption>{t('admin.audit.results')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.audit.columns.at')}</TableHead>
          <TableHead>{t('admin.audit.columns.actor')}</TableHead>
          <TableHead>{t('admin.audit.columns.action')}</TableHead>
          <TableHead>{t('admin.audit.columns.subject')}</TableHead>
          <TableHead>{t('admin.audit.columns.reason')}</TableHead>
          <TableHead>{t('admin.audit.columns.client')}</TableHead>
          <TableHead>{t('admin.audit.columns.details')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => {
          const name = auditActionName(t, entry.action);
          return (
            <TableRow key={entry.id}>
              <TableCell className="whitespace-nowrap">
                <time dateTime={new Date(entry.at * 1000).toISOString()}>
                  {formatTime(entry.at, i18n.language)}
                </time>
              </TableCell>
              <TableCell>
                <Actor entry={entry} />
              </TableCell>
              <TableCell>
                <span className="block font-medium text-slate-900">{name}</span>
                {name === entry.action ? null : (
                  <span className="block font-mono text-xs text-slate-600">{entry.action}</span>
                )}
              </TableCell>
              <TableCell>
                <Subject entry={entry} />
              </TableCell>
              <TableCell className="max-w-xs break-words whitespace-pre-wrap">
                {entry.reason ?? <span className="text-slate-600">{t('admin.audit.none')}</span>}
              </TableCell>
              <TableCell className="font-mono break-all">{entry.client_ip}</TableCell>
              <TableCell>
                <Changes entry={entry} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

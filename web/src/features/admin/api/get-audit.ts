// `GET /api/admin/audit?actor=&action=&subject_kind=&subject_id=&since=&until=&before=&limit=`:
// the audit log, newest first, a page at a time; `/api/admin/audit.csv` with the same filters
// is all of it as a spreadsheet.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { AuditPage } from '../types';

/** The audit page's filters, as the address keeps them. */
export interface AuditFilters {
  /** `token`, `cli` or `user:<id>`. */
  actor: string;
  action: string;
  subject_kind: string;
  subject_id: string;
  /** The first day (UTC, `YYYY-MM-DD`), or ''. */
  from: string;
  /** The last day, included (UTC, `YYYY-MM-DD`), or ''. */
  to: string;
}

export interface AuditSearch extends AuditFilters {
  /** The previous page's `next`, or '' for the first page. */
  before: string;
}

export const AUDIT_PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The start of a UTC day (`YYYY-MM-DD`) in Unix seconds, or null for anything else. */
export function dayStart(day: string): number | null {
  if (!DAY.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** The server's filters: the days become `since` (their start) and `until` (the day after). */
export function auditParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['actor', 'action', 'subject_kind', 'subject_id'] as const) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  const since = dayStart(filters.from);
  if (since !== null) params.set('since', String(since));
  const until = dayStart(filters.to);
  if (until !== null) params.set('until', String(until + 86_400));
  return params;
}

/** The CSV of every entry the filters select (a same-origin link: the session's cookie goes). */
export function auditCsvHref(filters: AuditFilters): string {
  const query = auditParams(filters).toString();
  return `/api/admin/audit.csv${query ? `?${query}` : ''}`;
}

export function getAuditLog(search: AuditSearch): Promise<AuditPage> {
  const params = auditParams(search);
  if (search.before) params.set('before', search.before);
  params.set('limit', String(AUDIT_PAGE_SIZE));
  return consoleCall(() => api.get<AuditPage>(`/api/admin/audit?${params.toString()}`));
}

export const auditQueryOptions = (search: AuditSearch) =>
  queryOptions({
    queryKey: ['/api/admin/audit', search],
    queryFn: () => getAuditLog(search),
    meta: { private: true },
    staleTime: 0,
  });

export const useAuditLog = (search: AuditSearch) =>
  useQuery({ ...auditQueryOptions(search), placeholderData: keepPreviousData });

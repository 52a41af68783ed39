// `GET /api/admin/users?q=&before=&limit=`: accounts by id or the start of their e-mail
// address, newest first, a page at a time.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { UsersPage } from '../types';

export interface UserSearch {
  q: string;
  /** The previous page's `next`, or '' for the first page. */
  before: string;
}

export const USERS_PAGE_SIZE = 50;

export function searchUsers(search: UserSearch): Promise<UsersPage> {
  const params = new URLSearchParams();
  if (search.q.trim()) params.set('q', search.q.trim());
  if (search.before) params.set('before', search.before);
  params.set('limit', String(USERS_PAGE_SIZE));
  return consoleCall(() => api.get<UsersPage>(`/api/admin/users?${params.toString()}`));
}

export const usersQueryOptions = (search: UserSearch) =>
  queryOptions({
    queryKey: ['/api/admin/users', search],
    queryFn: () => searchUsers(search),
    meta: { private: true },
    staleTime: 0,
  });

export const useUserSearch = (search: UserSearch) =>
  // The last results stay while the next ones load.
  useQuery({ ...usersQueryOptions(search), placeholderData: keepPreviousData });

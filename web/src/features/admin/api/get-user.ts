// `GET /api/admin/users/{id}`: the account, its newest orders, its open sessions and its API
// keys.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { AccountView } from '../types';

export const getAccount = (id: string) =>
  consoleCall(() => api.get<AccountView>(`/api/admin/users/${encodeURIComponent(id)}`));

export const accountQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/users', id],
    queryFn: () => getAccount(id),
    meta: { private: true },
    staleTime: 0,
  });

export const useAccount = (id: string) => useQuery(accountQueryOptions(id));

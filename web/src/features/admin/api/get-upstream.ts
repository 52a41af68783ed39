// `GET /api/admin/orders/{id}/upstream`: what the liquidity provider that fills the order says
// of it right now. Each call spends the provider's call budget, so the query never runs on its
// own: it is made when an operator asks (`refetch`), and only for an order a provider fills (a
// sandbox order answers 404 `{error}`; a provider away, 502 or 503 `{error}`).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { UpstreamState } from '../types';

export const getUpstream = (id: string) =>
  consoleCall(() => api.get<UpstreamState>(`/api/admin/orders/${encodeURIComponent(id)}/upstream`));

export const upstreamQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/orders', id, 'upstream'],
    queryFn: () => getUpstream(id),
    meta: { private: true },
    // Never asked by itself (not on mount, nor when the order is read again): only `refetch`.
    enabled: false,
  });

export const useUpstream = (id: string) => useQuery(upstreamQueryOptions(id));

// `GET /api/admin/queue?limit=`: the orders that need a person (in EMERGENCY, stuck, or failed
// lately), the longest waiting first, and how many there are of each. The navigation's count,
// the home page's cards and the queue page share one query.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { BACKGROUND_HEADERS, consoleCall } from '../lib/console-lock';
import type { Queue } from '../types';

export const QUEUE_LIMIT = 100;

/** How often the queue page asks again. */
export const QUEUE_REFRESH_MS = 30_000;

// Read by the navigation's count and polled by the queue page: a call that does not keep the
// console open (`X-Ferry-Background`), so a console left on the queue still locks.
export const getQueue = () =>
  consoleCall(
    () =>
      api.request<Queue>(`/api/admin/queue?limit=${QUEUE_LIMIT}`, {
        method: 'GET',
        headers: BACKGROUND_HEADERS,
      }),
    { background: true },
  );

export const queueQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/admin/queue', { limit: QUEUE_LIMIT }],
    queryFn: getQueue,
    meta: { private: true },
    staleTime: 0,
  });

/** The queue; with `poll`, asked again every 30 s while the tab is in view. */
export const useQueue = ({ poll = false }: { poll?: boolean } = {}) =>
  useQuery({ ...queueQueryOptions(), refetchInterval: poll ? QUEUE_REFRESH_MS : false });

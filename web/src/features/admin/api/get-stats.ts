// `GET /api/admin/stats?days=` (1 to 90): the orders made in the last UTC days, per day, how
// long they took to complete, and how many needed a decision or were refunded.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { Stats } from '../types';

export const getStats = (days: number) =>
  consoleCall(() => api.get<Stats>(`/api/admin/stats?days=${days}`));

export const statsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: ['/api/admin/stats', days],
    queryFn: () => getStats(days),
    meta: { private: true },
    staleTime: 0,
  });

export const useStats = (days: number) => useQuery(statsQueryOptions(days));

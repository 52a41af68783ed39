import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** A recent transaction (spec/accounts-and-pages.md §3). */
export interface RecentTransaction {
  id: string;
  from_currency: string;
  from_amount: string;
  to_currency: string;
  to_amount?: string | null;
  /** Unix seconds. */
  timestamp: number;
  /** Seconds from creation to completion. */
  execution_time: number;
}

/** Failures are only logged: the empty message shows instead (§7, §8). */
export async function getRecentTransactions(): Promise<RecentTransaction[]> {
  try {
    return await api.get<RecentTransaction[]>('/api/recent-transactions');
  } catch (error) {
    console.warn('Could not load recent transactions', error);
    return [];
  }
}

export const recentTransactionsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/recent-transactions'],
    queryFn: getRecentTransactions,
    staleTime: 30_000,
  });

export function useRecentTransactions() {
  return useQuery(recentTransactionsQueryOptions());
}

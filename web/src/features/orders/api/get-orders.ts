// `GET /api/orders`: the signed-in user's orders (spec/accounts-and-pages.md §3, §7).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Amounts may be strings or numbers (spec §3). */
export interface ListedOrder {
  id: string;
  created_at: number | string;
  status: string;
  from_currency: string;
  to_currency: string;
  from_amount: string | number;
  to_amount: string | number;
  type?: string;
  usd_value?: string;
}

export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/orders'],
    meta: { private: true },
    queryFn: () => api.get<ListedOrder[]>('/api/orders'),
    // A list that changes as orders move: refetch when the page is revisited.
    staleTime: 0,
  });

export function useOrders() {
  return useQuery(ordersQueryOptions());
}

// `GET /api/admin/orders?q=&status=&before=&limit=`: orders by any of their keys (id, an
// address, a tag, a transaction hash, an e-mail, the provider's reference, a partner's API key
// id), newest first, a page at a time.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { OrdersPage } from '../types';

export interface OrderSearch {
  q: string;
  /** An order status, or '' for all. */
  status: string;
  /** The previous page's `next`, or '' for the first page. */
  before: string;
}

export const ORDERS_PAGE_SIZE = 50;

export function searchOrders(search: OrderSearch): Promise<OrdersPage> {
  const params = new URLSearchParams();
  if (search.q.trim()) params.set('q', search.q.trim());
  if (search.status) params.set('status', search.status);
  if (search.before) params.set('before', search.before);
  params.set('limit', String(ORDERS_PAGE_SIZE));
  return consoleCall(() => api.get<OrdersPage>(`/api/admin/orders?${params.toString()}`));
}

export const ordersQueryOptions = (search: OrderSearch) =>
  queryOptions({
    queryKey: ['/api/admin/orders', search],
    queryFn: () => searchOrders(search),
    meta: { private: true },
    staleTime: 0,
  });

export const useOrderSearch = (search: OrderSearch) =>
  // The last results stay while the next ones load.
  useQuery({ ...ordersQueryOptions(search), placeholderData: keepPreviousData });

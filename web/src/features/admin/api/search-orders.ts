// `GET /api/admin/orders?q=&status=&from=&to=&provider=&since=&until=&before=&limit=`: orders by
// any of their keys (id, an address, a tag, a transaction hash, an e-mail, the provider's
// reference, a partner's API key id), narrowed by status, pair, provider and a range of UTC days,
// newest first, a page at a time.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { OrdersPage } from '../types';

/** The orders page's search and filters, as the address keeps them and the server takes them. */
export interface OrderFilters {
  q: string;
  /** An order status, or '' for all. */
  status: string;
  /** The pair's send and receive codes (the catalogue's, any case), or ''. */
  from: string;
  to: string;
  /** The upstream that fills the order (`sandbox` for the built-in one), or ''. */
  provider: string;
  /** The first day (UTC, `YYYY-MM-DD`), or ''. */
  since: string;
  /** The last day, included (UTC, `YYYY-MM-DD`), or ''. */
  until: string;
}

export const ORDER_FILTERS = [
  'q',
  'status',
  'from',
  'to',
  'provider',
  'since',
  'until',
] as const satisfies readonly (keyof OrderFilters)[];

export interface OrderSearch extends OrderFilters {
  /** The previous page's `next`, or '' for the first page. */
  before: string;
}

export const ORDERS_PAGE_SIZE = 50;

export function searchOrders(search: OrderSearch): Promise<OrdersPage> {
  const params = new URLSearchParams();
  for (const key of ORDER_FILTERS) {
    const value = search[key].trim();
    if (value) params.set(key, value);
  }
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

// `GET /api/admin/orders/{id}`: the whole order, its timeline (status events and operators'
// acts), and what this operator may do to it now.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { OrderView } from '../types';

export const getOrder = (id: string) =>
  consoleCall(() => api.get<OrderView>(`/api/admin/orders/${encodeURIComponent(id)}`));

export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/orders', id],
    queryFn: () => getOrder(id),
    meta: { private: true },
    staleTime: 0,
  });

export const useOrder = (id: string) => useQuery(orderQueryOptions(id));

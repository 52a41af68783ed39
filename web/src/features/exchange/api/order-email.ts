// `POST /api/order-email`: the order's status mails (with its link) go to this address.
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Order } from '../types';

export function sendOrderEmail(order: Pick<Order, 'id' | 'token'>, email: string) {
  return api.post<{ code: number; msg?: string }>('/api/order-email', {
    id: order.id,
    token: order.token,
    email,
  });
}

export function useOrderEmail(order: Pick<Order, 'id' | 'token'>) {
  return useMutation({ mutationFn: (email: string) => sendOrderEmail(order, email) });
}

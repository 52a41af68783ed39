import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Envelope, Order } from '../types';

/** `metadata` may arrive as a JSON string; the client parses it (spec/exchange.md §3). */
export function parseMetadata(metadata: Order['metadata']): Record<string, unknown> | null {
  if (metadata === null || typeof metadata === 'object') return metadata;
  try {
    const parsed: unknown = JSON.parse(metadata);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function getOrder(id: string, token: string | null): Promise<Order> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const answer = await api.get<Envelope<Order>>(
    `/api/order-details/${encodeURIComponent(id)}${query}`,
  );
  return { ...answer.data, metadata: parseMetadata(answer.data.metadata) };
}

export const orderQueryOptions = (id: string, token: string | null) =>
  queryOptions({
    queryKey: ['/api/order-details', id, token],
    queryFn: () => getOrder(id, token),
    // Without its token, an order is shown to its signed-in owner: it goes at sign-out.
    meta: { private: token === null },
  });

export function useOrder(id: string, token: string | null) {
  return useQuery(orderQueryOptions(id, token));
}

export async function chooseEmergency(
  order: Pick<Order, 'id' | 'token'>,
  choice: 'REFUND' | 'EXCHANGE',
  address?: string,
): Promise<Order> {
  const answer = await api.post<Envelope<Order>>('/api/order-emergency', {
    id: order.id,
    token: order.token,
    choice,
    ...(address ? { address } : {}),
  });
  return answer.data;
}

/** Sets or changes the refund address while the order runs. */
export async function setRefundAddress(
  order: Pick<Order, 'id' | 'token'>,
  address: string,
  tag?: string,
): Promise<Order> {
  const answer = await api.post<Envelope<Order>>('/api/order-refund-address', {
    id: order.id,
    token: order.token,
    address,
    ...(tag ? { tag } : {}),
  });
  return answer.data;
}

/** Pretends the deposit was sent (sandbox exchanges only): `amount` or what was ordered. */
export async function simulateDeposit(
  order: Pick<Order, 'id' | 'token'>,
  amount?: string,
): Promise<Order> {
  const answer = await api.post<Envelope<Order>>('/api/sandbox/deposit', {
    id: order.id,
    token: order.token,
    ...(amount ? { amount } : {}),
  });
  return answer.data;
}

/** The public status view of `POST /api/track-order` (no addresses). */
export interface TrackedOrder {
  id: string;
  status: string;
  type: string;
  progress: number;
  from: { code: string; coin: string | null; network: string | null; amount: string };
  to: { code: string; coin: string | null; network: string | null; amount: string };
  time: { reg: number; expiration: number; finished: number | null };
}

export async function trackOrder(orderId: string): Promise<TrackedOrder> {
  const answer = await api.post<Envelope<TrackedOrder>>('/api/track-order', { order_id: orderId });
  return answer.data;
}

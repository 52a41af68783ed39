import { queryOptions, useQuery } from '@tanstack/react-query';

import { REFERRAL_CODE_KEY } from '@/features/affiliate/api/record-click';
import { api } from '@/lib/api-client';

import type { Envelope, Order } from '../types';

const TOKENS_KEY = 'orderTokens';

/** The tokens of the orders this browser created, so their pages open without a link. */
export function rememberOrderToken(id: string, token: string): void {
  try {
    const tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) ?? '{}') as Record<string, string>;
    tokens[id] = token;
    localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  } catch {
    // Storage unavailable: the shareable link still carries the token.
  }
}

export function rememberedOrderToken(id: string): string | null {
  try {
    const tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) ?? '{}') as Record<string, string>;
    return tokens[id] ?? null;
  } catch {
    return null;
  }
}

export interface CreateOrderInput {
  fromCcy: string;
  toCcy: string;
  amount: string;
  toAddress: string;
  refundAddress: string;
  direction: 'from' | 'to';
  type: 'float' | 'fixed';
  tag?: string;
  metadata: string;
}

/** The referral code this browser arrived with (§4.6): the order is credited to its owner. */
function storedReferralCode(): string | null {
  try {
    return localStorage.getItem(REFERRAL_CODE_KEY);
  } catch {
    return null;
  }
}

export async function createOrder(input: CreateOrderInput, idempotencyKey: string): Promise<Order> {
  const referralCode = storedReferralCode();
  const answer = await api
    .request<Envelope<Order>>('/api/create-order', {
      method: 'POST',
      body: JSON.stringify(referralCode ? { ...input, referralCode } : input),
      headers: { 'Idempotency-Key': idempotencyKey },
    })
    .catch((error: unknown) => {
      throw new Error(
        error instanceof Error && error.message ? error.message : 'Error creating order',
      );
    });
  if (answer.code !== 0) throw new Error(answer.msg || 'Error creating order');
  rememberOrderToken(answer.data.id, answer.data.token);
  return answer.data;
}

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

export interface AddressVerdict {
  valid: boolean;
  reason: 'empty' | 'format' | 'checksum' | 'network' | null;
  message: string | null;
  tag_error: string | null;
}

/** The server's checksum verdict (the patterns of §5 cannot see a typo). */
export async function validateAddress(
  currency: string,
  address: string,
  tag?: string,
): Promise<AddressVerdict> {
  const answer = await api.post<Envelope<AddressVerdict>>('/api/validate-address', {
    currency,
    address,
    ...(tag ? { tag } : {}),
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

// `POST /api/create-order` (spec/exchange.md §7), after the server's address check. Loaded when
// the customer submits (hooks/use-create-order.ts): the landing page's first screen does
// without it.
import { api } from '@/lib/api-client';
import { storedReferralCode } from '@/lib/referral';

import { AddressRejected } from '../lib/address-rules';
import { rememberOrderToken } from '../lib/order-tokens';
import type { Envelope, Order } from '../types';
import { serverAddressProblem } from './validate-address';

export interface CreateOrderInput {
  fromCcy: string;
  toCcy: string;
  amount: string;
  toAddress: string;
  refundAddress?: string;
  direction: 'from' | 'to';
  type: 'float' | 'fixed';
  tag?: string;
  metadata: string;
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

/** The server's address verdict first (a checksum typo), then the order. */
export async function submitOrder(input: CreateOrderInput, idempotencyKey: string): Promise<Order> {
  const problem = await serverAddressProblem(input.toCcy, input.toAddress);
  if (problem) throw new AddressRejected(input.toAddress, problem);
  return createOrder(input, idempotencyKey);
}

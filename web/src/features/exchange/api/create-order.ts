// `POST /api/create-order` (spec/exchange.md §7), after the server's address check. Loaded when
// the customer submits (hooks/use-create-order.ts): the landing page's first screen does
// without it.
import { api, ApiError } from '@/lib/api-client';
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
  /** A fixed order: the receive amount the customer was shown. */
  expectedToAmount?: string;
}

/**
 * A fixed order would now give another receive amount than the one shown (HTTP 409 with
 * `data.to_amount`): no order was made; the customer confirms the new amount first.
 */
export class AmountChanged extends Error {
  constructor(
    readonly toAmount: string,
    message: string,
  ) {
    super(message);
    this.name = 'AmountChanged';
  }
}

function amountChangedOf(error: unknown): AmountChanged | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { msg?: unknown; data?: { to_amount?: unknown } } | undefined;
  const toAmount = body?.data?.to_amount;
  if (typeof toAmount !== 'string' || !toAmount) return null;
  return new AmountChanged(toAmount, typeof body?.msg === 'string' ? body.msg : error.message);
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
      const changed = amountChangedOf(error);
      if (changed) throw changed;
      throw new Error(
        error instanceof Error && error.message ? error.message : 'Error creating order',
      );
    });
  if (answer.code !== 0) throw new Error(answer.msg || 'Error creating order');
  const order = answer.data;
  rememberOrderToken(order.id, order.token, Date.now(), {
    from: order.from.coin ?? order.from.code,
    to: order.to.coin ?? order.to.code,
    fromAmount: order.from.amount,
    toAmount: order.to.amount,
  });
  return answer.data;
}

/** The server's address verdict first (a checksum typo), then the order. */
export async function submitOrder(input: CreateOrderInput, idempotencyKey: string): Promise<Order> {
  const problem = await serverAddressProblem(input.toCcy, input.toAddress, input.fromCcy);
  if (problem) throw new AddressRejected(input.toAddress, problem);
  return createOrder(input, idempotencyKey);
}

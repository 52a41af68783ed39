// `POST /api/admin/orders/{id}/retry` `{reason}` → `{order}`: "look again now", the order's
// next step (the sandbox's, or a look at the liquidity provider) is due at once; for an order
// that is moving but has not changed for long. Sent with the dialog's Idempotency-Key.
import type { OrderDetail } from '../types';
import { actOnOrder, type ReasonInput, useOrderAct } from './order-act';

export const retryOrder = (id: string, { idempotencyKey, ...body }: ReasonInput) =>
  actOnOrder<{ order: OrderDetail }>(id, 'retry', 'POST', body, idempotencyKey);

export const useRetryOrder = (id: string) =>
  useOrderAct(id, (input: ReasonInput) => retryOrder(id, input));

// `POST /api/admin/orders/{id}/cancel` `{reason}` → `{order}`: an operator cancels an order
// still waiting for its deposit. A deposit that arrives later still comes in, as a late deposit
// that needs a decision. Sent with the dialog's Idempotency-Key.
import type { OrderDetail } from '../types';
import { actOnOrder, type ReasonInput, useOrderAct } from './order-act';

export const cancelOrder = (id: string, { idempotencyKey, ...body }: ReasonInput) =>
  actOnOrder<{ order: OrderDetail }>(id, 'cancel', 'POST', body, idempotencyKey);

export const useCancelOrder = (id: string) =>
  useOrderAct(id, (input: ReasonInput) => cancelOrder(id, input));

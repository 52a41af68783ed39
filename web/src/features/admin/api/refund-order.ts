// `POST /api/admin/orders/{id}/refund` `{reason, address?, tag?}`: an operator refunds an order
// that waits for the customer's decision (EMERGENCY), as the customer would. The address is
// needed only when the order has no refund address yet. Sent with the dialog's
// Idempotency-Key, so a retry never refunds twice; a refusal is a 400 or 409 `{error}`.
import { actOnOrder, useOrderAct } from './order-act';

export interface RefundInput {
  reason: string;
  address?: string;
  tag?: string;
  idempotencyKey: string;
}

export const refundOrder = (id: string, { idempotencyKey, ...body }: RefundInput) =>
  actOnOrder<{ audit_id?: number }>(id, 'refund', 'POST', body, idempotencyKey);

export const useRefundOrder = (id: string) =>
  useOrderAct(id, (input: RefundInput) => refundOrder(id, input));

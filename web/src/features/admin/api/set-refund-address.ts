// `PUT /api/admin/orders/{id}/refund-address` `{reason, address, tag?}` → `{order}`: an
// operator sets or corrects the refund address of a running order (checked as the customer's
// would be), until a refund is on its way. Sent with the dialog's Idempotency-Key.
import type { OrderDetail } from '../types';
import { actOnOrder, useOrderAct } from './order-act';

export interface RefundAddressInput {
  reason: string;
  address: string;
  tag?: string;
  idempotencyKey: string;
}

export const setRefundAddress = (id: string, { idempotencyKey, ...body }: RefundAddressInput) =>
  actOnOrder<{ order: OrderDetail }>(id, 'refund-address', 'PUT', body, idempotencyKey);

export const useSetRefundAddress = (id: string) =>
  useOrderAct(id, (input: RefundAddressInput) => setRefundAddress(id, input));

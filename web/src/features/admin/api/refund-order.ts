// `POST /api/admin/orders/{id}/refund` `{reason, address?, tag?}`: an operator refunds an order
// that waits for the customer's decision (EMERGENCY), as the customer would. The address is
// needed only when the order has no refund address yet. Sent with the dialog's
// Idempotency-Key, so a retry never refunds twice; a refusal is a 400 or 409 `{error}`.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import { orderQueryOptions } from './get-order';
import { queueQueryOptions } from './get-queue';

export interface RefundInput {
  reason: string;
  address?: string;
  tag?: string;
  idempotencyKey: string;
}

export const refundOrder = (id: string, { idempotencyKey, ...body }: RefundInput) =>
  consoleCall(() =>
    api.request<{ audit_id?: number }>(`/api/admin/orders/${encodeURIComponent(id)}/refund`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );

export function useRefundOrder(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RefundInput) => refundOrder(id, input),
    meta: { private: true },
    // The order, any search its status showed in, and the queue it may leave.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [orderQueryOptions(id).queryKey[0]] }),
        queryClient.invalidateQueries({ queryKey: [queueQueryOptions().queryKey[0]] }),
      ]),
  });
}

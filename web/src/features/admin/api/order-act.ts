// What the operators' acts on an order share (refund, refund address, look again, cancel): the
// act is a console call sent with its dialog's Idempotency-Key, so a retry carries it out once;
// a refusal is a 400 or 409 `{error}`. Once done, the order, any search its status showed in,
// and the queue it may leave are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { consoleAct } from './console-act';
import { orderQueryOptions } from './get-order';
import { queueQueryOptions } from './get-queue';

export type { ReasonInput } from './console-act';

/** `{method} /api/admin/orders/{id}/{act}` with `body`, once per `idempotencyKey`. */
export const actOnOrder = <T>(
  id: string,
  act: string,
  method: 'POST' | 'PUT',
  body: unknown,
  idempotencyKey: string,
) =>
  consoleAct<T>(`/api/admin/orders/${encodeURIComponent(id)}/${act}`, method, body, idempotencyKey);

/** A mutation of the order `id` that, once done, refreshes what shows the order. */
export function useOrderAct<Input, Result>(id: string, act: (input: Input) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: act,
    meta: { private: true },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [orderQueryOptions(id).queryKey[0]] }),
        queryClient.invalidateQueries({ queryKey: [queueQueryOptions().queryKey[0]] }),
      ]),
  });
}

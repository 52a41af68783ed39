// Creating an order as one mutation: the server's address check and the creation, so the form
// is busy from the first click (not once the check has answered). One Idempotency-Key per
// order content: a second click, a second Enter or a retry of the same order cannot make two.
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';

import type { CreateOrderInput } from '../api/create-order';

/** The same content gets the same key until an order is made from it. */
function useIdempotencyKey() {
  const last = useRef<{ content: string; key: string } | null>(null);
  return {
    keyFor(content: string): string {
      if (last.current?.content !== content) {
        last.current = { content, key: crypto.randomUUID() };
      }
      return last.current.key;
    },
    /** After an order is made: the same content again is a new order. */
    forget() {
      last.current = null;
    },
  };
}

export function useCreateOrder() {
  const keys = useIdempotencyKey();
  return useMutation({
    mutationFn: async (input: CreateOrderInput) => {
      const key = keys.keyFor(JSON.stringify(input));
      const { submitOrder } = await import('../api/create-order');
      return submitOrder(input, key);
    },
    onSuccess: () => keys.forget(),
  });
}

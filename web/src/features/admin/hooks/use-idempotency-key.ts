// One Idempotency-Key per form while it stays open: a retried submit sends the same key, so
// the server carries the act out once; a dialog opened again (a new mount) gets a new one.
import { useCallback, useRef } from 'react';

export function useIdempotencyKey() {
  const key = useRef<string | null>(null);
  /** This form's key, made at its first submit. */
  const current = useCallback(() => (key.current ??= crypto.randomUUID()), []);
  /** After the act is done: the next submit is another act. */
  const renew = useCallback(() => {
    key.current = null;
  }, []);
  return { current, renew };
}

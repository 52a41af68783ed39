import { useEffect, useState } from 'react';

/** What a debounced value may be: compared with `Object.is`, so settling on it is idempotent. */
export type Primitive = string | number | boolean | null | undefined;

/**
 * `value`, once it has stopped changing for `delayMs`. Primitives only: an object made anew on
 * each render would never settle, and storing it would render again, forever.
 */
export function useDebounced<T extends Primitive>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}

// The console's lock as this tab knows it (issue 22). The server locks an operator's console
// after `idle_seconds` without use, and then answers any call 403 `console_locked`. Every
// console call goes through `consoleCall`: a call that meets the lock waits while the unlock
// dialog shows, and is made again once a code has opened the console, so a form or a dialog
// keeps what was typed into it (and a retried mutation its Idempotency-Key).
import { ApiError } from '@/lib/api-client';

/** Why the server refused a console call (403 `{error, reason}`). */
export type RefusalReason = 'console_locked' | 'two_factor_required' | 'role_required';

export function refusalOf(error: unknown): RefusalReason | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const reason = (error.body as { reason?: unknown } | undefined)?.reason;
  return reason === 'console_locked' ||
    reason === 'two_factor_required' ||
    reason === 'role_required'
    ? reason
    : null;
}

export interface LockState {
  /** Until when (Unix milliseconds) the console is open; null: locked; Infinity: no end. */
  openUntil: number | null;
}

let state: LockState = { openUntil: null };
let expiry: ReturnType<typeof setTimeout> | undefined;
let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
const listeners = new Set<() => void>();
const afterCalls = new Set<() => void>();

function set(openUntil: number | null) {
  const left = openUntil === null ? 0 : openUntil - Date.now();
  state = { openUntil: left > 0 ? openUntil : null };
  clearTimeout(expiry);
  if (left > 0 && Number.isFinite(left)) {
    // setTimeout takes at most 2^31 - 1 ms; an idle time is minutes.
    expiry = setTimeout(() => set(null), Math.min(left, 2 ** 31 - 1));
  }
  listeners.forEach((listener) => listener());
}

export function subscribeLock(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The same object until the lock changes (for `useSyncExternalStore`). */
export function lockState(): LockState {
  return state;
}

/**
 * What the server said of the console: open until `until` (Unix seconds), locked (null or a
 * time gone by), or open with no end (`'always'`: the admin token). Calls waiting for an
 * unlock go ahead.
 */
export function consoleOpenUntil(until: number | null | 'always'): void {
  set(until === 'always' ? Infinity : until === null ? null : until * 1000);
  if (state.openUntil === null) return;
  const released = waiting;
  waiting = [];
  released.forEach((w) => w.resolve());
}

/** The console is locked from now on (a call met the lock, or the operator locked it). */
export function consoleLocked(): void {
  if (state.openUntil !== null) set(null);
}

/** Nobody will unlock (the console was left): calls still waiting fail with `error`. */
export function abandonWaiting(error: unknown): void {
  const abandoned = waiting;
  waiting = [];
  abandoned.forEach((w) => w.reject(error));
}

/** Runs `listener` after every console call: the console's idle time starts again. */
export function onConsoleCall(listener: () => void): () => void {
  afterCalls.add(listener);
  return () => afterCalls.delete(listener);
}

function called() {
  afterCalls.forEach((listener) => listener());
}

/**
 * Makes a console call; if the console turns out locked, waits for an unlock and makes it
 * once more. `call` must be safe to repeat: a mutation sends the same Idempotency-Key again.
 * A `background` call (a page refreshing itself, sent with `BACKGROUND_HEADERS`) is no use of
 * the console: the server's idle time goes on, so `onConsoleCall`'s listeners are not run.
 */
export async function consoleCall<T>(
  call: () => Promise<T>,
  { background = false }: { background?: boolean } = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (refusalOf(error) !== 'console_locked') throw error;
    consoleLocked();
    await new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
    return await call();
  } finally {
    if (!background) called();
  }
}

/** The header of a call the server answers without counting it as use of the console. */
export const BACKGROUND_HEADERS = { 'X-Ferry-Background': '1' } as const;

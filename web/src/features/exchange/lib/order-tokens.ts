// The tokens of the orders this browser created or opened, so their pages open without the
// link. A token opens one order, not a session, but it can redirect that order's refund: the
// list is bounded (the last 50), each entry expires 30 days after it was first stored (opening
// the order again does not extend it), expired entries are deleted as soon as they are read,
// and the customer can forget one.

const STORAGE_KEY = 'orderTokens';
export const MAX_REMEMBERED_ORDERS = 50;
export const REMEMBER_ORDER_MS = 30 * 24 * 60 * 60 * 1000;

/** What the Track page lists of an order without asking the server (no addresses). */
export interface OrderSummary {
  from: string;
  to: string;
  fromAmount: string;
  toAmount: string;
}

interface Entry {
  token: string;
  /** When it was stored, epoch milliseconds. */
  at: number;
  summary?: OrderSummary;
}

type Entries = Record<string, Entry>;

/**
 * Stored entries still fresh at `now`. Expired ones are deleted from storage here; bare tokens
 * of older app versions are dated `now` once and written back, so they expire in their turn.
 */
function read(now: number): Entries {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const entries: Entries = {};
  let changed = false;
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    const legacy = typeof value === 'string';
    const entry = legacy ? { token: value, at: now } : (value as Entry);
    const fresh =
      typeof entry?.token === 'string' &&
      typeof entry.at === 'number' &&
      now - entry.at < REMEMBER_ORDER_MS;
    if (fresh) entries[id] = entry;
    changed ||= legacy || !fresh;
  }
  if (changed) write(entries);
  return entries;
}

function write(entries: Entries): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
  } catch {
    // Storage unavailable or full: the shareable link still carries the token.
  }
}

export function rememberOrderToken(
  id: string,
  token: string,
  now = Date.now(),
  summary?: OrderSummary,
): void {
  const entries = read(now);
  const known = entries[id];
  const kept = summary ?? known?.summary;
  // Opening the order again does not extend how long its token stays here.
  const at = known?.token === token ? known.at : now;
  entries[id] = { token, at, ...(kept ? { summary: kept } : {}) };
  const newest = Object.entries(entries)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_REMEMBERED_ORDERS);
  write(Object.fromEntries(newest));
}

export function rememberedOrderToken(id: string, now = Date.now()): string | null {
  return read(now)[id]?.token ?? null;
}

export interface RememberedOrder {
  id: string;
  token: string;
  /** When this browser stored it, epoch milliseconds. */
  at: number;
  summary: OrderSummary | null;
}

/** The orders this browser holds links to, newest first ("Recent orders on this device"). */
export function rememberedOrders(now = Date.now()): RememberedOrder[] {
  return Object.entries(read(now))
    .map(([id, entry]) => ({
      id,
      token: entry.token,
      at: entry.at,
      summary: entry.summary ?? null,
    }))
    .sort((a, b) => b.at - a.at);
}

/** Deletes an order's token from this browser ("Forget on this device"). */
export function forgetOrderToken(id: string, now = Date.now()): void {
  const entries = read(now);
  if (!(id in entries)) return;
  delete entries[id];
  write(entries);
}

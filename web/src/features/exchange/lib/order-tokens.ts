// The tokens of the orders this browser created, so their pages open without the link. An
// order token opens one order, not a session; still, the list is bounded (the last 50) and
// each entry expires after 30 days, so it does not grow or linger for ever.

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

/** Stored entries still fresh at `now`; older app versions stored bare tokens (kept as new). */
function read(now: number): Entries {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const entries: Entries = {};
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    const entry = typeof value === 'string' ? { token: value, at: now } : (value as Entry);
    if (typeof entry?.token === 'string' && now - entry.at < REMEMBER_ORDER_MS) entries[id] = entry;
  }
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
  const known = entries[id]?.summary;
  const kept = summary ?? known;
  entries[id] = { token, at: now, ...(kept ? { summary: kept } : {}) };
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

// Searching, filtering, sorting and formatting the orders list (spec/accounts-and-pages.md §2.13).
import type { ListedOrder } from '../api/get-orders';

/** The status filter: Ferry's statuses, in the order an order goes through them. */
export const STATUS_FILTERS = [
  'NEW',
  'CONFIRMING',
  'EXCHANGE',
  'SENDING',
  'COMPLETED',
  'EMERGENCY',
  'EXPIRED',
  'REFUNDED',
  'FAILED',
] as const;

export type StatusFilter = (typeof STATUS_FILTERS)[number] | 'ALL';

/** Case-insensitive contains on the order id and both currency codes; newest first. */
export function filterOrders(
  orders: readonly ListedOrder[],
  search: string,
  status: StatusFilter,
): ListedOrder[] {
  const needle = search.trim().toLowerCase();
  return orders
    .filter((o) => status === 'ALL' || o.status.toUpperCase() === status)
    .filter(
      (o) =>
        !needle ||
        [o.id, o.from_currency, o.to_currency].some((v) => v.toLowerCase().includes(needle)),
    )
    .sort((a, b) => toMillis(b.created_at) - toMillis(a.created_at));
}

/** Unix seconds, milliseconds or an ISO string, as milliseconds. */
export function toMillis(value: number | string): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  const numeric = Number(value);
  if (Number.isFinite(numeric)) return toMillis(numeric);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** Eight decimals (spec §9), whether the server sent a string or a number. */
export function formatAmount(value: string | number): string {
  const text = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole = '0', fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(8, '0').slice(0, 8)}`;
}

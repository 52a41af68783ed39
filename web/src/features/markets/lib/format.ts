// The markets table's formatting (spec/accounts-and-pages.md §2.3): price in dollars, market
// cap in billions, volume and circulating supply in millions, changes with a sign — on the
// app's one formatter (lib/format.ts), so the dollar sign sits where the reader's locale puts it.
import { formatNumber, formatUsd, formatUsdIn, toFinite } from '@/lib/format';

import type { MarketCoin } from '../api/get-coins';

const DASH = '—';
const TWO_DIGITS = { minimumFractionDigits: 2, maximumFractionDigits: 2 };

export function formatPrice(value: number | null, locale = 'en'): string {
  const number = toFinite(value);
  if (number === null) return DASH;
  return formatUsd(number, locale, number >= 1 ? 2 : number >= 0.01 ? 4 : 8);
}

export function formatBillions(value: number | null, locale = 'en'): string {
  return formatUsdIn('billions', value, locale);
}

export function formatMillions(value: number | null, locale = 'en'): string {
  return formatUsdIn('millions', value, locale);
}

/** A count in millions without a currency (circulating supply): `19.89M`. */
export function formatCountMillions(value: number | null, locale = 'en'): string {
  const number = toFinite(value);
  return number === null ? DASH : `${formatNumber(number / 1e6, locale, TWO_DIGITS)}M`;
}

export function formatChange(value: number | null, locale = 'en'): string {
  const number = toFinite(value);
  if (number === null) return DASH;
  const sign = number > 0 ? '+' : number < 0 ? '−' : '';
  return `${sign}${formatNumber(Math.abs(number), locale, TWO_DIGITS)}%`;
}

export type SortKey =
  | 'market_cap_rank'
  | 'name'
  | 'current_price'
  | 'price_change_percentage_24h'
  | 'price_change_percentage_7d_in_currency'
  | 'market_cap'
  | 'total_volume'
  | 'circulating_supply';

/** Sorted by `key`; coins without a value go last either way. */
export function sortCoins(
  coins: readonly MarketCoin[],
  key: SortKey,
  ascending: boolean,
): MarketCoin[] {
  return [...coins].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    const order =
      typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y);
    return ascending ? order : -order;
  });
}

export function searchCoins(coins: readonly MarketCoin[], query: string): MarketCoin[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...coins];
  return coins.filter(
    (c) => c.name.toLowerCase().includes(q) || c.symbol.toLowerCase().includes(q),
  );
}

/** SVG polyline points for a sparkline of `width` × `height`. */
export function sparklinePoints(prices: readonly number[], width: number, height: number): string {
  if (prices.length < 2) return '';
  const min = Math.min(...prices);
  const max = Math.max(...prices);
  const span = max - min || 1;
  return prices
    .map(
      (p, i) =>
        `${((i / (prices.length - 1)) * width).toFixed(1)},${(height - ((p - min) / span) * height).toFixed(1)}`,
    )
    .join(' ');
}

import { describe, expect, it } from 'vitest';

import type { MarketCoin } from '../api/get-coins';
import {
  formatBillions,
  formatChange,
  formatCountMillions,
  formatMillions,
  formatPrice,
  searchCoins,
  sortCoins,
  sparklinePoints,
} from './format';

const coin = (id: string, rank: number | null, price: number | null): MarketCoin => ({
  id,
  symbol: id.slice(0, 3),
  name: id,
  image: null,
  market_cap_rank: rank,
  current_price: price,
  price_change_percentage_24h: null,
  price_change_percentage_7d_in_currency: null,
  market_cap: null,
  total_volume: null,
  circulating_supply: null,
});

describe('markets formatting (spec §2.3)', () => {
  it('prices with $, caps in billions, volumes and supply in millions, changes with a sign', () => {
    expect(formatPrice(64123.456)).toBe('$64,123.46');
    expect(formatPrice(0.0123)).toBe('$0.0123');
    expect(formatBillions(2_088_450_000_000)).toBe('$2,088.45B');
    expect(formatMillions(54_950_000)).toBe('$54.95M');
    expect(formatCountMillions(19_890_000)).toBe('19.89M');
    // The locale places the symbol: after the digits in German.
    expect(formatPrice(64123.456, 'de')).toMatch(/^64\.123,46\s\$$/);
    expect(formatChange(1.5)).toBe('+1.50%');
    expect(formatChange(-2.25)).toBe('−2.25%');
    expect(formatChange(null)).toBe('—');
  });

  it('sorts either way with missing values last, and searches names and symbols', () => {
    const coins = [coin('bitcoin', 1, 64000), coin('ether', 2, 3000), coin('nothing', null, null)];
    expect(sortCoins(coins, 'current_price', true).map((c) => c.id)).toEqual([
      'ether',
      'bitcoin',
      'nothing',
    ]);
    expect(sortCoins(coins, 'market_cap_rank', false).map((c) => c.id)).toEqual([
      'ether',
      'bitcoin',
      'nothing',
    ]);
    expect(searchCoins(coins, 'BIT').map((c) => c.id)).toEqual(['bitcoin']);
    expect(searchCoins(coins, 'eth').map((c) => c.id)).toEqual(['ether']);
  });

  it('draws a sparkline across the box', () => {
    expect(sparklinePoints([1, 2, 3], 100, 10)).toBe('0.0,10.0 50.0,5.0 100.0,0.0');
    expect(sparklinePoints([1], 100, 10)).toBe('');
  });
});

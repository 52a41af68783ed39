import { describe, expect, it } from 'vitest';

import type { Quote, QuoteRequest } from '../types';
import { QuoteCache } from './quote-cache';

const request = (
  amount: string,
  direction: 'from' | 'to' = 'from',
  type: 'float' | 'fixed' = 'float',
): QuoteRequest => ({
  from: 'BTC',
  to: 'ETH',
  amount,
  direction,
  type,
});

const quote: Quote = {
  errors: [],
  from: {
    amount: '0.1',
    code: 'BTC',
    coin: 'BTC',
    network: 'BTC',
    min: '0.001',
    max: '2',
    precision: 8,
    rate: '20',
    usd: '6000.00',
    btc: '0.1',
  },
  to: {
    amount: '2',
    code: 'ETH',
    coin: 'ETH',
    network: 'ETH',
    min: '0.02',
    max: '40',
    precision: 8,
    rate: '0.05',
    usd: '5970.00',
  },
};

describe('the quote cache (spec/exchange.md §7)', () => {
  it('answers the same amount as cached', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), quote, 0);
    expect(cache.get(request('0.1'), 1000)).toEqual(quote);
  });

  it('scales a direction-from hit to the new amount', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), quote, 0);
    const hit = cache.get(request('0.25'), 1000)!;
    expect(hit.from.amount).toBe('0.25');
    expect(hit.to.amount).toBe('5');
    expect(hit.from.usd).toBe('15000.00');
    expect(hit.to.usd).toBe('14925.00');
    expect(hit.from.btc).toBe('0.25');
    expect(hit.errors).toEqual([]);
  });

  it('re-checks the limits when scaling', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), quote, 0);
    expect(cache.get(request('0.0005'), 1)!.errors).toEqual(['LIMIT_MIN']);
    expect(cache.get(request('3'), 1)!.errors).toEqual(['LIMIT_MAX', 'from_amount_exceeds_max']);
  });

  it('keys by pair, direction and type', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), quote, 0);
    expect(cache.get(request('0.1', 'from', 'fixed'), 1)).toBeNull();
    expect(cache.get({ ...request('0.1'), to: 'USDT' }, 1)).toBeNull();
  });

  it('never caches direction to', () => {
    const cache = new QuoteCache();
    cache.set(request('2', 'to'), quote, 0);
    expect(cache.get(request('2', 'to'), 1)).toBeNull();
  });

  it('forgets entries after five minutes', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), quote, 0);
    expect(cache.get(request('0.1'), 5 * 60 * 1000 - 1)).not.toBeNull();
    expect(cache.get(request('0.1'), 5 * 60 * 1000)).toBeNull();
  });

  it('does not keep estimates', () => {
    const cache = new QuoteCache();
    cache.set(request('0.1'), { ...quote, estimated: true }, 0);
    expect(cache.get(request('0.1'), 1)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';

import { estimateQuote, estimateReceiveBelowMinimum, fallbackUsdPrice } from './estimate';

const btc = { code: 'BTC', coin: 'BTC', network: 'BTC', precision: 8 };
const eth = { code: 'ETH', coin: 'ETH', network: 'ETH', precision: 8 };
const usdt = { code: 'USDTTRC', coin: 'USDT', network: 'TRX', precision: 6 };

describe('local estimates (spec/exchange.md §9)', () => {
  it('uses the fallback USD prices, 100 by default', () => {
    expect(fallbackUsdPrice('BTC')).toBe(60000);
    expect(fallbackUsdPrice('usdc')).toBe(1);
    expect(fallbackUsdPrice('TON')).toBe(3.8);
    expect(fallbackUsdPrice('NOPE')).toBe(100);
  });

  it('takes 0.5 % off a float estimate and 1 % off a fixed one', () => {
    const float = estimateQuote(
      { from: 'BTC', to: 'ETH', amount: '1', direction: 'from', type: 'float' },
      btc,
      eth,
    );
    expect(float.to.amount).toBe('19.9');
    const fixed = estimateQuote(
      { from: 'BTC', to: 'ETH', amount: '1', direction: 'from', type: 'fixed' },
      btc,
      eth,
    );
    expect(fixed.to.amount).toBe('19.8');
  });

  it('sets the minimum at 1 % and the maximum at 100 times the amount', () => {
    const q = estimateQuote(
      { from: 'BTC', to: 'USDTTRC', amount: '0.5', direction: 'from', type: 'float' },
      btc,
      usdt,
    );
    expect(q.from.min).toBe('0.005');
    expect(q.from.max).toBe('50');
    expect(q.errors).toEqual(['FALLBACK']);
    expect(q.estimated).toBe(true);
  });

  it('works backwards for direction to', () => {
    const q = estimateQuote(
      { from: 'ETH', to: 'BTC', amount: '1', direction: 'to', type: 'float' },
      eth,
      btc,
    );
    expect(Number(q.from.amount)).toBeCloseTo(60000 / (3000 * 0.995), 6);
    expect(q.to.amount).toBe('1');
  });

  it('estimates a zero receive amount under LIMIT_MIN from USD minus 2 %', () => {
    const q = estimateQuote(
      { from: 'BTC', to: 'USDTTRC', amount: '0.0001', direction: 'from', type: 'float' },
      btc,
      usdt,
    );
    const limited = {
      ...q,
      errors: ['LIMIT_MIN'],
      estimated: false,
      from: { ...q.from, usd: '10.00' },
      to: { ...q.to, amount: '0' },
    };
    expect(estimateReceiveBelowMinimum(limited).to.amount).toBe('9.8');
  });
});

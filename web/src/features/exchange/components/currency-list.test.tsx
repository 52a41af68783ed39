import { describe, expect, it } from 'vitest';

import { matchCurrency } from './currency-list';

describe('currency search', () => {
  const btc = 'BTC BTC Bitcoin BTC';
  const usdt = 'USDTBSC USDT Tether BSC';

  it('finds by code, ticker, name or network, case-insensitively', () => {
    expect(matchCurrency(btc, 'bitcoin')).toBeGreaterThan(0);
    expect(matchCurrency(usdt, 'tether bsc')).toBeGreaterThan(0);
    expect(matchCurrency(usdt, 'BSC')).toBeGreaterThan(0);
  });

  it('ranks matches at the start first', () => {
    expect(matchCurrency(usdt, 'usdt')).toBeGreaterThan(matchCurrency(usdt, 'tether'));
  });

  it('does not match scattered letters', () => {
    expect(matchCurrency('QTUM QTUM Qtum QTUM', 'qqqq')).toBe(0);
    expect(matchCurrency(btc, 'zzzz')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';

import { fallbackRate, receiveAmount } from './recent-estimate';

describe('the recent feed estimate (spec/accounts-and-pages.md §5)', () => {
  it('shows the real amount when there is one', () => {
    expect(
      receiveAmount({
        from_currency: 'BTC',
        from_amount: '0.1',
        to_currency: 'ETH',
        to_amount: '2.01',
      }),
    ).toEqual({ amount: '2.01', estimated: false });
  });

  it('uses the built-in table, with 6 decimals for BTC and ETH targets', () => {
    expect(receiveAmount({ from_currency: 'BTC', from_amount: '0.1', to_currency: 'ETH' })).toEqual(
      { amount: '2.000000', estimated: true },
    );
    expect(receiveAmount({ from_currency: 'BTC', from_amount: 0.1, to_currency: 'USDT' })).toEqual({
      amount: '6000.00',
      estimated: true,
    });
  });

  it('falls back per target for unknown pairs', () => {
    expect(fallbackRate('XMR', 'BTC')).toBe(0.00001);
    expect(fallbackRate('XMR', 'ETH')).toBe(0.0005);
    expect(fallbackRate('XMR', 'DOT')).toBe(0.95);
    expect(
      receiveAmount({
        from_currency: 'XMR',
        from_amount: '10',
        to_currency: 'DOT',
        to_amount: null,
      }),
    ).toEqual({ amount: '9.50', estimated: true });
  });
});

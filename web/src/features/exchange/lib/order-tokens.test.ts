import { describe, expect, it } from 'vitest';

import {
  forgetOrderToken,
  MAX_REMEMBERED_ORDERS,
  REMEMBER_ORDER_MS,
  rememberedOrders,
  rememberedOrderToken,
  rememberOrderToken,
} from './order-tokens';

describe('remembered order tokens', () => {
  it('keeps only the newest orders', () => {
    for (let i = 0; i < MAX_REMEMBERED_ORDERS + 5; i += 1) rememberOrderToken(`o${i}`, `t${i}`, i);
    const stored = JSON.parse(localStorage.getItem('orderTokens') ?? '{}') as object;
    expect(Object.keys(stored)).toHaveLength(MAX_REMEMBERED_ORDERS);
    expect(rememberedOrderToken('o0', 100)).toBeNull();
    expect(rememberedOrderToken(`o${MAX_REMEMBERED_ORDERS + 4}`, 100)).toBe(
      `t${MAX_REMEMBERED_ORDERS + 4}`,
    );
  });

  it('forgets a token 30 days after it was stored, however often the order is opened', () => {
    rememberOrderToken('old', 'secret', 0);
    rememberOrderToken('old', 'secret', REMEMBER_ORDER_MS - 10);
    expect(rememberedOrderToken('old', REMEMBER_ORDER_MS - 1)).toBe('secret');
    expect(rememberedOrderToken('old', REMEMBER_ORDER_MS)).toBeNull();
    // Deleted from storage as soon as it is read expired, not only hidden.
    expect(localStorage.getItem('orderTokens')).toBe('{}');
  });

  it('dates bare tokens of older versions once, so they expire too, and survives garbage', () => {
    localStorage.setItem('orderTokens', JSON.stringify({ legacy: 'tok' }));
    expect(rememberedOrderToken('legacy', 1_000)).toBe('tok');
    expect(rememberedOrderToken('legacy', 1_000 + REMEMBER_ORDER_MS)).toBeNull();
    localStorage.setItem('orderTokens', 'not json');
    expect(rememberedOrderToken('legacy')).toBeNull();
  });

  it('forgets one order on request', () => {
    rememberOrderToken('a', 'ta', 1);
    rememberOrderToken('b', 'tb', 2);
    forgetOrderToken('a', 3);
    expect(rememberedOrderToken('a', 3)).toBeNull();
    expect(rememberedOrderToken('b', 3)).toBe('tb');
  });

  it('lists the remembered orders newest first, with what was ordered', () => {
    const summary = { from: 'BTC', to: 'ETH', fromAmount: '0.01', toAmount: '0.2' };
    rememberOrderToken('first', 't1', 1, summary);
    rememberOrderToken('second', 't2', 2);
    // Remembering an order again (its page opened with its link) keeps what it was, and when.
    rememberOrderToken('first', 't1', 3);
    expect(rememberedOrders(10)).toEqual([
      { id: 'second', token: 't2', at: 2, summary: null },
      { id: 'first', token: 't1', at: 1, summary },
    ]);
    expect(rememberedOrders(REMEMBER_ORDER_MS + 3)).toEqual([]);
  });
});

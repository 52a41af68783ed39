import { describe, expect, it } from 'vitest';

import type { ListedOrder } from '../api/get-orders';
import { filterOrders, formatAmount, toMillis } from './list';

const order = (
  id: string,
  created_at: number,
  status: string,
  from = 'BTC',
  to = 'ETH',
): ListedOrder => ({
  id,
  created_at,
  status,
  from_currency: from,
  to_currency: to,
  from_amount: '1',
  to_amount: '2',
});

describe('orders list (spec §2.13)', () => {
  const orders = [
    order('aaa111', 100, 'NEW'),
    order('bbb222', 300, 'COMPLETED', 'USDTTRC', 'BTC'),
    order('ccc333', 200, 'COMPLETED'),
  ];

  it('sorts newest first', () => {
    expect(filterOrders(orders, '', 'ALL').map((o) => o.id)).toEqual([
      'bbb222',
      'ccc333',
      'aaa111',
    ]);
  });

  it('searches id and currency codes, ignoring case', () => {
    expect(filterOrders(orders, 'BBB', 'ALL').map((o) => o.id)).toEqual(['bbb222']);
    expect(filterOrders(orders, 'usdt', 'ALL').map((o) => o.id)).toEqual(['bbb222']);
    expect(filterOrders(orders, 'eth', 'ALL').map((o) => o.id)).toEqual(['ccc333', 'aaa111']);
  });

  it('filters by status', () => {
    expect(filterOrders(orders, '', 'COMPLETED').map((o) => o.id)).toEqual(['bbb222', 'ccc333']);
    expect(filterOrders(orders, '', 'FAILED')).toEqual([]);
  });

  it('shows amounts with eight decimals', () => {
    expect(formatAmount('1.5')).toBe('1.50000000');
    expect(formatAmount(2)).toBe('2.00000000');
    expect(formatAmount('0.123456789')).toBe('0.12345678');
  });

  it('reads seconds, milliseconds and ISO dates', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis('1700000000')).toBe(1_700_000_000_000);
    expect(toMillis('2024-01-01T00:00:00Z')).toBe(Date.UTC(2024, 0, 1));
  });
});

import { describe, expect, it } from 'vitest';

import { chartGeometry } from './chart';

const day = (clicks: number, orders: number, earned = '0') => ({
  day: 0,
  clicks,
  orders,
  earned_usd: earned,
});

describe('chartGeometry', () => {
  it('scales every bar to the busiest day and sums the totals', () => {
    const g = chartGeometry([day(4, 1, '1.5'), day(0, 2, '0.25'), day(2, 0)], 300, 100);
    expect(g.max).toBe(4);
    expect(g.clicks.map((b) => b.height)).toEqual([100, 0, 50]);
    expect(g.orders.map((b) => b.height)).toEqual([25, 50, 0]);
    expect(g.clicks.map((b) => b.x)).toEqual([0, 100, 200]);
    expect(g.orders[0]!.x).toBe(50);
    expect(g.totals).toEqual({ clicks: 6, orders: 3, earned: 1.75 });
  });

  it('draws empty days flat instead of dividing by zero', () => {
    const g = chartGeometry([day(0, 0), day(0, 0)], 100, 50);
    expect(g.clicks.every((b) => b.height === 0)).toBe(true);
  });
});

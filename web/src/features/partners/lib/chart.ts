// The affiliate chart's geometry: one group of bars per day, scaled to the busiest day.
import type { DayPoint } from '../api/partners';

export interface Bar {
  x: number;
  height: number;
}

export interface ChartGeometry {
  clicks: Bar[];
  orders: Bar[];
  max: number;
  totals: { clicks: number; orders: number; earned: number };
}

/** Bars for `points` in a `width` × `height` box, two bars (clicks, orders) per day. */
export function chartGeometry(
  points: readonly DayPoint[],
  width: number,
  height: number,
): ChartGeometry {
  const max = Math.max(1, ...points.map((p) => Math.max(p.clicks, p.orders)));
  const slot = points.length > 0 ? width / points.length : width;
  const scale = (value: number) => (value / max) * height;
  return {
    clicks: points.map((p, i) => ({ x: i * slot, height: scale(p.clicks) })),
    orders: points.map((p, i) => ({ x: i * slot + slot / 2, height: scale(p.orders) })),
    max,
    totals: {
      clicks: points.reduce((sum, p) => sum + p.clicks, 0),
      orders: points.reduce((sum, p) => sum + p.orders, 0),
      earned: points.reduce((sum, p) => sum + (Number(p.earned_usd) || 0), 0),
    },
  };
}

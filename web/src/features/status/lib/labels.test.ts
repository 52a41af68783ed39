import { describe, expect, it } from 'vitest';

import { congestionBar, labelOf, toneOf } from './labels';

describe('status labels (spec §4.3)', () => {
  it('maps known states and calls anything else unknown', () => {
    expect(labelOf('Operational')).toBe('operational');
    expect(labelOf('congested')).toBe('congested');
    expect(labelOf('monitoring')).toBe('monitoring');
    expect(labelOf('on fire')).toBe('unknown');
  });

  it('draws congestion as 25, 50 or 90', () => {
    expect(congestionBar('low')).toBe(25);
    expect(congestionBar('medium')).toBe(50);
    expect(congestionBar('high')).toBe(90);
    expect(congestionBar(null)).toBeNull();
  });

  it('colours outages red and the unknown grey', () => {
    expect(toneOf('outage')).toBe('bad');
    expect(toneOf('unknown')).toBe('neutral');
    expect(toneOf('degraded')).toBe('warn');
  });
});

import { describe, expect, it } from 'vitest';

import { formatDay, formatNumber, formatUsd, formatUsdIn } from './format';

describe('the one money and number formatter', () => {
  it('lets Intl place the dollar sign for each locale', () => {
    expect(formatUsd(1234.5, 'en')).toBe('$1,234.50');
    // German puts the symbol after the digits, with a (non-breaking) space.
    expect(formatUsd(1234.5, 'de')).toMatch(/^1\.234,50\s\$$/);
    expect(formatUsd('12.3', 'fr')).toMatch(/^12,30\s\$US$/);
    expect(formatUsd(null, 'en')).toBe('—');
    expect(formatUsd('not a number', 'en')).toBe('—');
  });

  it('shows amounts in billions or millions with the unit after the digits', () => {
    expect(formatUsdIn('billions', 2_088_450_000_000, 'en')).toBe('$2,088.45B');
    expect(formatUsdIn('millions', 54_950_000, 'en')).toBe('$54.95M');
    expect(formatUsdIn('millions', 54_950_000, 'de')).toMatch(/^54,95M\s\$$/);
  });

  it('formats plain numbers and ISO days per locale', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'de')).toBe('12.345');
    expect(formatDay('2025-05-01', 'en')).toBe('May 1, 2025');
    expect(formatDay('yesterday', 'en')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';

import {
  formatAmount,
  formatDay,
  formatNumber,
  formatPercent,
  formatRate,
  formatUsd,
  formatUsdIn,
} from './format';

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

  it('shows rates with six significant digits and the locale separators', () => {
    expect(formatRate('40.790296123456', 'en')).toBe('40.7903');
    expect(formatRate('60123.456789', 'en')).toBe('60,123.5');
    expect(formatRate('60123.456789', 'de')).toBe('60.123,5');
    expect(formatRate('0.0512345678', 'en')).toBe('0.0512346');
    expect(formatRate(null, 'en')).toBe('—');
  });

  it('keeps every digit of an amount, grouped in the locale', () => {
    expect(formatAmount('1234.56789012', 'en')).toBe('1,234.56789012');
    expect(formatAmount('1234.56789012', 'de')).toBe('1.234,56789012');
    expect(formatAmount('123456789012345.12345678', 'en')).toBe('123,456,789,012,345.12345678');
    expect(formatAmount('0.40334444', 'fr')).toBe('0,40334444');
    expect(formatAmount('2.50', 'en')).toBe('2.5');
    expect(formatAmount('', 'en')).toBe('—');
  });

  it('writes fee percentages as each locale does', () => {
    expect(formatPercent('0.5', 'en')).toBe('0.5%');
    expect(formatPercent('1.0', 'en')).toBe('1.0%');
    expect(formatPercent('0.25', 'en')).toBe('0.25%');
    expect(formatPercent('0.5', 'de')).toMatch(/^0,5\s%$/);
    expect(formatPercent('1', 'fr')).toMatch(/^1,0\s%$/);
  });
});

// Numbers, money and dates in the reader's language, all on Intl. The swap form's number
// formatters live in `format-number.ts`, so that the landing page's bundle carries only them;
// this module adds coin amounts, market sizes and dates, and offers all of them together.
import { DASH, formatNumber, numberFormat, toFinite, usdFormat } from './format-number';

export { formatNumber, formatPercent, formatRate, formatUsd, toFinite } from './format-number';

/**
 * A coin amount as the server wrote it (a decimal string), grouped and in the locale's
 * separators, every digit kept: `1,234.56789012`, `1.234,56789012`.
 */
export function formatAmount(value: string | number | null | undefined, locale: string): string {
  if (toFinite(value) === null) return DASH;
  if (!/^[+-]?\d+(\.\d*)?$/.test(String(value))) {
    return formatNumber(value, locale, { maximumFractionDigits: 8 });
  }
  const [whole = '0', fraction = ''] = String(value).replace(/^\+/, '').split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const parts = numberFormat(locale, {}).formatToParts(negative ? -1.5 : 1.5);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const grouped = numberFormat(locale, { useGrouping: true }).format(BigInt(digits || '0'));
  const trimmed = fraction.replace(/0+$/, '');
  return `${negative ? '-' : ''}${grouped}${trimmed ? `${decimal}${trimmed}` : ''}`;
}

const SCALES = { billions: { divisor: 1e9, suffix: 'B' }, millions: { divisor: 1e6, suffix: 'M' } };

/**
 * Dollars in billions or millions (the markets table): the unit's letter goes right after the
 * digits, wherever the locale puts the symbol — `$2,088.45B`, `2.088,45B $`.
 */
export function formatUsdIn(
  scale: keyof typeof SCALES,
  value: number | string | null | undefined,
  locale: string,
): string {
  const number = toFinite(value);
  if (number === null) return DASH;
  const { divisor, suffix } = SCALES[scale];
  const parts = usdFormat(locale, 2).formatToParts(number / divisor);
  const lastDigit = parts.findLastIndex((p) => p.type === 'integer' || p.type === 'fraction');
  return parts.map((p, i) => (i === lastDigit ? `${p.value}${suffix}` : p.value)).join('');
}

/** A moment (Unix seconds) as a medium date and short time, or a dash. */
export function formatTime(unixSeconds: number | null | undefined, locale: string): string {
  if (!unixSeconds) return DASH;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(unixSeconds * 1000),
  );
}

/** An ISO day (`2025-05-01`) in the reader's language, or null. */
export function formatDay(day: string | null | undefined, locale: string): string | null {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

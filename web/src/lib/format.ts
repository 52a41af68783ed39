// Numbers, money and dates in the reader's language, all on Intl: one formatter per locale and
// options, so the currency symbol, separators and digit grouping are the locale's own.

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

const DASH = '—';

/** A finite number from a number or a decimal string, else null. */
export function toFinite(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

export function formatNumber(
  value: number | string | null | undefined,
  locale: string,
  options: Intl.NumberFormatOptions = {},
): string {
  const number = toFinite(value);
  return number === null ? DASH : numberFormat(locale, options).format(number);
}

/**
 * An exchange rate with sensible significant digits and the locale's separators:
 * `40.7903`, `60,123.5`, `0.0512346` — never ten decimals.
 */
export function formatRate(value: number | string | null | undefined, locale: string): string {
  return formatNumber(value, locale, { maximumSignificantDigits: 6 });
}

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

/** A fee in percent (`"0.5"`) as the locale writes percentages: `0.5%`, `0,5 %`. */
export function formatPercent(percent: number | string | null | undefined, locale: string): string {
  const number = toFinite(percent);
  return number === null
    ? DASH
    : numberFormat(locale, {
        style: 'percent',
        minimumFractionDigits: 1,
        maximumFractionDigits: 2,
      }).format(number / 100);
}

function usdFormat(locale: string, digits: number): Intl.NumberFormat {
  return numberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** US dollars in the reader's locale: `$1,234.50` in English, `1.234,50 $` in German. */
export function formatUsd(
  value: number | string | null | undefined,
  locale: string,
  digits = 2,
): string {
  const number = toFinite(value);
  return number === null ? DASH : usdFormat(locale, digits).format(number);
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

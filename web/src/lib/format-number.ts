// Numbers and money in the reader's language, all on Intl: one formatter per locale and
// options, so the currency symbol, separators and digit grouping are the locale's own. What the
// swap form shows (on the landing page) lives here; `format.ts` adds what other pages show and
// is the module the rest of the app imports.

const numberFormats = new Map<string, Intl.NumberFormat>();

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

export const DASH = '—';

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

export function usdFormat(locale: string, digits: number): Intl.NumberFormat {
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

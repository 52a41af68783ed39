// How the console writes its figures: durations, shares and "how long ago", on Intl (units and
// plural forms in the reader's language, so no text needs a plural of its own).
import { formatNumber } from '@/lib/format';

const unit = (value: number, name: string, locale: string, digits = 0) =>
  formatNumber(value, locale, {
    style: 'unit',
    unit: name,
    // Short units ("2 hr", "2 Std.", "2 ч") read right in any grammatical case of a sentence.
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  });

/** A time something took: `45 sec`, `12 min`, `2.5 hr`; a dash for none. */
export function formatDuration(seconds: number | null, locale: string): string {
  if (seconds === null) return formatNumber(null, locale);
  const s = Math.max(0, seconds);
  if (s < 60) return unit(s, 'second', locale);
  if (s < 3600) return unit(Math.round(s / 60), 'minute', locale);
  return unit(s / 3600, 'hour', locale, 1);
}

/** A span of seconds in whole hours or days (one decimal if needed): `2 hr`, `7 days`. */
export function formatSpan(seconds: number, as: 'hour' | 'day', locale: string): string {
  return unit(seconds / (as === 'hour' ? 3600 : 86_400), as, locale, 1);
}

/** `part` of `whole` as a percentage (`25%`, `12.5%`); a dash when `whole` is 0. */
export function formatShare(part: number, whole: number, locale: string): string {
  return formatNumber(whole > 0 ? part / whole : null, locale, {
    style: 'percent',
    maximumFractionDigits: 1,
  });
}

/** How long ago `at` was, seen from `now` (both Unix seconds): `3 hours ago`, `yesterday`. */
export function formatAgo(at: number, now: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const ago = Math.max(0, now - at);
  if (ago < 60) return format.format(-ago, 'second');
  if (ago < 3600) return format.format(-Math.floor(ago / 60), 'minute');
  if (ago < 86_400) return format.format(-Math.floor(ago / 3600), 'hour');
  return format.format(-Math.floor(ago / 86_400), 'day');
}

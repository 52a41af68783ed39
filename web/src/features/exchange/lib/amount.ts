/** Amount inputs accept digits with at most one decimal point, or nothing (§5). */
export function isAmountInput(value: string): boolean {
  return /^\d*\.?\d*$/.test(value);
}

/** A positive number from an amount string, or null. */
export function toNumber(value: string | undefined | null): number | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Rounds down to `precision` decimals and drops trailing zeros. */
export function formatAmount(value: number, precision = 8): string {
  if (!Number.isFinite(value) || value <= 0) return '0';
  const factor = 10 ** precision;
  // A relative nudge absorbs binary floating-point error (19.9 is stored as 19.8999…).
  const rounded = Math.floor(value * factor * (1 + 1e-12)) / factor;
  return rounded.toFixed(precision).replace(/\.?0+$/, '');
}

// Amounts as an operator types them, in the server's way (decimal text with a point: `0.001`,
// `25`): whether one is a positive amount, and how two compare, digit by digit (no rounding of
// a float in between).
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Whether `text` is a decimal above zero (`0.5`, `25`; not `0`, `-1`, `1e3` nor `0,5`). */
export function isPositiveAmount(text: string): boolean {
  return DECIMAL.test(text) && /[1-9]/.test(text);
}

/** Below zero when `a` is less than `b`, zero when equal, above zero when more; both must be
 * decimals (`isPositiveAmount`). */
export function compareAmounts(a: string, b: string): number {
  const [, wholeA = '', fractionA = ''] = DECIMAL.exec(a) ?? [];
  const [, wholeB = '', fractionB = ''] = DECIMAL.exec(b) ?? [];
  const width = Math.max(fractionA.length, fractionB.length);
  const digits = (whole: string, fraction: string) =>
    BigInt(`${whole}${fraction.padEnd(width, '0')}`);
  const difference = digits(wholeA, fractionA) - digits(wholeB, fractionB);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

// The recent feed's estimate when a transaction has no `to_amount`
// (spec/accounts-and-pages.md §5, §9): a built-in rate table; for an unknown pair 0.00001 per
// unit for BTC targets, 0.0005 for ETH targets, 0.95 otherwise, and 0.9 on a calculation error.
// Estimated amounts show 6 decimals for BTC and ETH targets and 2 otherwise.

const RATES: Record<string, Record<string, number>> = {
  BTC: { ETH: 20, USDT: 60000, USDC: 60000, BNB: 120, SOL: 400, LTC: 700 },
  ETH: { BTC: 0.05, USDT: 3000, USDC: 3000, BNB: 6, SOL: 20 },
  BNB: { BTC: 0.0083, ETH: 0.1667, USDT: 500, USDC: 500 },
  USDT: { BTC: 0.0000167, ETH: 0.000333, USDC: 1, BNB: 0.002, SOL: 0.00667, TRX: 8.3 },
  USDC: { BTC: 0.0000167, ETH: 0.000333, USDT: 1, BNB: 0.002 },
  SOL: { BTC: 0.0025, ETH: 0.05, USDT: 150, USDC: 150 },
  TRX: { USDT: 0.12, BTC: 0.000002 },
  DOGE: { USDT: 0.12, BTC: 0.000002 },
  LTC: { BTC: 0.0014, USDT: 85, ETH: 0.028 },
};

export function fallbackRate(from: string, to: string): number {
  const known = RATES[from.toUpperCase()]?.[to.toUpperCase()];
  if (known !== undefined) return known;
  if (to.toUpperCase() === 'BTC') return 0.00001;
  if (to.toUpperCase() === 'ETH') return 0.0005;
  return 0.95;
}

export function decimalsFor(to: string): number {
  return ['BTC', 'ETH'].includes(to.toUpperCase()) ? 6 : 2;
}

/** The receive amount to show: the real one, or the estimate with the spec's decimals. */
export function receiveAmount(tx: {
  from_currency: string;
  from_amount: string | number;
  to_currency: string;
  to_amount?: string | number | null;
}): {
  amount: string;
  estimated: boolean;
} {
  if (tx.to_amount !== undefined && tx.to_amount !== null && tx.to_amount !== '') {
    return { amount: String(tx.to_amount), estimated: false };
  }
  let rate: number;
  try {
    rate = fallbackRate(tx.from_currency, tx.to_currency);
    if (!Number.isFinite(rate)) rate = 0.9;
  } catch {
    rate = 0.9;
  }
  const from = Number(tx.from_amount);
  const value = Number.isFinite(from) ? from * rate : 0;
  return { amount: value.toFixed(decimalsFor(tx.to_currency)), estimated: true };
}

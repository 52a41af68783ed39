// Local quote estimates (spec/exchange.md §8, §9): used while rate-limited and when the quote
// service fails, always marked as estimates.
import type { Currency, Quote, QuoteRequest, QuoteSide } from '../types';
import { formatAmount } from './amount';
import { FALLBACK_USD, FALLBACK_USD_DEFAULT } from './constants';

export function fallbackUsdPrice(coin: string): number {
  return FALLBACK_USD[coin.toUpperCase()] ?? FALLBACK_USD_DEFAULT;
}

/** The local USD adjustment: 0.5 % float, 1 % fixed. */
export function usdAdjustment(type: QuoteRequest['type']): number {
  return type === 'fixed' ? 0.01 : 0.005;
}

function side(
  currency: Pick<Currency, 'code' | 'coin' | 'network' | 'precision'>,
  amount: number,
  usd: number,
  min: number,
  max: number,
  rate: number,
): QuoteSide {
  const precision = currency.precision ?? 8;
  return {
    amount: formatAmount(amount, precision),
    code: currency.code,
    coin: currency.coin,
    network: currency.network,
    min: formatAmount(min, precision),
    max: formatAmount(max, precision),
    precision,
    rate: formatAmount(rate, 10),
    usd: usd.toFixed(2),
  };
}

/**
 * Estimates a quote from the fallback USD prices: the minimum is 1 % of the amount and the
 * maximum 100 times it (§9).
 */
export function estimateQuote(
  request: QuoteRequest,
  from: Pick<Currency, 'code' | 'coin' | 'network' | 'precision'>,
  to: Pick<Currency, 'code' | 'coin' | 'network' | 'precision'>,
  reason = 'FALLBACK',
): Quote {
  const amount = Number(request.amount) || 0;
  const fromPrice = fallbackUsdPrice(from.coin);
  const toPrice = fallbackUsdPrice(to.coin);
  const keep = 1 - usdAdjustment(request.type);
  const rate = (fromPrice * keep) / toPrice;
  const fromAmount = request.direction === 'from' ? amount : amount / rate;
  const toAmount = request.direction === 'from' ? amount * rate : amount;
  return {
    errors: [reason],
    estimated: true,
    from: {
      ...side(from, fromAmount, fromAmount * fromPrice, fromAmount * 0.01, fromAmount * 100, rate),
      btc: formatAmount((fromAmount * fromPrice) / fallbackUsdPrice('BTC'), 8),
    },
    to: side(
      to,
      toAmount,
      toAmount * toPrice,
      toAmount * 0.01,
      toAmount * 100,
      rate ? 1 / rate : 0,
    ),
  };
}

/** LIMIT_MIN with a zero receive amount: estimate it from the send side's USD less 2 % (§8). */
export function estimateReceiveBelowMinimum(quote: Quote): Quote {
  if (!quote.errors.includes('LIMIT_MIN') || Number(quote.to.amount) > 0) return quote;
  const usd = Number(quote.from.usd) * 0.98;
  const amount = usd / fallbackUsdPrice(quote.to.coin);
  return {
    ...quote,
    estimated: true,
    to: { ...quote.to, amount: formatAmount(amount, quote.to.precision), usd: usd.toFixed(2) },
  };
}

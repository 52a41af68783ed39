// The quote cache of spec/exchange.md §7: five minutes per pair, direction and type; direction
// `to` is never cached; a hit for direction `from` is scaled to the new amount, its limit
// errors re-checked against the cached limits.
import type { Quote, QuoteRequest } from '../types';
import { formatAmount } from './amount';
import { TIMINGS } from './constants';

interface Entry {
  quote: Quote;
  amount: number;
  at: number;
}

const LIMIT_ERRORS = ['LIMIT_MIN', 'LIMIT_MAX', 'from_amount_exceeds_max', 'to_amount_exceeds_max'];

export class QuoteCache {
  private entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number = TIMINGS.rateCacheMs) {}

  private key(r: QuoteRequest): string {
    return `${r.from}|${r.to}|${r.direction}|${r.type}`;
  }

  set(request: QuoteRequest, quote: Quote, now = Date.now()): void {
    if (request.direction === 'to' || quote.estimated) return;
    const amount = Number(request.amount);
    if (!(amount > 0)) return;
    this.entries.set(this.key(request), { quote, amount, at: now });
  }

  get(request: QuoteRequest, now = Date.now()): Quote | null {
    if (request.direction === 'to') return null;
    const entry = this.entries.get(this.key(request));
    const amount = Number(request.amount);
    if (!entry || !(amount > 0)) return null;
    if (now - entry.at >= this.ttlMs) {
      this.entries.delete(this.key(request));
      return null;
    }
    return scale(entry.quote, entry.amount, amount);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The cached quote for `cachedAmount`, scaled in proportion to `amount`. */
export function scale(quote: Quote, cachedAmount: number, amount: number): Quote {
  if (amount === cachedAmount) return quote;
  const factor = amount / cachedAmount;
  const times = (value: string, precision: number) =>
    formatAmount(Number(value) * factor, precision);
  const errors = quote.errors.filter((e) => !LIMIT_ERRORS.includes(e));
  if (amount < Number(quote.from.min)) errors.push('LIMIT_MIN');
  if (amount > Number(quote.from.max)) errors.push('LIMIT_MAX', 'from_amount_exceeds_max');
  return {
    ...quote,
    errors,
    from: {
      ...quote.from,
      amount: formatAmount(amount, quote.from.precision),
      usd: (Number(quote.from.usd) * factor).toFixed(2),
      ...(quote.from.btc ? { btc: times(quote.from.btc, 8) } : {}),
    },
    to: {
      ...quote.to,
      amount: times(quote.to.amount, quote.to.precision),
      usd: (Number(quote.to.usd) * factor).toFixed(2),
    },
  };
}

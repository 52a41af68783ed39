// The exchange-rate client (spec/exchange.md §4, §7, §8): the five-minute cache, the 429 pause
// with local estimates meanwhile, and estimates when the service cannot be reached.
import { api, ApiError } from '@/lib/api-client';

import { estimateQuote, estimateReceiveBelowMinimum } from '../lib/estimate';
import { QuoteCache } from '../lib/quote-cache';
import { QuoteFailure } from '../lib/quote-failure';
import { RateLimitState } from '../lib/rate-limit';
import type { Currency, Envelope, Quote, QuoteRequest } from '../types';

const cache = new QuoteCache();
const rateLimit = new RateLimitState();

export async function getQuote(
  request: QuoteRequest,
  from: Currency,
  to: Currency,
  /** A refresh of a quote on screen (a fixed quote about to lapse): never from the cache. */
  { fresh = false }: { fresh?: boolean } = {},
): Promise<Quote> {
  const cached = fresh ? null : cache.get(request);
  if (cached) return cached;
  if (rateLimit.isPaused()) return estimateQuote(request, from, to, 'RATE_LIMITED');
  try {
    const answer = await api.post<Envelope<Quote>>('/api/exchange-rate', {
      from_currency: request.from,
      to_currency: request.to,
      amount: request.amount,
      direction: request.direction,
      type: request.type,
    });
    if (answer.code !== 0) throw new QuoteFailure(answer.msg);
    const quote = estimateReceiveBelowMinimum(answer.data);
    cache.set(request, quote);
    return quote;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) {
      rateLimit.pause(error.message);
      return estimateQuote(request, from, to, 'RATE_LIMITED');
    }
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      throw new QuoteFailure(error.message);
    }
    if (error instanceof QuoteFailure) throw error;
    // The service is down or unreachable: a clearly marked local estimate.
    const reason = error instanceof ApiError ? 'API_ERROR' : 'CONNECTION_ERROR';
    return estimateQuote(request, from, to, reason);
  }
}

/** For tests: forget cached quotes and any pause. */
export function resetQuoteClient(): void {
  cache.clear();
  Object.assign(rateLimit, new RateLimitState());
}

// The quote for what the customer asks, 200 ms after they stop typing (spec/exchange.md §5).
// Only an answer to the request on screen now is `quote`: while another is on its way, or the
// request is still settling, the previous answer is `previous` and the state is `pending`.
// Late answers to older requests land in their own cache entries and are never shown as fresh.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';

import { toNumber } from '../lib/amount';
import { TIMINGS } from '../lib/constants';
import type { Currency, Direction, Quote, QuoteRequest, RateType } from '../types';
import { useDebounced } from './use-debounced';

/** One string names a request, so the debounce holds a primitive and compares by value. */
export function requestKey(r: QuoteRequest): string {
  return [r.from, r.to, r.amount, r.direction, r.type].join('|');
}

function requestOf(key: string): QuoteRequest {
  const [from = '', to = '', amount = '', direction = 'from', type = 'float'] = key.split('|');
  return { from, to, amount, direction: direction as Direction, type: type as RateType };
}

function isQuotable(request: QuoteRequest, currencies: readonly Currency[]): boolean {
  const known = (code: string) => currencies.some((c) => c.code === code);
  return (
    request.from !== request.to &&
    known(request.from) &&
    known(request.to) &&
    toNumber(request.amount) !== null
  );
}

export interface LiveQuote {
  /** The answer to the request on screen, or null. */
  quote: Quote | null;
  /** The last answer shown, for a muted figure while the next one comes. */
  previous: Quote | null;
  /** A quote for the request on screen is being fetched or waits for typing to stop. */
  pending: boolean;
  /** The request on screen failed (not an older one). */
  error: Error | null;
  /** When the quote on screen was fetched (epoch ms), and a way to fetch it anew. */
  fetchedAt: number;
  refresh: () => void;
}

/**
 * A fixed quote is held this long on screen, then asked again: the amount shown is never older
 * than this, and the order is created with it (a change since is confirmed by the customer).
 */
export const FIXED_QUOTE_HOLD_MS = 30_000;

export function useLiveQuote(request: QuoteRequest, currencies: readonly Currency[]): LiveQuote {
  const key = requestKey(request);
  const settledKey = useDebounced(key, TIMINGS.debounceMs);
  const settled = requestOf(settledKey);
  const find = (code: string) => currencies.find((c) => c.code === code);
  const client = useQueryClient();
  const queryKey = ['quote', settledKey];
  const query = useQuery({
    queryKey,
    // The quote client (cache, 429 pause, estimates) loads with the first quote, after the
    // landing page's first screen.
    queryFn: async () => {
      const { getQuote } = await import('../api/get-quote');
      // A quote already on screen is being refreshed: from the server, not the cache.
      const fresh = client.getQueryData(queryKey) !== undefined;
      return getQuote(settled, find(settled.from)!, find(settled.to)!, { fresh });
    },
    enabled: isQuotable(settled, currencies),
    refetchInterval: settled.type === 'fixed' ? FIXED_QUOTE_HOLD_MS : false,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: TIMINGS.rateCacheMs,
  });
  const current = settledKey === key && !query.isPlaceholderData;
  const quote = current && query.data ? query.data : null;
  const error = current && query.error ? query.error : null;
  return {
    quote,
    previous: query.data ?? null,
    pending: isQuotable(request, currencies) && !quote && !error,
    error,
    fetchedAt: query.dataUpdatedAt,
    refresh: () => void query.refetch(),
  };
}

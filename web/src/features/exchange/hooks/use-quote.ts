import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { getQuote } from '../api/get-quote';
import { toNumber } from '../lib/amount';
import { TIMINGS } from '../lib/constants';
import type { Currency, QuoteRequest } from '../types';
import { useDebounced } from './use-debounced';

/** The quote for what the customer typed, 200 ms after they stop typing. */
export function useQuote(
  request: QuoteRequest,
  from: Currency | undefined,
  to: Currency | undefined,
) {
  const settled = useDebounced(request, TIMINGS.debounceMs);
  const ready = !!from && !!to && from.code !== to.code && toNumber(settled.amount) !== null;
  return useQuery({
    queryKey: ['quote', settled.from, settled.to, settled.amount, settled.direction, settled.type],
    queryFn: () => getQuote(settled, from!, to!),
    enabled: ready,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: TIMINGS.rateCacheMs,
  });
}

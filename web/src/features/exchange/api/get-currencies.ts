// `GET /api/available-currencies` (spec/exchange.md §7): cached 30 minutes. When the server
// cannot be reached, the catalogue shipped with the app stands in — marked `local`, and only
// until the server answers again: it is retried every half minute, not kept 30 minutes.
import { type Query, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { TIMINGS } from '../lib/constants';
import type { Currency } from '../types';

export interface CurrencyList {
  list: Currency[];
  /** True when the server could not be reached and the shipped catalogue stands in. */
  local: boolean;
}

const RETRY_LOCAL_MS = 30 * 1000;

const byPriority = (a: Currency, b: Currency) => (b.priority ?? 0) - (a.priority ?? 0);

/** The shipped catalogue's entries as currencies, every one open both ways. */
export function catalogueCurrencies(entries: readonly object[]): Currency[] {
  return entries.map((c) => ({ ...c, send: 1, recv: 1 }) as Currency).sort(byPriority);
}

/** The catalogue shipped with the app, loaded only when the server's list fails. */
async function localCatalogue(): Promise<Currency[]> {
  const { default: file } = await import('@catalogue');
  return catalogueCurrencies(file.currencies);
}

export async function getCurrencies(): Promise<CurrencyList> {
  try {
    const list = await api.get<Currency[]>('/api/available-currencies');
    return { list: [...list].sort(byPriority), local: false };
  } catch (error) {
    // The widget tells the customer (toast 'Failed to load currencies'); here it is logged.
    console.warn('Could not load currencies', error);
    return { list: await localCatalogue(), local: true };
  }
}

const isLocal = (query: Pick<Query<CurrencyList>, 'state'>) => query.state.data?.local === true;

export const currenciesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/available-currencies'],
    queryFn: getCurrencies,
    staleTime: (query) => (isLocal(query) ? 0 : TIMINGS.currencyCacheMs),
    gcTime: TIMINGS.currencyCacheMs,
    refetchInterval: (query) => (isLocal(query) ? RETRY_LOCAL_MS : false),
  });

export function useCurrencies() {
  return useQuery(currenciesQueryOptions());
}

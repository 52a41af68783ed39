import { queryOptions, useQuery } from '@tanstack/react-query';

import { notify } from '@/components/ui/toaster';
import { api } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';

import { TIMINGS } from '../lib/constants';
import type { Currency } from '../types';

export interface CurrencyList {
  list: Currency[];
  /** True when the server could not be reached and the shipped catalogue stands in. */
  local: boolean;
}

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
    console.warn('Could not load currencies', error);
    notify(i18n.t('toast.currenciesFailed'), { variant: 'destructive' });
    return { list: await localCatalogue(), local: true };
  }
}

export const currenciesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/available-currencies'],
    queryFn: getCurrencies,
    staleTime: TIMINGS.currencyCacheMs,
    gcTime: TIMINGS.currencyCacheMs,
  });

export function useCurrencies() {
  return useQuery(currenciesQueryOptions());
}

// `GET /api/admin/currencies`: every currency of the catalogue, in its order, with what customers
// get now, the provider's maintenance and the operator's override; `PUT
// /api/admin/currency-overrides/{code}` `{send, recv, maintenance, min, max, reason?}`: an
// operator replaces a currency's override (a 400 `{error}` for a bad amount, a minimum above the
// maximum or a message too long), once per dialog's Idempotency-Key. Once done, the list is read
// again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { ConsoleCurrency, CurrencyOverride } from '../types';
import { consoleAct } from './console-act';

const CURRENCIES = '/api/admin/currencies';

export const getCurrencies = () => consoleCall(() => api.get<ConsoleCurrency[]>(CURRENCIES));

export const currenciesQueryOptions = () =>
  queryOptions({
    queryKey: [CURRENCIES],
    queryFn: getCurrencies,
    meta: { private: true },
    staleTime: 0,
  });

export const useCurrencies = () => useQuery(currenciesQueryOptions());

/** The whole override (what is left out would be null), with an optional reason. */
export type OverrideInput = Omit<CurrencyOverride, 'updated_at'> & {
  reason?: string;
  idempotencyKey: string;
};

export const setCurrencyOverride = (code: string, { idempotencyKey, ...body }: OverrideInput) =>
  consoleAct<ConsoleCurrency & { audit_id: number }>(
    `/api/admin/currency-overrides/${encodeURIComponent(code)}`,
    'PUT',
    body,
    idempotencyKey,
  );

export function useSetCurrencyOverride(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OverrideInput) => setCurrencyOverride(code, input),
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currenciesQueryOptions().queryKey }),
  });
}

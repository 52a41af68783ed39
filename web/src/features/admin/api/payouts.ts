// `GET /api/admin/payouts?status=`: partners' payout requests, oldest first; and
// `POST /api/admin/payouts/{id}` `{status: 'paid', txid, reason?}` or
// `{status: 'rejected', reason}`: an operator closes a request, once per dialog's
// Idempotency-Key. Once done, the lists are read again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { Payout, PayoutStatus } from '../types';
import { consoleAct } from './console-act';

export const getPayouts = (status: PayoutStatus) =>
  consoleCall(() => api.get<Payout[]>(`/api/admin/payouts?status=${status}`));

export const payoutsQueryOptions = (status: PayoutStatus) =>
  queryOptions({
    queryKey: ['/api/admin/payouts', status],
    queryFn: () => getPayouts(status),
    meta: { private: true },
    staleTime: 0,
  });

export const usePayouts = (status: PayoutStatus) => useQuery(payoutsQueryOptions(status));

export type ClosePayoutInput = (
  { status: 'paid'; txid: string; reason?: string } | { status: 'rejected'; reason: string }
) & { idempotencyKey: string };

export const closePayout = (id: string, { idempotencyKey, ...body }: ClosePayoutInput) =>
  consoleAct<{ id: string; status: string; audit_id: number }>(
    `/api/admin/payouts/${encodeURIComponent(id)}`,
    'POST',
    body,
    idempotencyKey,
  );

export function useClosePayout(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ClosePayoutInput) => closePayout(id, input),
    meta: { private: true },
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [payoutsQueryOptions('requested').queryKey[0]] }),
  });
}

// The partner pages' calls: API keys (`/api/api-keys…`) and the affiliate dashboard
// (`/api/affiliate…`). Secrets come back once, from the create call, and are never refetched.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api, request } from '@/lib/api-client';

export type Permission = 'read' | 'trade';

export interface ApiKey {
  id: string;
  name: string;
  permission: Permission;
  webhook_url: string | null;
  request_count: number;
  last_used_at: number | null;
  created_at: number;
  revoked_at: number | null;
}

export interface CreatedKey {
  key: ApiKey;
  secret: string;
  webhook_secret: string;
}

export interface WebhookDelivery {
  id: string;
  order_id: string;
  order_status: string;
  created_at: number;
  attempts: number;
  next_attempt_at: number | null;
  delivered_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

export interface DayPoint {
  day: number;
  clicks: number;
  orders: number;
  earned_usd: string;
}

export interface AttributedOrder {
  id: string;
  created_at: number;
  status: string;
  from_code: string;
  to_code: string;
  from_amount: string;
  volume_usd: string;
  commission_usd: string;
  commission_state: 'pending' | 'available' | 'reversed';
}

export interface Payout {
  id: string;
  amount_usd: string;
  currency: string;
  address: string;
  status: 'requested' | 'paid' | 'rejected';
  txid: string | null;
  created_at: number;
  processed_at: number | null;
}

export interface AffiliateSummary {
  referral_code: string;
  referral_link: string;
  share_percent: string;
  min_payout_usd: string;
  clicks: number;
  signups: number;
  orders: number;
  completed_orders: number;
  volume_usd: string;
  earned_usd: string;
  earned_btc: string;
  pending_usd: string;
  available_usd: string;
  paid_usd: string;
  chart: DayPoint[];
  recent_orders: AttributedOrder[];
  payouts: Payout[];
}

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/api-keys'],
    meta: { private: true },
    queryFn: () => api.get<{ keys: ApiKey[]; email_verified: boolean }>('/api/api-keys'),
    staleTime: 0,
  });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

export const deliveriesQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: ['/api/api-keys', keyId, 'deliveries'],
    meta: { private: true },
    queryFn: () =>
      api.get<{ deliveries: WebhookDelivery[] }>(
        `/api/api-keys/${encodeURIComponent(keyId)}/deliveries`,
      ),
    staleTime: 0,
  });

export const useDeliveries = (keyId: string, enabled: boolean) =>
  useQuery({ ...deliveriesQueryOptions(keyId), enabled });

/** A mutation that refreshes the key list when it succeeds. */
function useKeysMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}

export const useCreateApiKey = () =>
  useKeysMutation((input: { name: string; permission: Permission }) =>
    api.post<CreatedKey>('/api/api-keys', input),
  );

export const useRevokeApiKey = () =>
  useKeysMutation((id: string) =>
    request<{ message: string }>(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );

export const useSetWebhook = () =>
  useKeysMutation((input: { id: string; url: string | null }) =>
    request<{ message: string }>(`/api/api-keys/${encodeURIComponent(input.id)}/webhook`, {
      method: 'PUT',
      body: JSON.stringify({ url: input.url }),
    }),
  );

export const affiliateQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/affiliate'],
    meta: { private: true },
    queryFn: () => api.get<AffiliateSummary>('/api/affiliate'),
    staleTime: 0,
  });

export const useAffiliateSummary = () => useQuery(affiliateQueryOptions());

export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string; address: string; tag?: string }) =>
      api.post<{ message: string; payout: Payout }>('/api/affiliate/payouts', input),
    meta: { private: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: affiliateQueryOptions().queryKey }),
  });
}

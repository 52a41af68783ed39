// `GET /api/admin/api-keys?active=true|false`: partners' API keys with their owners, the 200
// most recently used first (never used: by creation); `true` only those still working, `false`
// only the revoked ones, neither all. `POST /api/admin/api-keys/{id}/revoke` `{reason}`: an
// operator revokes a key for good (404 for no such key, 409 when it is already revoked), once
// per dialog's Idempotency-Key. Once done, the lists and the owner's account are read again.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';
import type { ApiKeyFilter, PartnerApiKey } from '../types';
import { consoleAct, type ReasonInput } from './console-act';
import { accountQueryOptions } from './get-user';

const API_KEYS = '/api/admin/api-keys';

export function getApiKeys(filter: ApiKeyFilter): Promise<PartnerApiKey[]> {
  const query = filter === 'all' ? '' : `?active=${String(filter === 'active')}`;
  return consoleCall(() => api.get<PartnerApiKey[]>(`${API_KEYS}${query}`));
}

export const apiKeysQueryOptions = (filter: ApiKeyFilter) =>
  queryOptions({
    queryKey: [API_KEYS, filter],
    queryFn: () => getApiKeys(filter),
    meta: { private: true },
    staleTime: 0,
  });

export const useApiKeys = (filter: ApiKeyFilter) => useQuery(apiKeysQueryOptions(filter));

export const revokeApiKey = (id: string, { idempotencyKey, ...body }: ReasonInput) =>
  consoleAct<{ api_key: PartnerApiKey; audit_id: number }>(
    `${API_KEYS}/${encodeURIComponent(id)}/revoke`,
    'POST',
    body,
    idempotencyKey,
  );

/** Revokes the key `id` of the account `userId`; then the key lists and that account are read
 * again. */
export function useRevokeApiKey(id: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReasonInput) => revokeApiKey(id, input),
    meta: { private: true },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [API_KEYS] }),
        queryClient.invalidateQueries({ queryKey: accountQueryOptions(userId).queryKey }),
      ]),
  });
}

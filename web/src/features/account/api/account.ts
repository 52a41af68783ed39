// The profile's calls (`/api/account/…`): what the spec does not show but the page needs.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { userQueryOptions, type User } from '@/lib/auth';
import { api, request } from '@/lib/api-client';

export interface SessionInfo {
  id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string;
  ip: string;
  current: boolean;
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/account/sessions'],
    meta: { private: true },
    queryFn: () =>
      api.get<{ sessions: SessionInfo[]; recovery_codes_left: number }>('/api/account/sessions'),
    staleTime: 0,
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

/** A mutation whose answer may carry the updated user, refreshing the cached one. */
function useAccountMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    meta: { private: true },
    onSuccess: (answer) => {
      const user = (answer as { user?: User } | undefined)?.user;
      if (user) queryClient.setQueryData(userQueryOptions().queryKey, user);
      else void queryClient.invalidateQueries({ queryKey: userQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
    },
  });
}

export const useUpdateProfile = () =>
  useAccountMutation((input: { full_name?: string; order_emails?: boolean; language?: string }) =>
    request<{ user: User }>('/api/account', { method: 'PATCH', body: JSON.stringify(input) }),
  );

export const useChangePassword = () =>
  useAccountMutation(
    (input: { current_password: string; password: string; confirm_password: string }) =>
      api.post<{ message: string }>('/api/account/password', input),
  );

export const useBeginTwoFactor = () =>
  useMutation({
    mutationFn: () => api.post<{ secret: string; otpauth_uri: string }>('/api/account/2fa/setup'),
    meta: { private: true },
  });

export const useEnableTwoFactor = () =>
  useAccountMutation((code: string) =>
    api.post<{ recovery_codes: string[] }>('/api/account/2fa/enable', { code }),
  );

export const useDisableTwoFactor = () =>
  useAccountMutation((input: { password: string; code: string }) =>
    api.post<{ message: string }>('/api/account/2fa/disable', input),
  );

export const useRevokeSession = () =>
  useAccountMutation((id: string) =>
    request<{ message: string }>(`/api/account/sessions/${encodeURIComponent(id)}`, {
      method: 'DELETE',
    }),
  );

export function deleteAccount(password: string) {
  return api.post<{ message: string }>('/api/account/delete', { password });
}

import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError, getAuthToken } from '@/lib/api-client';

/** The signed-in user (spec/accounts-and-pages.md §3). */
export interface User {
  id: string;
  username: string;
  email?: string;
  email_verified: boolean;
  referral_code?: string | null;
  referred_by?: string | null;
  full_name?: string;
  two_factor_enabled?: boolean;
  order_emails?: boolean;
  has_password?: boolean;
  /** The language the user's mails are written in. */
  language?: string;
  created_at?: number;
}

/** `GET /api/user`; a 401 means signed out and yields `null` (spec/exchange.md §6). */
export async function getUser(): Promise<User | null> {
  try {
    const body = await api.get<User | { user: User }>('/api/user');
    return 'user' in body ? body.user : body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/user'],
    queryFn: getUser,
  });

/** The user is fetched only when a token is stored (spec/accounts-and-pages.md §4.1). */
export function useUser() {
  const hasToken = getAuthToken() !== null;
  const query = useQuery({ ...userQueryOptions(), enabled: hasToken });
  return {
    user: hasToken ? (query.data ?? null) : null,
    isLoading: hasToken && query.isPending,
  };
}

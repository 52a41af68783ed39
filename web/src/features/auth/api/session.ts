// Signing in and out on this browser (spec/accounts-and-pages.md §4.1): the token lives in
// localStorage under `authToken`; the user is cached under the `/api/user` query.
import type { QueryClient } from '@tanstack/react-query';

import { AUTH_TOKEN_KEY } from '@/lib/api-client';

import { userQueryOptions, type User } from './get-user';

/** What the server answers when a sign-in step succeeds. */
export interface SignedIn {
  token: string;
  user: User;
  message?: string;
}

export function storeSession(queryClient: QueryClient, answer: SignedIn): void {
  localStorage.setItem(AUTH_TOKEN_KEY, answer.token);
  queryClient.setQueryData(userQueryOptions().queryKey, answer.user);
}

export function forgetSession(queryClient: QueryClient): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
  queryClient.setQueryData(userQueryOptions().queryKey, null);
  queryClient.removeQueries({
    predicate: (q) => q.queryKey[0] !== '/api/user' && isPrivate(q.queryKey[0]),
  });
}

function isPrivate(key: unknown): boolean {
  return key === '/api/orders' || (typeof key === 'string' && key.startsWith('/api/account'));
}

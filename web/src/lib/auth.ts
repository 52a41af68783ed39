// The signed-in user and the session (spec/accounts-and-pages.md §4.1, with one deliberate
// difference). The session token lives only in the HttpOnly `ferry_session` cookie the server
// sets: no script can read it, so an injected script cannot steal it. `GET /api/user` decides
// whether someone is signed in. The app keeps only a hint that a session may exist — not a
// credential — so that visitors who never signed in are not asked (a 401 on every page).
import { type Query, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError } from './api-client';

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

const SESSION_HINT_KEY = 'signedIn';
/** Where the spec's client kept the token; Ferry removes what older versions stored there. */
const LEGACY_TOKEN_KEY = 'authToken';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function hasSessionHint(): boolean {
  return storage()?.getItem(SESSION_HINT_KEY) === '1';
}

function setSessionHint(present: boolean): void {
  try {
    if (present) storage()?.setItem(SESSION_HINT_KEY, '1');
    else storage()?.removeItem(SESSION_HINT_KEY);
  } catch {
    // Private mode: the session still works, this tab asks the server each time.
  }
}

/** Drops a token an older version of the app left readable by scripts. */
export function forgetLegacyToken(): void {
  try {
    storage()?.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    // Nothing stored.
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** `GET /api/user`; a 401 means signed out and yields `null` (spec/exchange.md §6). */
export async function getUser(): Promise<User | null> {
  try {
    const body = await api.get<User | { user: User }>('/api/user');
    return 'user' in body ? body.user : body;
  } catch (error) {
    if (!isUnauthorized(error)) throw error;
    setSessionHint(false);
    return null;
  }
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/user'],
    queryFn: getUser,
    meta: { private: true },
  });

export function useUser() {
  const hinted = hasSessionHint();
  const query = useQuery({ ...userQueryOptions(), enabled: hinted });
  const user = query.data ?? null;
  return { user, isLoading: hinted && query.isPending };
}

/** After a sign-in step the server answered with a session (its cookie is now set). */
export function startSession(queryClient: QueryClient, user: User): void {
  setSessionHint(true);
  queryClient.setQueryData(userQueryOptions().queryKey, user);
}

/** A query that only a signed-in user may see: it goes when the session ends. */
export function isPrivateQuery(query: Pick<Query, 'meta'>): boolean {
  return query.meta?.private === true;
}

/**
 * Forgets the session on this browser: the hint, the user and every private query (orders,
 * API keys, affiliate figures, sessions), so the next person at this screen sees none of it.
 */
export function endSession(queryClient: QueryClient): void {
  setSessionHint(false);
  // The user query stays, set to "nobody": the header and the guards observe it and react.
  queryClient.setQueryData(userQueryOptions().queryKey, null);
  const [userKey] = userQueryOptions().queryKey;
  const privateData = (query: Query) => isPrivateQuery(query) && query.queryKey[0] !== userKey;
  void queryClient.cancelQueries({ predicate: privateData });
  queryClient.removeQueries({ predicate: privateData });
}

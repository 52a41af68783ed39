// `GET /api/admin/console/me`: who is at the console and whether it is open. Anyone else is
// told the console does not exist (404), or, where the server keeps an admin token, asked for
// it (401): a signed-in user who is no operator gets `null`, as for a 404.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, ApiError } from '@/lib/api-client';
import { getUser, isUnauthorized } from '@/lib/auth';

import { consoleOpenUntil } from '../lib/console-lock';
import type { ConsoleMe } from '../types';

export async function getConsoleMe(): Promise<ConsoleMe | null> {
  let me: ConsoleMe;
  try {
    me = await api.get<ConsoleMe>('/api/admin/console/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    // A 401 from a server that keeps an admin token: still signed in means "not an operator";
    // else the session is over, and the 401 signs this tab out too.
    if (isUnauthorized(error) && (await getUser())) return null;
    throw error;
  }
  consoleOpenUntil(me.token ? 'always' : me.unlocked_until);
  return me;
}

export const consoleMeQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/admin/console/me'],
    queryFn: getConsoleMe,
    meta: { private: true },
    staleTime: 0,
  });

export const useConsoleMe = () => useQuery(consoleMeQueryOptions());

import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

import { api } from './api-client';
import { endSession, isUnauthorized } from './auth';

declare module '@tanstack/react-query' {
  interface Register {
    /** `private`: the call needs the session; its data goes at sign-out, its 401 signs out. */
    queryMeta: { private?: boolean };
    mutationMeta: { private?: boolean };
  }
}

/** Queries GET their key's path by default (spec/exchange.md §7). */
const getByKeyPath: QueryFunction = ({ queryKey }) => {
  const [path] = queryKey;
  if (typeof path !== 'string') throw new Error('A query key must start with its API path');
  return api.get(path);
};

export function createQueryClient(): QueryClient {
  // A private call answered 401: the session ended on the server (expired, revoked, signed
  // out elsewhere). The app signs out too, and the guarded pages send the visitor to sign in.
  const signOutOn401 = (error: unknown, meta: { private?: boolean } | undefined) => {
    if (meta?.private && isUnauthorized(error)) endSession(client);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => signOutOn401(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => signOutOn401(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        queryFn: getByKeyPath,
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

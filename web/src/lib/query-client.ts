import { QueryClient, type QueryFunction } from '@tanstack/react-query';

import { api } from './api-client';

/** Queries GET their key's path by default (spec/exchange.md §7). */
const getByKeyPath: QueryFunction = ({ queryKey }) => {
  const [path] = queryKey;
  if (typeof path !== 'string') throw new Error('A query key must start with its API path');
  return api.get(path);
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

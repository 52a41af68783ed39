// `POST /api/admin/console/lock` → 204: the operator locks the console (the account stays
// signed in). What the console showed goes from this tab too.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleLocked } from '../lib/console-lock';
import { consoleMeQueryOptions } from './get-console-me';

export const lockConsole = () => api.post<void>('/api/admin/console/lock');

export function useLockConsole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: lockConsole,
    meta: { private: true },
    onSuccess: () => {
      consoleLocked();
      const [me] = consoleMeQueryOptions().queryKey;
      queryClient.removeQueries({
        predicate: (query) =>
          typeof query.queryKey[0] === 'string' &&
          query.queryKey[0].startsWith('/api/admin/') &&
          query.queryKey[0] !== me,
      });
      void queryClient.invalidateQueries({ queryKey: consoleMeQueryOptions().queryKey });
    },
  });
}

// `POST /api/admin/console/unlock` `{code}` → `{unlocked_until}`: a code from the operator's
// authenticator app opens the console for this session.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { consoleOpenUntil } from '../lib/console-lock';
import { consoleMeQueryOptions } from './get-console-me';

export const unlockConsole = (code: string) =>
  api.post<{ unlocked_until: number }>('/api/admin/console/unlock', { code });

export function useUnlockConsole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlockConsole,
    // Not `private`: a wrong code may be answered 401, which must not sign the tab out.
    onSuccess: ({ unlocked_until }) => {
      consoleOpenUntil(unlocked_until);
      void queryClient.invalidateQueries({ queryKey: consoleMeQueryOptions().queryKey });
    },
  });
}

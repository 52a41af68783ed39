import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { notify } from '@/components/ui/toaster';
import { api, AUTH_TOKEN_KEY } from '@/lib/api-client';

import { userQueryOptions } from './get-user';

export function useLogout() {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/logout'),
    onSettled: () => {
      // Whatever the server said, this browser forgets the session.
      localStorage.removeItem(AUTH_TOKEN_KEY);
      queryClient.setQueryData(userQueryOptions().queryKey, null);
    },
    onSuccess: () =>
      notify(t('auth.loggedOutTitle'), { description: t('auth.loggedOutDescription') }),
    onError: (error) =>
      notify(t('auth.logoutFailed'), {
        description: error.message || t('auth.logoutFailed'),
        variant: 'destructive',
      }),
  });
}

// `POST /api/logout`: the server ends the session and clears its cookie; the app forgets
// everything private and goes home. A session the server had already ended (401) is ended
// here too; any other failure leaves the visitor signed in, to try again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { endSession, isUnauthorized } from '@/lib/auth';

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const leave = async () => {
    // Home first, so no guarded page is left to redirect to sign-in.
    await navigate(paths.home);
    endSession(queryClient);
  };
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/logout'),
    onSuccess: async () => {
      await leave();
      notify(t('auth.loggedOutTitle'), { description: t('auth.loggedOutDescription') });
    },
    onError: async (error) => {
      if (isUnauthorized(error)) return leave();
      notify(t('auth.logoutFailed'), {
        description: error.message || t('auth.logoutFailed'),
        variant: 'destructive',
      });
    },
  });
}

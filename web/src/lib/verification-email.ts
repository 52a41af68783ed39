import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { notify } from '@/components/ui/toaster';
import { api, ApiError } from './api-client';

/** The Verify Email action (spec/accounts-and-pages.md §7, §8). */
export function useSendVerificationEmail() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: () => api.post<unknown>('/api/email/verification/send'),
    meta: { private: true },
    onSuccess: () =>
      notify(t('auth.emailSentTitle'), { description: t('auth.emailSentDescription') }),
    onError: (error) => {
      if (error instanceof ApiError) {
        const serverError = (error.body as { error?: string } | undefined)?.error;
        notify(t('auth.sendEmailFailedTitle'), {
          description: serverError || t('auth.sendEmailFailedDescription'),
          variant: 'destructive',
        });
      } else {
        notify(t('auth.errorTitle'), {
          description: t('auth.sendVerificationFailed'),
          variant: 'destructive',
        });
      }
    },
  });
}

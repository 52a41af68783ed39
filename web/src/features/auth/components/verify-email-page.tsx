// E-mail verification (spec/accounts-and-pages.md §2.12, §4.4, §5, §8): pending, then success
// (the verified address and Go to Dashboard) or error (Request New Verification, Back to Home).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

import { userQueryOptions } from '@/lib/auth';
import { verifyEmail } from '../api/verify-email';
import { AuthCard } from './auth-card';

export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const token = params.get('token');
  const started = useRef(false);

  const mutation = useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => {
      notify(t('account.verify.successTitle'), { description: t('account.verify.successText') });
      void queryClient.invalidateQueries({ queryKey: userQueryOptions().queryKey });
    },
  });

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutation.mutate(token);
  }, [token, mutation]);

  if (token && (mutation.isPending || mutation.isIdle)) {
    return <Spinner label={t('account.verify.pending')} />;
  }
  if (mutation.isSuccess) {
    return (
      <AuthCard title={t('account.verify.successTitle')}>
        <div className="space-y-4 text-center">
          <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-teal-700" />
          <p className="text-slate-700">{t('account.verify.successText')}</p>
          <p className="font-medium break-all text-slate-900">
            {t('account.verify.verifiedAddress', { email: mutation.data.email })}
          </p>
          <Link to={paths.dashboard} className={buttonVariants({ className: 'w-full' })}>
            {t('account.verify.goToDashboard')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  const failure = mutation.error;
  const message = !token
    ? t('account.verify.noToken')
    : failure instanceof ApiError
      ? failure.message || t('account.verify.failed')
      : t('account.verify.unexpected');
  return (
    <AuthCard title={t('account.verify.errorTitle')}>
      <div className="space-y-4 text-center">
        <TriangleAlert aria-hidden="true" className="mx-auto size-12 text-amber-600" />
        <p role="alert" className="text-slate-700">
          {message}
        </p>
        <Link to={paths.profile} className={buttonVariants({ className: 'w-full' })}>
          {t('account.verify.requestNew')}
        </Link>
        <Link
          to={paths.home}
          className={buttonVariants({ variant: 'outline', className: 'w-full' })}
        >
          {t('account.verify.backHome')}
        </Link>
      </div>
    </AuthCard>
  );
}

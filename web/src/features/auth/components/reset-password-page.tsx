// Reset password (spec/accounts-and-pages.md §2.11, §4.4, §5, §8): 'Verifying reset link',
// then the form, or 'Invalid or Expired Link' with Request New Link, then 'Password Reset
// Successful' with Sign In.
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';

import { checkResetToken, RESET_TOKEN_EXPIRED, resetPassword } from '../api/password';
import { newPasswordSchema, problemText, zodResolver } from '@/lib/account-forms';
import { AuthCard } from './auth-card';

type LinkState = 'invalid' | 'expired';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const [broken, setBroken] = useState<LinkState | null>(token ? null : 'invalid');

  useEffect(() => {
    if (!token)
      notify(t('account.reset.invalidToastTitle'), {
        description: t('account.reset.invalidText'),
        variant: 'destructive',
      });
  }, [token, t]);

  const check = useQuery({
    queryKey: ['/api/email/password/check', token],
    queryFn: () => checkResetToken(token),
    enabled: token !== '',
  });
  const linkState: LinkState | null =
    broken ??
    (check.error ? (check.error.message === RESET_TOKEN_EXPIRED ? 'expired' : 'invalid') : null);

  if (done) {
    return (
      <AuthCard title={t('account.reset.successTitle')}>
        <div className="space-y-4 text-center">
          <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-teal-700" />
          <p className="text-slate-700">{t('account.reset.successText')}</p>
          <p className="text-sm text-slate-600">{t('account.reset.successHint')}</p>
          <Link to={paths.signIn} className={buttonVariants({ className: 'w-full' })}>
            {t('account.reset.signIn')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (linkState) {
    return (
      <AuthCard title={t('account.reset.invalidTitle')}>
        <div className="space-y-4 text-center">
          <TriangleAlert aria-hidden="true" className="mx-auto size-12 text-amber-600" />
          <p className="text-slate-700">
            {linkState === 'expired'
              ? t('account.reset.expiredText')
              : t('account.reset.invalidText')}
          </p>
          <Link to={paths.forgotPassword} className={buttonVariants({ className: 'w-full' })}>
            {t('account.reset.requestNew')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (check.isPending) return <Spinner label={t('account.reset.verifying')} />;
  return <ResetForm token={token} onDone={() => setDone(true)} onBroken={setBroken} />;
}

function ResetForm({
  token,
  onDone,
  onBroken,
}: {
  token: string;
  onDone: () => void;
  onBroken: (state: LinkState) => void;
}) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      notify(t('account.reset.successText'));
      onDone();
    },
    onError: (failure) => {
      if (failure.message === RESET_TOKEN_EXPIRED) {
        onBroken('expired');
        return;
      }
      notify(t('account.reset.failed'), {
        description: failure.message || t('account.reset.failed'),
        variant: 'destructive',
      });
    },
  });

  const submit = handleSubmit(({ password, confirmPassword }) => {
    if (!token) {
      notify(t('account.reset.invalidToken'), { variant: 'destructive' });
      return;
    }
    mutation.mutate({ token, password, confirm_password: confirmPassword });
  });

  return (
    <AuthCard title={t('account.reset.title')}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <Field
          label={t('account.fields.newPassword')}
          error={problemText(t, errors.password)}
          hint={t('account.signUp.passwordHint')}
        >
          <PasswordInput
            autoComplete="new-password"
            maxLength={128}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
            {...register('password')}
          />
        </Field>
        <Field
          label={t('account.fields.confirmPassword')}
          error={problemText(t, errors.confirmPassword)}
        >
          <PasswordInput
            autoComplete="new-password"
            maxLength={128}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
            {...register('confirmPassword')}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? t('account.reset.submitting') : t('account.reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

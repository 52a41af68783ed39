// Forgot password (spec/accounts-and-pages.md §2.10, §4.4, §5, §8): the e-mail form, then
// 'Check Your Email' with Try Another Email and Back to Sign In. The answer is the same whether
// or not the address has an account.
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button, buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';

import { requestPasswordReset } from '../api/password';
import { forgotPasswordSchema, problemText, zodResolver } from '@/lib/account-forms';
import { AuthCard } from './auth-card';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (_answer, address) => {
      setSentTo(address);
      notify(t('account.forgot.toastTitle'), { description: t('account.forgot.toastDescription') });
    },
    onError: (failure) =>
      notify(t('account.forgot.errorTitle'), {
        description: failure.message || t('account.forgot.failed'),
        variant: 'destructive',
      }),
  });

  const submit = handleSubmit(({ email }) => mutation.mutate(email.trim()));

  if (sentTo) {
    return (
      <AuthCard title={t('account.forgot.sentTitle')}>
        <div className="space-y-4 text-center">
          <MailCheck aria-hidden="true" className="mx-auto size-12 text-teal-700" />
          <p className="text-slate-700">{t('account.forgot.sentText', { email: sentTo })}</p>
          <Button
            variant="outline"
            className="w-full"
            onClick={() => {
              setSentTo(null);
              reset();
            }}
          >
            {t('account.forgot.tryAnother')}
          </Button>
          <Link to={paths.signIn} className={buttonVariants({ className: 'w-full' })}>
            {t('account.forgot.backToSignIn')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('account.forgot.title')}
      subtitle={t('account.forgot.subtitle')}
      footer={
        <Link to={paths.signIn} className="font-medium text-teal-800 underline">
          {t('account.forgot.backToSignIn')}
        </Link>
      }
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <Field label={t('account.fields.email')} error={problemText(t, errors.email)}>
          <input
            type="email"
            className={inputClass}
            autoComplete="email"
            maxLength={254}
            {...register('email')}
          />
        </Field>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? t('account.forgot.submitting') : t('account.forgot.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}

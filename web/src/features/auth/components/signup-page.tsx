// Sign-up (spec/accounts-and-pages.md §2.9, §4.1, §4.6, §5, §8): full name, e-mail, password
// and confirmation, the terms, social buttons, and a notice when a referral code is present.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { TaggedText } from '@/components/ui/tagged-text';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { startSession } from '@/lib/auth';
import { forgetReferralCode, storedReferralCode } from '@/lib/referral';

import { register as createAccount } from '../api/register';
import { problemText, signUpSchema, zodResolver } from '@/lib/account-forms';
import { AuthCard } from './auth-card';
import { SocialButtons } from './social-buttons';

/** The URL's `ref`, else the code saved when the visitor arrived (spec §4.6). */
function useReferralCode(): string | null {
  const [params] = useSearchParams();
  return params.get('ref') || storedReferralCode();
}

export default function SignUpPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const referralCode = useReferralCode();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(signUpSchema),
    defaultValues: { fullName: '', email: '', password: '', confirmPassword: '', terms: false },
  });

  const mutation = useMutation({
    mutationFn: createAccount,
    onSuccess: (answer) => {
      startSession(queryClient, answer.user);
      forgetReferralCode();
      notify(t('account.signUp.successTitle'), {
        description: t('account.signUp.successDescription'),
      });
    },
    onError: (error) =>
      notify(t('account.signUp.failed'), {
        description: error.message || t('account.signUp.failed'),
        variant: 'destructive',
      }),
  });

  // Invalid fields: their messages show, and the first one takes the focus.
  const submit = handleSubmit((values) =>
    mutation.mutate({
      full_name: values.fullName.trim(),
      email: values.email.trim(),
      password: values.password,
      confirm_password: values.confirmPassword,
      ...(referralCode ? { referral_code: referralCode } : {}),
      language: i18n.resolvedLanguage ?? i18n.language,
    }),
  );
  const error = (name: keyof typeof errors) => problemText(t, errors[name]);
  const termsErrorId = useId();

  return (
    <AuthCard
      title={t('account.signUp.title')}
      subtitle={t('account.signUp.subtitle')}
      footer={
        <>
          {t('account.signUp.haveAccount')}{' '}
          <Link to={paths.signIn} className="font-medium text-teal-800 underline">
            {t('account.signUp.signInLink')}
          </Link>
        </>
      }
    >
      {referralCode ? (
        <div className="mb-4">
          <Alert tone="info">{t('account.signUp.referral', { code: referralCode })}</Alert>
        </div>
      ) : null}
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <Field label={t('account.fields.fullName')} error={error('fullName')}>
          <input
            className={inputClass}
            autoComplete="name"
            maxLength={100}
            {...register('fullName')}
          />
        </Field>
        <Field label={t('account.fields.email')} error={error('email')}>
          <input
            type="email"
            className={inputClass}
            autoComplete="email"
            maxLength={254}
            {...register('email')}
          />
        </Field>
        <Field
          label={t('account.fields.password')}
          error={error('password')}
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
        <Field label={t('account.fields.confirmPassword')} error={error('confirmPassword')}>
          <PasswordInput
            autoComplete="new-password"
            maxLength={128}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
            {...register('confirmPassword')}
          />
        </Field>
        <div>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-teal-700"
              aria-invalid={errors.terms ? true : undefined}
              aria-describedby={errors.terms ? termsErrorId : undefined}
              {...register('terms')}
            />
            <span>
              <TaggedText
                text={t('account.signUp.terms')}
                tags={{
                  terms: (text) => (
                    <Link to={paths.terms} className="text-teal-800 underline">
                      {text}
                    </Link>
                  ),
                  privacy: (text) => (
                    <Link to={paths.privacy} className="text-teal-800 underline">
                      {text}
                    </Link>
                  ),
                }}
              />
            </span>
          </label>
          {errors.terms ? (
            <p id={termsErrorId} className="mt-1 text-sm text-red-700">
              {error('terms')}
            </p>
          ) : null}
        </div>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? t('account.signUp.submitting') : t('account.signUp.submit')}
        </Button>
      </form>
      <div className="mt-6">
        <SocialButtons />
      </div>
    </AuthCard>
  );
}

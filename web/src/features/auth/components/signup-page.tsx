// Sign-up (spec/accounts-and-pages.md §2.9, §4.1, §4.6, §5, §8): full name, e-mail, password
// and confirmation, the terms, social buttons, and a notice when a referral code is present.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { TaggedText } from '@/components/ui/tagged-text';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { REFERRAL_CODE_KEY } from '@/features/affiliate/api/record-click';

import { register } from '../api/register';
import { storeSession } from '../api/session';
import { hasErrors, validateSignUp, type Errors } from '../lib/validation';
import { AuthCard, FormMessage } from './auth-card';
import { SocialButtons } from './social-buttons';

type FieldName = 'fullName' | 'email' | 'password' | 'confirmPassword' | 'terms';

/** The URL's `ref`, else the code saved when the visitor arrived (spec §4.6). */
function useReferralCode(): string | null {
  const [params] = useSearchParams();
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(REFERRAL_CODE_KEY);
  } catch {
    stored = null;
  }
  return params.get('ref') || stored;
}

export default function SignUpPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const referralCode = useReferralCode();
  const [values, setValues] = useState({
    fullName: '',
    email: '',
    password: '',
    confirmPassword: '',
    terms: false,
  });
  const [errors, setErrors] = useState<Errors<FieldName>>({});
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (answer) => {
      storeSession(queryClient, answer);
      try {
        localStorage.removeItem(REFERRAL_CODE_KEY);
      } catch {
        // Storage unavailable: nothing was saved.
      }
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignUp(values);
    setErrors(found);
    if (hasErrors(found)) return;
    mutation.mutate({
      full_name: values.fullName.trim(),
      email: values.email.trim(),
      password: values.password,
      confirm_password: values.confirmPassword,
      ...(referralCode ? { referral_code: referralCode } : {}),
      language: i18n.resolvedLanguage ?? i18n.language,
    });
  };
  const error = (name: FieldName) => (errors[name] ? t(errors[name]) : null);

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
          <FormMessage tone="info">
            {t('account.signUp.referral', { code: referralCode })}
          </FormMessage>
        </div>
      ) : null}
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field label={t('account.fields.fullName')} error={error('fullName')}>
          <input
            className={inputClass}
            autoComplete="name"
            maxLength={100}
            value={values.fullName}
            onChange={(e) => set('fullName', e.target.value)}
          />
        </Field>
        <Field label={t('account.fields.email')} error={error('email')}>
          <input
            type="email"
            className={inputClass}
            autoComplete="email"
            maxLength={254}
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
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
            value={values.password}
            onChange={(e) => set('password', e.target.value)}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
          />
        </Field>
        <Field label={t('account.fields.confirmPassword')} error={error('confirmPassword')}>
          <PasswordInput
            autoComplete="new-password"
            maxLength={128}
            value={values.confirmPassword}
            onChange={(e) => set('confirmPassword', e.target.value)}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
          />
        </Field>
        <div>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-teal-700"
              checked={values.terms}
              aria-invalid={errors.terms ? true : undefined}
              onChange={(e) => set('terms', e.target.checked)}
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
          {errors.terms ? <p className="mt-1 text-sm text-red-700">{t(errors.terms)}</p> : null}
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

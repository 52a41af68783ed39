// Sign-in (spec/accounts-and-pages.md §2.8, §4.1, §5, §8): e-mail and password with show/hide,
// Remember me, Forgot password, Google and GitHub; then, for accounts with two-factor
// authentication, a 6-digit code step (or a recovery code) with Back to Login.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';

import { login, loginWithCode, needsSecondFactor, redeemSocialSignIn } from '../api/login';
import { startSession } from '@/lib/auth';
import { problemText, signInSchema, validateCode, zodResolver } from '@/lib/account-forms';
import { AuthCard } from './auth-card';
import { SocialButtons } from './social-buttons';

interface Challenge {
  username: string;
  challenge?: string;
  remember: boolean;
}

/** Where to go once signed in: the protected page that sent the visitor here, else home. */
function useReturnPath(): string {
  const location = useLocation();
  const from = (location.state as { from?: { pathname?: string } } | null)?.from?.pathname;
  return from && from.startsWith('/') ? from : paths.home;
}

export default function SignInPage() {
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const handoff = useSocialHandoff(setChallenge);
  if (handoff) return <Spinner label={handoff} />;
  return challenge ? (
    <CodeStep challenge={challenge} onBack={() => setChallenge(null)} />
  ) : (
    <PasswordStep onSecondFactor={setChallenge} />
  );
}

/**
 * After Google or GitHub, the server sends the browser back with `#social=CODE` (a one-time
 * code, kept out of server logs by the fragment) or `?social_error=…`.
 */
function useSocialHandoff(onSecondFactor: (challenge: Challenge) => void): string | null {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const code = new URLSearchParams(window.location.hash.slice(1)).get('social');
  const started = useRef(false);
  const [busy, setBusy] = useState(code !== null);
  const askForCode = useEffectEvent(onSecondFactor);

  useEffect(() => {
    const provider = params.get('social_error');
    if (!provider) return;
    const name = provider === 'github' ? t('account.social.github') : t('account.social.google');
    const key =
      params.get('reason') === 'not_configured'
        ? 'account.social.notConfigured'
        : 'account.social.failed';
    notify(t('account.signIn.failed'), {
      description: t(key, { provider: name }),
      variant: 'destructive',
    });
    setParams({}, { replace: true });
  }, [params, setParams, t]);

  useEffect(() => {
    if (!code || started.current) return;
    started.current = true;
    window.history.replaceState(null, '', window.location.pathname);
    redeemSocialSignIn(code)
      .then((answer) => {
        if (needsSecondFactor(answer)) {
          askForCode({
            username: answer.email ?? '',
            challenge: answer.challenge,
            remember: false,
          });
          return;
        }
        startSession(queryClient, answer.user);
        notify(t('account.signIn.successTitle'), {
          description: t('account.signIn.successDescription'),
        });
      })
      .catch((error: unknown) => {
        notify(t('account.signIn.failed'), {
          description: error instanceof Error ? error.message : t('account.signIn.failed'),
          variant: 'destructive',
        });
      })
      .finally(() => setBusy(false));
  }, [code, queryClient, t]);

  return busy ? t('account.social.exchanging') : null;
}

function PasswordStep({ onSecondFactor }: { onSecondFactor: (c: Challenge) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '', remember: false },
  });

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (answer, input) => {
      if (needsSecondFactor(answer)) {
        // Nothing is stored until the code step succeeds (spec §4.1).
        onSecondFactor({
          username: input.username,
          challenge: answer.challenge,
          remember: input.remember,
        });
        return;
      }
      startSession(queryClient, answer.user);
      notify(t('account.signIn.successTitle'), {
        description: t('account.signIn.successDescription'),
      });
    },
    onError: (error) =>
      notify(t('account.signIn.failed'), {
        description: error.message || t('account.signIn.failed'),
        variant: 'destructive',
      }),
  });

  // Invalid fields: their messages show, and the first one takes the focus.
  const submit = handleSubmit(({ email, password, remember }) =>
    mutation.mutate({ username: email.trim(), password, remember }),
  );

  return (
    <AuthCard
      title={t('account.signIn.title')}
      subtitle={t('account.signIn.subtitle')}
      footer={
        <>
          {t('account.signIn.noAccount')}{' '}
          <Link to={paths.signUp} className="font-medium text-teal-800 underline">
            {t('account.signIn.signUpLink')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <Field label={t('account.fields.email')} error={problemText(t, errors.email)}>
          <input
            type="email"
            autoComplete="username"
            className={inputClass}
            maxLength={254}
            {...register('email')}
          />
        </Field>
        <Field label={t('account.fields.password')} error={problemText(t, errors.password)}>
          <PasswordInput
            autoComplete="current-password"
            maxLength={128}
            showLabel={t('account.fields.showPassword')}
            hideLabel={t('account.fields.hidePassword')}
            {...register('password')}
          />
        </Field>
        <div className="flex items-center justify-between gap-3 text-sm">
          <label className="flex items-center gap-2" title={t('account.signIn.rememberHint')}>
            <input type="checkbox" className="size-4 accent-teal-700" {...register('remember')} />
            {t('account.signIn.remember')}
          </label>
          <Link to={paths.forgotPassword} className="font-medium text-teal-800 underline">
            {t('account.signIn.forgot')}
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? t('account.signIn.submitting') : t('account.signIn.submit')}
        </Button>
      </form>
      <div className="mt-6">
        <SocialButtons />
      </div>
    </AuthCard>
  );
}

function CodeStep({ challenge, onBack }: { challenge: Challenge; onBack: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const returnPath = useReturnPath();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  const mutation = useMutation({
    mutationFn: loginWithCode,
    onSuccess: (answer) => {
      if (!answer.token) {
        notify(t('account.signIn.verificationFailedTitle'), {
          description: answer.message || t('account.signIn.noToken'),
          variant: 'destructive',
        });
        return;
      }
      // Spec §4.1 stores the token here; Ferry's session is the cookie the server just set.
      if (answer.user) startSession(queryClient, answer.user);
      window.location.assign(returnPath);
    },
    onError: (failure) => {
      const message =
        failure instanceof ApiError ? failure.message : t('account.signIn.verificationFailed');
      notify(t('account.signIn.verificationFailedTitle'), {
        description: message,
        variant: 'destructive',
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = recovery
      ? code.trim()
        ? null
        : 'account.validation.codeLength'
      : validateCode(code);
    setError(found ? t(found) : null);
    if (found) {
      codeInput.current?.focus();
      return;
    }
    mutation.mutate({
      username: challenge.username,
      code: code.trim(),
      challenge: challenge.challenge,
    });
  };

  return (
    <AuthCard
      title={t('account.signIn.twoFactorTitle')}
      subtitle={recovery ? t('account.signIn.recoveryHint') : t('account.signIn.twoFactorHint')}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        {recovery ? (
          <Field label={t('account.signIn.recoveryLabel')} error={error}>
            <input
              className={inputClass}
              autoComplete="one-time-code"
              maxLength={32}
              ref={codeInput}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
        ) : (
          <Field label={t('account.fields.code')} error={error}>
            <input
              className={`${inputClass} text-center font-mono text-2xl tracking-[0.5em]`}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              ref={codeInput}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </Field>
        )}
        <Button type="submit" className="w-full" disabled={mutation.isPending}>
          {mutation.isPending ? t('account.signIn.verifying') : t('account.signIn.verify')}
        </Button>
        <button
          type="button"
          className="w-full text-sm font-medium text-teal-800 underline"
          onClick={() => {
            setRecovery((r) => !r);
            setCode('');
            setError(null);
          }}
        >
          {recovery ? t('account.signIn.useApp') : t('account.signIn.useRecovery')}
        </button>
        <Button variant="outline" className="w-full" onClick={onBack}>
          {t('account.signIn.backToLogin')}
        </Button>
      </form>
    </AuthCard>
  );
}

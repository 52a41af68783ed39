// Profile: the account's e-mail and its verification, password, two-factor authentication
// with QR code and recovery codes, signed-in devices, order-status e-mails, deletion.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import { Field, inputClass } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { useUser, type User } from '@/features/auth/api/get-user';
import { useSendVerificationEmail } from '@/features/auth/api/send-verification-email';
import { forgetSession } from '@/features/auth/api/session';
import {
  hasErrors,
  validateCode,
  validateNewPassword,
  type Errors,
} from '@/features/auth/lib/validation';
import { formatTime } from '@/features/exchange/components/order-parts';

import {
  deleteAccount,
  useBeginTwoFactor,
  useChangePassword,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRevokeSession,
  useSessions,
  useUpdateProfile,
} from '../api/account';

/** Shows a failed call as a destructive toast with the server's message. */
function useFailureToast() {
  const { t } = useTranslation();
  return (error: Error) =>
    notify(t('account.profile.failed'), { description: error.message, variant: 'destructive' });
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useUser();
  if (!user) return <Spinner label={t('common.loading')} />;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <PageMeta title={t('account.profile.title')} noindex />
      <h1 className="text-3xl font-bold text-slate-900">{t('account.profile.title')}</h1>
      <AccountSection user={user} />
      <PasswordSection user={user} />
      <TwoFactorSection user={user} />
      <SessionsSection />
      <NotificationsSection user={user} />
      <DeleteSection user={user} />
    </div>
  );
}

function AccountSection({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(user.full_name ?? '');
  const update = useUpdateProfile();
  const sendVerification = useSendVerificationEmail();
  const failed = useFailureToast();
  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { full_name: name },
      {
        onSuccess: () =>
          notify(t('account.profile.saved'), { description: t('account.profile.savedText') }),
        onError: failed,
      },
    );
  };
  return (
    <Section title={t('account.profile.accountSection')}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium break-all text-slate-900">{user.email ?? user.username}</span>
        <span
          className={
            user.email_verified
              ? 'rounded-full bg-teal-100 px-2.5 py-0.5 text-xs font-medium text-teal-900'
              : 'rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-900'
          }
        >
          {user.email_verified
            ? t('account.profile.emailVerified')
            : t('account.profile.emailUnverified')}
        </span>
        {!user.email_verified ? (
          <Button
            variant="outline"
            size="sm"
            disabled={sendVerification.isPending}
            onClick={() => sendVerification.mutate()}
          >
            {t('account.profile.resend')}
          </Button>
        ) : null}
      </div>
      {user.created_at ? (
        <p className="text-sm text-slate-600">
          {t('account.profile.memberSince', { date: formatTime(user.created_at, i18n.language) })}
        </p>
      ) : null}
      {user.referral_code ? (
        <p className="text-sm text-slate-700">
          {t('account.profile.referralCode')}:{' '}
          <span className="font-mono font-medium">{user.referral_code}</span>
        </p>
      ) : null}
      <form onSubmit={save} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={t('account.fields.fullName')} className="flex-1">
          <input
            className={inputClass}
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Button type="submit" disabled={update.isPending || !name.trim()}>
          {t('account.profile.save')}
        </Button>
      </form>
    </Section>
  );
}

function PasswordSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors<'password' | 'confirmPassword'>>({});
  const change = useChangePassword();
  const failed = useFailureToast();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword(password, confirmation);
    setErrors(found);
    if (hasErrors(found)) return;
    change.mutate(
      { current_password: current, password, confirm_password: confirmation },
      {
        onSuccess: () => {
          setCurrent('');
          setPassword('');
          setConfirmation('');
          notify(t('account.profile.passwordChanged'), {
            description: t('account.profile.passwordChangedText'),
          });
        },
        onError: failed,
      },
    );
  };
  const passwordInput = (value: string, onChange: (v: string) => void, autoComplete: string) => (
    <PasswordInput
      autoComplete={autoComplete}
      maxLength={128}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      showLabel={t('account.fields.showPassword')}
      hideLabel={t('account.fields.hidePassword')}
    />
  );
  return (
    <Section title={t('account.profile.passwordSection')}>
      {user.has_password === false ? (
        <p className="text-sm text-slate-700">{t('account.profile.noPassword')}</p>
      ) : null}
      <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        {user.has_password !== false ? (
          <Field label={t('account.fields.currentPassword')} className="sm:col-span-2">
            {passwordInput(current, setCurrent, 'current-password')}
          </Field>
        ) : null}
        <Field
          label={t('account.fields.newPassword')}
          error={errors.password ? t(errors.password) : null}
          hint={t('account.signUp.passwordHint')}
        >
          {passwordInput(password, setPassword, 'new-password')}
        </Field>
        <Field
          label={t('account.fields.confirmPassword')}
          error={errors.confirmPassword ? t(errors.confirmPassword) : null}
        >
          {passwordInput(confirmation, setConfirmation, 'new-password')}
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={change.isPending}>
            {t('account.profile.changePassword')}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function TwoFactorSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const begin = useBeginTwoFactor();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const sessions = useSessions();
  const failed = useFailureToast();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes) {
    return (
      <Section title={t('account.profile.twoFactorSection')}>
        <h3 className="font-semibold text-teal-900">{t('account.profile.enabledTitle')}</h3>
        <p className="text-sm text-slate-700">{t('account.profile.recoveryText')}</p>
        <ul
          aria-label={t('account.profile.recoveryTitle')}
          className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm"
        >
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            onClick={() =>
              void navigator.clipboard
                .writeText(recoveryCodes.join('\n'))
                .then(() => notify(t('account.profile.codesCopied')))
            }
          >
            {t('account.profile.copyCodes')}
          </Button>
          <Button onClick={() => setRecoveryCodes(null)}>{t('account.profile.done')}</Button>
        </div>
      </Section>
    );
  }

  if (user.two_factor_enabled) {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      disable.mutate(
        { password, code: code.trim() },
        {
          onSuccess: () => {
            setDisabling(false);
            setCode('');
            setPassword('');
            notify(t('account.profile.disabledTitle'));
          },
          onError: failed,
        },
      );
    };
    return (
      <Section title={t('account.profile.twoFactorSection')}>
        <p className="text-sm text-slate-700">{t('account.profile.twoFactorOn')}</p>
        {sessions.data ? (
          <p className="text-sm text-slate-600">
            {t('account.profile.recoveryLeft', { count: sessions.data.recovery_codes_left })}
          </p>
        ) : null}
        {disabling ? (
          <form onSubmit={submit} className="space-y-4">
            <p className="text-sm text-slate-700">{t('account.profile.disableText')}</p>
            {user.has_password !== false ? (
              <Field label={t('account.fields.password')}>
                <PasswordInput
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  showLabel={t('account.fields.showPassword')}
                  hideLabel={t('account.fields.hidePassword')}
                />
              </Field>
            ) : null}
            <Field label={t('account.fields.code')}>
              <input
                className={inputClass}
                autoComplete="one-time-code"
                maxLength={32}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </Field>
            <div className="flex gap-3">
              <Button type="submit" disabled={disable.isPending || !code.trim()}>
                {t('account.profile.disable')}
              </Button>
              <Button variant="outline" onClick={() => setDisabling(false)}>
                {t('account.profile.cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <Button variant="outline" onClick={() => setDisabling(true)}>
            {t('account.profile.disable')}
          </Button>
        )}
      </Section>
    );
  }

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateCode(code);
    setError(invalid ? t(invalid) : null);
    if (invalid) return;
    enable.mutate(code, {
      onSuccess: (answer) => {
        setCode('');
        begin.reset();
        setRecoveryCodes(answer.recovery_codes);
      },
      onError: failed,
    });
  };
  return (
    <Section title={t('account.profile.twoFactorSection')}>
      <p className="text-sm text-slate-700">{t('account.profile.twoFactorOff')}</p>
      {begin.data ? (
        <form noValidate onSubmit={confirm} className="space-y-4">
          <p className="text-sm text-slate-700">{t('account.profile.scan')}</p>
          <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
            <div className="rounded-lg border border-slate-200 bg-white p-3">
              <QRCodeSVG
                value={begin.data.otpauth_uri}
                size={168}
                level="M"
                aria-label={t('account.profile.secretLabel')}
              />
            </div>
            <div>
              <p className="text-xs font-medium text-slate-600">
                {t('account.profile.secretLabel')}
              </p>
              <p data-testid="totp-secret" className="font-mono text-sm break-all text-slate-900">
                {begin.data.secret}
              </p>
            </div>
          </div>
          <Field label={t('account.profile.confirmCode')} error={error}>
            <input
              className={`${inputClass} max-w-48 font-mono tracking-widest`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </Field>
          <div className="flex gap-3">
            <Button type="submit" disabled={enable.isPending}>
              {t('account.profile.confirm')}
            </Button>
            <Button variant="outline" onClick={() => begin.reset()}>
              {t('account.profile.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button
          onClick={() => begin.mutate(undefined, { onError: failed })}
          disabled={begin.isPending}
        >
          {t('account.profile.enable')}
        </Button>
      )}
    </Section>
  );
}

/** "Chrome on Linux" from a user agent, or the raw string when it is unusual. */
function describeDevice(agent: string, unknown: string): string {
  if (!agent) return unknown;
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Chrome\//.test(agent)
      ? 'Chrome'
      : /Firefox\//.test(agent)
        ? 'Firefox'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Windows/.test(agent)
    ? 'Windows'
    : /Android/.test(agent)
      ? 'Android'
      : /iPhone|iPad/.test(agent)
        ? 'iOS'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser} · ${system}` : agent.slice(0, 60);
}

function SessionsSection() {
  const { t, i18n } = useTranslation();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const failed = useFailureToast();
  return (
    <Section title={t('account.profile.sessionsSection')}>
      <p className="text-sm text-slate-700">{t('account.profile.sessionsText')}</p>
      {sessions.isPending ? <Spinner label={t('common.loading')} className="py-4" /> : null}
      <ul className="divide-y divide-slate-100">
        {(sessions.data?.sessions ?? []).map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium text-slate-900">
                {describeDevice(session.user_agent, t('account.profile.unknownDevice'))}
                {session.current ? (
                  <span className="ml-2 rounded-full bg-teal-100 px-2 py-0.5 text-xs text-teal-900">
                    {t('account.profile.thisDevice')}
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-slate-600">
                {session.ip} ·{' '}
                {t('account.profile.lastActive', {
                  time: formatTime(session.last_seen_at, i18n.language),
                })}
              </p>
            </div>
            {!session.current ? (
              <Button
                variant="outline"
                size="sm"
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(session.id, {
                    onSuccess: () => notify(t('account.profile.sessionEnded')),
                    onError: failed,
                  })
                }
              >
                {t('account.profile.signOutDevice')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}

function NotificationsSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const failed = useFailureToast();
  return (
    <Section title={t('account.profile.notificationsSection')}>
      <label className="flex items-center gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4 accent-teal-700"
          checked={user.order_emails ?? true}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ order_emails: e.target.checked }, { onError: failed })}
        />
        {t('account.profile.orderEmails')}
      </label>
    </Section>
  );
}

function DeleteSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const failed = useFailureToast();
  const remove = useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      forgetSession(queryClient);
      notify(t('account.profile.deletedTitle'), { description: t('account.profile.deletedText') });
      void navigate(paths.home);
    },
    onError: failed,
  });
  return (
    <Section title={t('account.profile.dangerSection')}>
      <p className="text-sm text-slate-700">{t('account.profile.deleteText')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate(password);
        }}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        {user.has_password !== false ? (
          <Field label={t('account.profile.deleteConfirm')} className="flex-1">
            <PasswordInput
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              showLabel={t('account.fields.showPassword')}
              hideLabel={t('account.fields.hidePassword')}
            />
          </Field>
        ) : null}
        <Button
          type="submit"
          className="bg-red-700 hover:bg-red-800"
          disabled={remove.isPending || (user.has_password !== false && !password)}
        >
          {t('account.profile.deleteAction')}
        </Button>
      </form>
    </Section>
  );
}

// Profile: the account's e-mail and its verification, password, two-factor authentication
// with QR code and recovery codes, signed-in devices, order-status e-mails, deletion.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Section } from '@/components/ui/section';
import { Spinner } from '@/components/ui/spinner';
import { dismissToast, notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { useUser, type User } from '@/lib/auth';
import { useSendVerificationEmail } from '@/lib/verification-email';
import { endSession } from '@/lib/auth';
import { newPasswordSchema, problemText, validateCode, zodResolver } from '@/lib/account-forms';
import { formatTime } from '@/lib/format';

import {
  deleteAccount,
  type SessionInfo,
  useBeginTwoFactor,
  useChangePassword,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRevokeSession,
  useSessions,
  useUpdateProfile,
} from '../api/account';

/**
 * Shows a failed call as a destructive toast with the server's message. The toast of a failure
 * goes when the section's next call succeeds: "Something went wrong" never stands beside the
 * success (2FA turned on after a first, mistyped code).
 */
function useFailureToast() {
  const { t } = useTranslation();
  const last = useRef<number | null>(null);
  const failed = (error: Error) => {
    last.current = notify(t('account.profile.failed'), {
      description: error.message,
      variant: 'destructive',
    });
  };
  failed.clear = () => {
    if (last.current !== null) dismissToast(last.current);
    last.current = null;
  };
  return failed;
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
        <Badge tone={user.email_verified ? 'info' : 'warning'}>
          {user.email_verified
            ? t('account.profile.emailVerified')
            : t('account.profile.emailUnverified')}
        </Badge>
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
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const change = useChangePassword();
  const failed = useFailureToast();
  const submit = handleSubmit(({ password, confirmPassword }) =>
    change.mutate(
      { current_password: current, password, confirm_password: confirmPassword },
      {
        onSuccess: () => {
          setCurrent('');
          reset();
          notify(t('account.profile.passwordChanged'), {
            description: t('account.profile.passwordChangedText'),
          });
        },
        onError: failed,
      },
    ),
  );
  const passwordProps = {
    maxLength: 128,
    showLabel: t('account.fields.showPassword'),
    hideLabel: t('account.fields.hidePassword'),
  };
  return (
    <Section title={t('account.profile.passwordSection')}>
      {user.has_password === false ? (
        <p className="text-sm text-slate-700">{t('account.profile.noPassword')}</p>
      ) : null}
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="grid gap-4 sm:grid-cols-2"
      >
        {user.has_password !== false ? (
          <Field label={t('account.fields.currentPassword')} className="sm:col-span-2">
            <PasswordInput
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              {...passwordProps}
            />
          </Field>
        ) : null}
        <Field
          label={t('account.fields.newPassword')}
          error={problemText(t, errors.password)}
          hint={t('account.signUp.passwordHint')}
        >
          <PasswordInput autoComplete="new-password" {...passwordProps} {...register('password')} />
        </Field>
        <Field
          label={t('account.fields.confirmPassword')}
          error={problemText(t, errors.confirmPassword)}
        >
          <PasswordInput
            autoComplete="new-password"
            {...passwordProps}
            {...register('confirmPassword')}
          />
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
          <CopyButton
            value={recoveryCodes.join('\n')}
            what={t('account.profile.recoveryTitle')}
            text={t('account.profile.copyCodes')}
            successMessage={t('account.profile.codesCopied')}
          />
          <Button onClick={() => setRecoveryCodes(null)}>{t('account.profile.done')}</Button>
        </div>
      </Section>
    );
  }

  if (user.two_factor_enabled) {
    const close = () => {
      setDisabling(false);
      setCode('');
      setPassword('');
    };
    const turnOff = () =>
      disable.mutate(
        { password, code: code.trim() },
        {
          onSuccess: () => {
            failed.clear();
            close();
            notify(t('account.profile.disabledTitle'));
          },
          onError: failed,
        },
      );
    return (
      <Section title={t('account.profile.twoFactorSection')}>
        <p className="text-sm text-slate-700">{t('account.profile.twoFactorOn')}</p>
        {sessions.data ? (
          <p className="text-sm text-slate-600">
            {t('account.profile.recoveryLeft', { count: sessions.data.recovery_codes_left })}
          </p>
        ) : null}
        <Button variant="outline" onClick={() => setDisabling(true)}>
          {t('account.profile.disable')}
        </Button>
        <ConfirmDialog
          open={disabling}
          title={t('account.profile.disableConfirmTitle')}
          description={t('account.profile.disableText')}
          confirmLabel={t('account.profile.disable')}
          cancelLabel={t('account.profile.cancel')}
          onConfirm={turnOff}
          onCancel={close}
          busy={disable.isPending}
          confirmDisabled={!code.trim()}
        >
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
        </ConfirmDialog>
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
        failed.clear();
        setError(null);
        setCode('');
        begin.reset();
        setRecoveryCodes(answer.recovery_codes);
      },
      // A wrong code is said once, at the field that holds it.
      onError: (e) => setError(e.message || t('account.profile.failed')),
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
          onClick={() => begin.mutate(undefined, { onSuccess: failed.clear, onError: failed })}
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
  const [leaving, setLeaving] = useState<SessionInfo | null>(null);
  const device = (session: SessionInfo) =>
    describeDevice(session.user_agent, t('account.profile.unknownDevice'));
  const signOut = (session: SessionInfo) =>
    revoke.mutate(session.id, {
      onSuccess: () => {
        setLeaving(null);
        notify(t('account.profile.sessionEnded'));
      },
      onError: failed,
    });
  return (
    <Section title={t('account.profile.sessionsSection')}>
      <p className="text-sm text-slate-700">{t('account.profile.sessionsText')}</p>
      {sessions.isPending ? <Spinner label={t('common.loading')} className="py-4" /> : null}
      <ul className="divide-y divide-slate-100">
        {(sessions.data?.sessions ?? []).map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium text-slate-900">
                {device(session)}
                {session.current ? (
                  <Badge tone="info" className="ml-2">
                    {t('account.profile.thisDevice')}
                  </Badge>
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
              <Button variant="outline" size="sm" onClick={() => setLeaving(session)}>
                {t('account.profile.signOutDevice')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={leaving !== null}
        title={t('account.profile.revokeConfirmTitle')}
        description={t('account.profile.revokeConfirmText', {
          device: leaving ? device(leaving) : '',
        })}
        confirmLabel={t('account.profile.signOutDevice')}
        cancelLabel={t('account.profile.cancel')}
        onConfirm={() => leaving && signOut(leaving)}
        onCancel={() => setLeaving(null)}
        busy={revoke.isPending}
      />
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
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const failed = useFailureToast();
  const needsPassword = user.has_password !== false;
  const remove = useMutation({
    mutationFn: deleteAccount,
    meta: { private: true },
    onSuccess: async () => {
      setConfirming(false);
      await navigate(paths.home);
      endSession(queryClient);
      notify(t('account.profile.deletedTitle'), { description: t('account.profile.deletedText') });
    },
    onError: failed,
  });
  return (
    <Section title={t('account.profile.dangerSection')}>
      <p className="text-sm text-slate-700">{t('account.profile.deleteText')}</p>
      <div>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          {t('account.profile.deleteAction')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('account.profile.deleteConfirmTitle')}
        description={t('account.profile.deleteText')}
        confirmLabel={t('account.profile.deleteAction')}
        cancelLabel={t('account.profile.cancel')}
        onConfirm={() => remove.mutate(password)}
        onCancel={() => {
          setConfirming(false);
          setPassword('');
        }}
        busy={remove.isPending}
        confirmDisabled={needsPassword && !password}
      >
        {needsPassword ? (
          <Field label={t('account.profile.deleteConfirm')}>
            <PasswordInput
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              showLabel={t('account.fields.showPassword')}
              hideLabel={t('account.fields.hidePassword')}
            />
          </Field>
        ) : null}
      </ConfirmDialog>
    </Section>
  );
}

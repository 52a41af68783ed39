// Opening the console with a code from the authenticator app: as the page when the console is
// locked at the start, and as a dialog over the page when it locks while in use (the page and
// its open forms stay as they were, and the call that met the lock is made again).
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

import { useUnlockConsole } from '../api/unlock-console';

function UnlockForm() {
  const { t } = useTranslation();
  const unlock = useUnlockConsole();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wellFormed = /^\d{6}$/.test(code);
    setInvalid(!wellFormed);
    if (!wellFormed) return;
    unlock.mutate(code, { onSuccess: () => setCode('') });
  };
  const error = invalid
    ? t('admin.session.codeInvalid')
    : unlock.error
      ? unlock.error.message || t('admin.session.unlockFailed')
      : null;
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field label={t('admin.session.code')} hint={t('admin.session.codeHint')} error={error}>
        <input
          className={cn(inputClass, 'max-w-48 font-mono tracking-widest')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          data-autofocus
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
      </Field>
      <Button type="submit" disabled={unlock.isPending} aria-busy={unlock.isPending}>
        {t('admin.session.unlock')}
      </Button>
    </form>
  );
}

/** The page of a console locked at the start. */
export function UnlockPanel() {
  const { t } = useTranslation();
  return (
    <Card as="section" aria-labelledby="unlock-title" className="max-w-xl">
      <h1 id="unlock-title" className="text-2xl font-semibold text-slate-900">
        {t('admin.session.lockedTitle')}
      </h1>
      <p className="mt-2 mb-4 text-sm text-slate-700">{t('admin.session.lockedText')}</p>
      <UnlockForm />
    </Card>
  );
}

/** Over the page, when the console locks while in use; only a code or leaving closes it. */
export function UnlockDialog() {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onClose={() => undefined}
      title={t('admin.session.lockedTitle')}
      description={t('admin.session.lockedText')}
      className="backdrop:backdrop-blur-md"
      footer={
        <Link to={paths.home} className={buttonVariants({ variant: 'ghost' })}>
          {t('admin.nav.leave')}
        </Link>
      }
    >
      <UnlockForm />
    </Dialog>
  );
}

// What every act of the console shares (on an order, an account, a payout): a button that opens
// the act's dialog, the dialog's required reason (at most 500 characters, kept in the audit
// log), and its buttons. Each opening mounts the form anew, so each dialog sends its own
// Idempotency-Key (the same on a retry) and starts with no error left from the last one.
import type { UseMutationResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/utils';

import type { ReasonInput } from '../api/console-act';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { ConsoleError } from './console-error';

/** The longest reason the server takes for an act (in characters). */
export const REASON_LIMIT = 500;

/** Why a reason cannot be sent, or undefined when it can. */
export function reasonError(t: TFunction, reason: string, missing = t('admin.act.reasonRequired')) {
  if (!reason) return missing;
  if ([...reason].length > REASON_LIMIT) return t('admin.act.reasonTooLong', { max: REASON_LIMIT });
  return undefined;
}

/**
 * A button that opens an act's dialog. The form is mounted with each opening: a new dialog,
 * a new Idempotency-Key (and no error left from the last one).
 */
export function ActDialog({
  label,
  context,
  variant = 'outline',
  size,
  title,
  description,
  form,
}: {
  label: string;
  /** What the act is on, added to the button's accessible name (in a table: which row). */
  context?: string;
  variant?: 'outline' | 'destructive';
  size?: 'sm' | 'md';
  title: string;
  description: string;
  form: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button
        variant={variant}
        size={size}
        // The visible words first, so that speaking them still finds the button.
        aria-label={context ? `${label} ${context}` : undefined}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      <Dialog open={open} onClose={close} title={title} description={description}>
        {form(close)}
      </Dialog>
    </>
  );
}

/** The required reason of an act, at most `REASON_LIMIT` characters. */
export function ReasonField({
  value,
  onChange,
  error,
  label,
  hint,
  initialFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  label: string;
  hint: string;
  /** Takes the focus when the dialog opens. */
  initialFocus?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      <textarea
        className={cn(inputClass, 'h-24 py-2')}
        maxLength={REASON_LIMIT}
        data-autofocus={initialFocus || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** The dialog's buttons: leave it, or carry the act out. */
export function ActButtons({
  dismiss,
  submit,
  destructive = false,
  pending,
  onClose,
}: {
  dismiss: string;
  submit: string;
  destructive?: boolean;
  pending: boolean;
  onClose: () => void;
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="outline" onClick={onClose}>
        {dismiss}
      </Button>
      <Button
        type="submit"
        variant={destructive ? 'destructive' : 'primary'}
        disabled={pending}
        aria-busy={pending}
      >
        {submit}
      </Button>
    </div>
  );
}

/** An act that needs nothing but its reason (look again, cancel, lock an account…). */
export function ReasonForm<Result>({
  mutation,
  submit: submitLabel,
  dismiss,
  destructive = false,
  failed,
  onDone,
  onClose,
}: {
  mutation: UseMutationResult<Result, Error, ReasonInput>;
  submit: string;
  dismiss: string;
  destructive?: boolean;
  failed: string;
  /** After the act is done (its toast), with the server's answer; the dialog closes. */
  onDone: (result: Result) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const key = useIdempotencyKey();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    const found = reasonError(t, text);
    setError(found);
    if (found) return;
    // The promise rather than `mutate`'s callbacks: the act may take its button away (a locked
    // account shows Unlock instead of Lock) before its answer is handled, and the toast must
    // still show.
    mutation
      .mutateAsync({ reason: text, idempotencyKey: key.current() })
      .then((result) => {
        onDone(result);
        onClose();
      })
      // Shown in the form, from `mutation.error`.
      .catch(() => {});
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <ReasonField
        label={t('admin.act.reason')}
        hint={t('admin.act.reasonHint')}
        error={error}
        initialFocus
        value={reason}
        onChange={setReason}
      />
      {mutation.error ? <ConsoleError error={mutation.error} what={failed} /> : null}
      <ActButtons
        dismiss={dismiss}
        submit={submitLabel}
        destructive={destructive}
        pending={mutation.isPending}
        onClose={onClose}
      />
    </form>
  );
}

// What an operator does to an order: a note (any role); and, for an operator or owner, a refund
// of an order that waits for the customer's decision, its refund address set or changed, a
// look again now at a moving order, and the cancelling of an order still waiting for its
// deposit (the page shows each only when the server lists it in `actions`). Each act asks
// for a reason, kept in the audit log. Each form sends one Idempotency-Key for as long as it
// is open.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Section } from '@/components/ui/section';
import { notify } from '@/components/ui/toaster';
import { cn } from '@/lib/utils';

import { useAddNote } from '../api/add-note';
import { useCancelOrder } from '../api/cancel-order';
import { useRefundOrder } from '../api/refund-order';
import { useRetryOrder } from '../api/retry-order';
import { useSetRefundAddress } from '../api/set-refund-address';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import type { OrderDetail } from '../types';
import { ActButtons, ActDialog, reasonError, ReasonField, ReasonForm } from './act-form';
import { ConsoleError } from './console-error';

export function NoteForm({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const addNote = useAddNote(orderId);
  const key = useIdempotencyKey();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const note = text.trim();
    setMissing(!note);
    if (!note) return;
    addNote.mutate(
      { text: note, idempotencyKey: key.current() },
      {
        onSuccess: () => {
          key.renew();
          setText('');
          notify(t('admin.notes.added'), { variant: 'success' });
        },
      },
    );
  };
  return (
    <Section title={t('admin.notes.title')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field
          label={t('admin.notes.label')}
          hint={t('admin.notes.hint')}
          error={missing ? t('admin.notes.required') : null}
        >
          <textarea
            className={cn(inputClass, 'h-28 py-2')}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        {addNote.error ? (
          <ConsoleError error={addNote.error} what={t('admin.notes.failed')} />
        ) : null}
        <Button type="submit" disabled={addNote.isPending} aria-busy={addNote.isPending}>
          {t('admin.notes.submit')}
        </Button>
      </form>
    </Section>
  );
}

export function RefundAction({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.refund.open')}
      variant="destructive"
      title={t('admin.refund.title', { id: order.id })}
      description={t('admin.refund.description')}
      form={(close) => <RefundForm order={order} onClose={close} />}
    />
  );
}

function RefundForm({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const refund = useRefundOrder(order.id);
  const key = useIdempotencyKey();
  const needsAddress = !order.refund_address;
  const [values, setValues] = useState({ reason: '', address: '', tag: '' });
  const [errors, setErrors] = useState<{ reason?: string; address?: string }>({});
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const reason = values.reason.trim();
    const address = values.address.trim();
    const found = {
      reason: reasonError(t, reason, t('admin.refund.reasonRequired')),
      ...(needsAddress && !address ? { address: t('admin.refund.addressRequired') } : {}),
    };
    setErrors(found);
    if (found.reason || found.address) return;
    const tag = values.tag.trim();
    // The promise rather than `mutate`'s callbacks: the refund takes its own button away (the
    // order, read again, may no longer be refunded) before its answer is handled, and the
    // toast must still show.
    refund
      .mutateAsync({
        reason,
        ...(needsAddress ? { address, ...(tag ? { tag } : {}) } : {}),
        idempotencyKey: key.current(),
      })
      .then(() => {
        notify(t('admin.refund.done'), {
          description: t('admin.refund.doneText', { id: order.id }),
          variant: 'success',
        });
        onClose();
      })
      // Shown in the form, from `refund.error`.
      .catch(() => {});
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <ReasonField
        label={t('admin.refund.reason')}
        hint={t('admin.refund.reasonHint')}
        error={errors.reason}
        initialFocus
        value={values.reason}
        onChange={set('reason')}
      />
      {needsAddress ? (
        <>
          <Field
            label={t('admin.refund.address', { coin: order.from_code })}
            error={errors.address}
          >
            <input
              className={cn(inputClass, 'font-mono')}
              autoComplete="off"
              spellCheck={false}
              value={values.address}
              onChange={(e) => set('address')(e.target.value)}
            />
          </Field>
          <Field label={t('admin.refund.tag')} hint={t('admin.refund.tagHint')}>
            <input
              className={cn(inputClass, 'font-mono')}
              autoComplete="off"
              value={values.tag}
              onChange={(e) => set('tag')(e.target.value)}
            />
          </Field>
        </>
      ) : null}
      {refund.error ? <ConsoleError error={refund.error} what={t('admin.refund.failed')} /> : null}
      <ActButtons
        dismiss={t('admin.refund.cancel')}
        submit={t('admin.refund.submit')}
        destructive
        pending={refund.isPending}
        onClose={onClose}
      />
    </form>
  );
}

export function RefundAddressAction({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  const change = Boolean(order.refund_address);
  return (
    <ActDialog
      label={change ? t('admin.refundAddress.change') : t('admin.refundAddress.set')}
      title={
        change
          ? t('admin.refundAddress.changeTitle', { id: order.id })
          : t('admin.refundAddress.setTitle', { id: order.id })
      }
      description={t('admin.refundAddress.description')}
      form={(close) => <RefundAddressForm order={order} onClose={close} />}
    />
  );
}

function RefundAddressForm({ order, onClose }: { order: OrderDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSetRefundAddress(order.id);
  const key = useIdempotencyKey();
  // A change starts from the address the order has: a typo is corrected where it is.
  const [values, setValues] = useState({
    address: order.refund_address ?? '',
    tag: order.refund_tag ?? '',
    reason: '',
  });
  const [errors, setErrors] = useState<{ reason?: string; address?: string }>({});
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const reason = values.reason.trim();
    const address = values.address.trim();
    const found = {
      address: address ? undefined : t('admin.refundAddress.addressRequired'),
      reason: reasonError(t, reason),
    };
    setErrors(found);
    if (found.reason || found.address) return;
    const tag = values.tag.trim();
    // As the refund: the order read again may no longer offer this act, and the toast must
    // still show.
    save
      .mutateAsync({ reason, address, ...(tag ? { tag } : {}), idempotencyKey: key.current() })
      .then(() => {
        notify(t('admin.refundAddress.done'), {
          description: t('admin.refundAddress.doneText', { id: order.id }),
          variant: 'success',
        });
        onClose();
      })
      // Shown in the form, from `save.error`.
      .catch(() => {});
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field
        label={t('admin.refundAddress.address', { coin: order.from_code })}
        error={errors.address}
      >
        <input
          className={cn(inputClass, 'font-mono')}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          value={values.address}
          onChange={(e) => set('address')(e.target.value)}
        />
      </Field>
      <Field label={t('admin.refundAddress.tag')} hint={t('admin.refundAddress.tagHint')}>
        <input
          className={cn(inputClass, 'font-mono')}
          autoComplete="off"
          value={values.tag}
          onChange={(e) => set('tag')(e.target.value)}
        />
      </Field>
      <ReasonField
        label={t('admin.act.reason')}
        hint={t('admin.act.reasonHint')}
        error={errors.reason}
        value={values.reason}
        onChange={set('reason')}
      />
      {save.error ? (
        <ConsoleError error={save.error} what={t('admin.refundAddress.failed')} />
      ) : null}
      <ActButtons
        dismiss={t('admin.act.dismiss')}
        submit={t('admin.refundAddress.submit')}
        pending={save.isPending}
        onClose={onClose}
      />
    </form>
  );
}

export function RetryAction({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.retry.open')}
      title={t('admin.retry.title', { id: order.id })}
      description={t('admin.retry.description')}
      form={(close) => <RetryForm orderId={order.id} onClose={close} />}
    />
  );
}

function RetryForm({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const retry = useRetryOrder(orderId);
  return (
    <ReasonForm
      mutation={retry}
      submit={t('admin.retry.submit')}
      dismiss={t('admin.act.dismiss')}
      failed={t('admin.retry.failed')}
      onDone={() =>
        notify(t('admin.retry.done'), {
          description: t('admin.retry.doneText', { id: orderId }),
          variant: 'success',
        })
      }
      onClose={onClose}
    />
  );
}

export function CancelAction({ order }: { order: OrderDetail }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.cancelOrder.open')}
      variant="destructive"
      title={t('admin.cancelOrder.title', { id: order.id })}
      description={t('admin.cancelOrder.description')}
      form={(close) => <CancelForm orderId={order.id} onClose={close} />}
    />
  );
}

function CancelForm({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const cancel = useCancelOrder(orderId);
  return (
    <ReasonForm
      mutation={cancel}
      submit={t('admin.cancelOrder.submit')}
      dismiss={t('admin.cancelOrder.keep')}
      destructive
      failed={t('admin.cancelOrder.failed')}
      onDone={() =>
        notify(t('admin.cancelOrder.done'), {
          description: t('admin.cancelOrder.doneText', { id: orderId }),
          variant: 'success',
        })
      }
      onClose={onClose}
    />
  );
}

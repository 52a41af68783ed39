// What an operator does to an order: a note (any role), and a refund of an order that waits for
// the customer's decision (an operator or owner; the page shows it only when the server lists
// it in `actions`). Each form sends one Idempotency-Key for as long as it is open.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Section } from '@/components/ui/section';
import { notify } from '@/components/ui/toaster';
import { cn } from '@/lib/utils';

import { useAddNote } from '../api/add-note';
import { useRefundOrder } from '../api/refund-order';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import type { OrderDetail } from '../types';
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
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="destructive" onClick={() => setOpen(true)}>
        {t('admin.refund.open')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('admin.refund.title', { id: order.id })}
        description={t('admin.refund.description')}
      >
        {/* Mounted with each opening: a new dialog, a new Idempotency-Key. */}
        <RefundForm order={order} onClose={() => setOpen(false)} />
      </Dialog>
    </>
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
      ...(reason ? {} : { reason: t('admin.refund.reasonRequired') }),
      ...(needsAddress && !address ? { address: t('admin.refund.addressRequired') } : {}),
    };
    setErrors(found);
    if (found.reason || found.address) return;
    const tag = values.tag.trim();
    refund.mutate(
      {
        reason,
        ...(needsAddress ? { address, ...(tag ? { tag } : {}) } : {}),
        idempotencyKey: key.current(),
      },
      {
        onSuccess: () => {
          notify(t('admin.refund.done'), {
            description: t('admin.refund.doneText', { id: order.id }),
            variant: 'success',
          });
          onClose();
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field
        label={t('admin.refund.reason')}
        hint={t('admin.refund.reasonHint')}
        error={errors.reason}
      >
        <textarea
          className={cn(inputClass, 'h-24 py-2')}
          maxLength={2000}
          data-autofocus
          value={values.reason}
          onChange={(e) => set('reason')(e.target.value)}
        />
      </Field>
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
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          {t('admin.refund.cancel')}
        </Button>
        <Button
          type="submit"
          variant="destructive"
          disabled={refund.isPending}
          aria-busy={refund.isPending}
        >
          {t('admin.refund.submit')}
        </Button>
      </div>
    </form>
  );
}

// Payouts: partners' requests to be paid their commission, oldest first, by status (`?status=`,
// requested by default). An operator closes a request: paid (with the transaction that paid it)
// or rejected (with a reason; the amount goes back to the partner's balance), once per dialog's
// Idempotency-Key. A request of a locked account is held: it may be rejected, not paid.
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { formatTime, formatUsd } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useClosePayout, usePayouts } from '../api/payouts';
import { useIdempotencyKey } from '../hooks/use-idempotency-key';
import { atLeast } from '../lib/roles';
import { type ConsoleMe, type Payout, PAYOUT_STATUSES, type PayoutStatus } from '../types';
import { ActButtons, ActDialog, reasonError, ReasonField } from './act-form';
import { ConsoleTitle } from './admin-layout';
import { ConsoleError } from './console-error';

const STATUS_TONES: Record<PayoutStatus, BadgeTone> = {
  requested: 'warning',
  paid: 'success',
  rejected: 'neutral',
};

function isPayoutStatus(status: string | null): status is PayoutStatus {
  return PAYOUT_STATUSES.some((s) => s === status);
}

export function PayoutsPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('status');
  const status: PayoutStatus = isPayoutStatus(asked) ? asked : 'requested';
  const payouts = usePayouts(status);

  let body;
  if (payouts.isPending) body = <Spinner label={t('common.loading')} />;
  else if (payouts.isError) {
    body = <ConsoleError error={payouts.error} what={t('admin.payouts.error')} />;
  } else if (payouts.data.length === 0) {
    body = (
      <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">
        {t('admin.payouts.empty')}
      </p>
    );
  } else {
    body = (
      <PayoutsTable
        payouts={payouts.data}
        status={status}
        canAct={atLeast(me.role, 'operator') && status === 'requested'}
      />
    );
  }

  return (
    <div className="space-y-6">
      <ConsoleTitle title={t('admin.payouts.title')} />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">{t('admin.payouts.title')}</h1>
        <p className="mt-2 text-slate-700">{t('admin.payouts.intro')}</p>
      </div>
      <Field label={t('admin.payouts.status')} className="max-w-xs">
        <select
          className={inputClass}
          value={status}
          onChange={(e) =>
            setParams(
              new URLSearchParams(e.target.value === 'requested' ? {} : { status: e.target.value }),
            )
          }
        >
          {PAYOUT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`admin.payouts.statuses.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      {body}
    </div>
  );
}

function PayoutsTable({
  payouts,
  status,
  canAct,
}: {
  payouts: Payout[];
  status: PayoutStatus;
  canAct: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Table>
      <TableCaption>
        {t('admin.payouts.results', { status: t(`admin.payouts.statuses.${status}`) })}
      </TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('admin.payouts.columns.account')}</TableHead>
          <TableHead>{t('admin.payouts.columns.amount')}</TableHead>
          <TableHead>{t('admin.payouts.columns.currency')}</TableHead>
          <TableHead>{t('admin.payouts.columns.address')}</TableHead>
          <TableHead>{t('admin.payouts.columns.requested')}</TableHead>
          <TableHead>{t('admin.payouts.columns.status')}</TableHead>
          <TableHead>{t('admin.payouts.columns.txid')}</TableHead>
          {canAct ? <TableHead>{t('admin.payouts.columns.actions')}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {payouts.map((payout) => (
          <TableRow key={payout.id}>
            <TableCell>
              <Link
                to={paths.adminUser(payout.user_id)}
                className="font-mono break-all text-teal-800 underline underline-offset-2"
              >
                {payout.user_id}
              </Link>
              {payout.account_locked ? (
                <Badge tone="danger" className="mt-1 flex w-fit whitespace-nowrap">
                  {t('admin.payouts.held')}
                </Badge>
              ) : null}
            </TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">
              {formatUsd(payout.amount_usd, locale)}
            </TableCell>
            <TableCell>{payout.currency}</TableCell>
            <TableCell>
              <span className="block max-w-xs font-mono break-all">{payout.address}</span>
              {payout.tag ? (
                <span className="block text-xs text-slate-600">
                  {t('admin.payouts.tag', { tag: payout.tag })}
                </span>
              ) : null}
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {formatTime(payout.created_at, locale)}
            </TableCell>
            <TableCell>
              {isPayoutStatus(payout.status) ? (
                <Badge tone={STATUS_TONES[payout.status]}>
                  {t(`admin.payouts.statuses.${payout.status}`)}
                </Badge>
              ) : (
                payout.status
              )}
              {payout.processed_at ? (
                <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">
                  {formatTime(payout.processed_at, locale)}
                </span>
              ) : null}
            </TableCell>
            <TableCell>
              {payout.txid ? (
                <span className="block max-w-xs font-mono break-all">{payout.txid}</span>
              ) : (
                <span className="text-slate-600">{t('admin.order.none')}</span>
              )}
            </TableCell>
            {canAct ? (
              <TableCell>
                {payout.status === 'requested' ? (
                  <div className="flex flex-wrap gap-2">
                    {/* The server refuses to pay a locked account's request: unlock it first. */}
                    {payout.account_locked ? (
                      <p className="text-xs text-slate-600">{t('admin.payouts.heldText')}</p>
                    ) : (
                      <MarkPaidAction payout={payout} />
                    )}
                    <RejectAction payout={payout} />
                  </div>
                ) : null}
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function MarkPaidAction({ payout }: { payout: Payout }) {
  const { t, i18n } = useTranslation();
  return (
    <ActDialog
      label={t('admin.markPaid.open')}
      context={payout.id}
      size="sm"
      title={t('admin.markPaid.title', { id: payout.id })}
      description={t('admin.markPaid.description', {
        amount: formatUsd(payout.amount_usd, i18n.language),
        currency: payout.currency,
      })}
      form={(close) => <MarkPaidForm payout={payout} onClose={close} />}
    />
  );
}

function MarkPaidForm({ payout, onClose }: { payout: Payout; onClose: () => void }) {
  const { t } = useTranslation();
  const close = useClosePayout(payout.id);
  const key = useIdempotencyKey();
  const [values, setValues] = useState({ txid: '', reason: '' });
  const [errors, setErrors] = useState<{ txid?: string; reason?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const txid = values.txid.trim();
    const reason = values.reason.trim();
    const found = {
      txid: txid ? undefined : t('admin.markPaid.txidRequired'),
      // The reason is optional here, but no longer than any other.
      reason: reason ? reasonError(t, reason) : undefined,
    };
    setErrors(found);
    if (found.txid || found.reason) return;
    // The promise rather than `mutate`'s callbacks: the paid request leaves the list (and its
    // row this dialog) before the answer is handled, and the toast must still show.
    close
      .mutateAsync({
        status: 'paid',
        txid,
        ...(reason ? { reason } : {}),
        idempotencyKey: key.current(),
      })
      .then(() => {
        notify(t('admin.markPaid.done'), {
          description: t('admin.markPaid.doneText', { id: payout.id }),
          variant: 'success',
        });
        onClose();
      })
      // Shown in the form, from `close.error`.
      .catch(() => {});
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field label={t('admin.markPaid.txid')} error={errors.txid}>
        <input
          className={cn(inputClass, 'font-mono')}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          data-autofocus
          value={values.txid}
          onChange={(e) => setValues((v) => ({ ...v, txid: e.target.value }))}
        />
      </Field>
      <ReasonField
        label={t('admin.markPaid.reason')}
        hint={t('admin.act.reasonHint')}
        error={errors.reason}
        value={values.reason}
        onChange={(reason) => setValues((v) => ({ ...v, reason }))}
      />
      {close.error ? <ConsoleError error={close.error} what={t('admin.markPaid.failed')} /> : null}
      <ActButtons
        dismiss={t('admin.act.dismiss')}
        submit={t('admin.markPaid.submit')}
        pending={close.isPending}
        onClose={onClose}
      />
    </form>
  );
}

function RejectAction({ payout }: { payout: Payout }) {
  const { t } = useTranslation();
  return (
    <ActDialog
      label={t('admin.rejectPayout.open')}
      context={payout.id}
      variant="destructive"
      size="sm"
      title={t('admin.rejectPayout.title', { id: payout.id })}
      description={t('admin.rejectPayout.description')}
      form={(close) => <RejectForm payout={payout} onClose={close} />}
    />
  );
}

function RejectForm({ payout, onClose }: { payout: Payout; onClose: () => void }) {
  const { t } = useTranslation();
  const close = useClosePayout(payout.id);
  const key = useIdempotencyKey();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    const found = reasonError(t, text);
    setError(found);
    if (found) return;
    close
      .mutateAsync({ status: 'rejected', reason: text, idempotencyKey: key.current() })
      .then(() => {
        notify(t('admin.rejectPayout.done'), {
          description: t('admin.rejectPayout.doneText', { id: payout.id }),
          variant: 'success',
        });
        onClose();
      })
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
      {close.error ? (
        <ConsoleError error={close.error} what={t('admin.rejectPayout.failed')} />
      ) : null}
      <ActButtons
        dismiss={t('admin.act.dismiss')}
        submit={t('admin.rejectPayout.submit')}
        destructive
        pending={close.isPending}
        onClose={onClose}
      />
    </form>
  );
}

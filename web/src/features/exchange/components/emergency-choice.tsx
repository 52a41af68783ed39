// The customer's choice on an order in EMERGENCY (a deposit short, large, late or off the
// market): each outcome with what it gives — continuing, what they would receive now; a
// refund, what comes back after the network fee — as two large, separate options. The refund
// address is asked only for a refund, and a refusal is said once, here.
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatAmount } from '@/lib/format';
import { cn } from '@/lib/utils';

import { chooseEmergency } from '../api/orders';
import { isLightning } from '../lib/lightning';
import { STARTING_CURRENCIES } from '../lib/starting-currencies';
import type { Currency, Order } from '../types';

type Choice = 'EXCHANGE' | 'REFUND';
type Reason = 'LESS' | 'MORE' | 'EXPIRED' | 'LIMIT' | 'RATE';

const stub = (side: Order['from']): Currency =>
  STARTING_CURRENCIES.find((c) => c.code === side.code) ?? {
    code: side.code,
    coin: side.coin ?? side.code,
    name: side.name ?? side.code,
    network: side.network ?? side.code,
    recv: 1,
    send: 1,
    tag: null,
  };

/**
 * What continuing would pay out: the server's figure when it gives one, else a quote for the
 * amount received at the order's rate type (the server recomputes it the same way).
 */
function useContinueAmount(order: Order, received: string) {
  const outcome = order.emergency?.outcomes?.exchange ?? null;
  const given = outcome?.amount ?? null;
  const refused = outcome?.refused ?? null;
  const quote = useQuery({
    queryKey: ['emergency-quote', order.id, received, order.type],
    enabled: outcome === null && Number(received) > 0,
    staleTime: 60_000,
    queryFn: async () => {
      const { getQuote } = await import('../api/get-quote');
      return getQuote(
        {
          from: order.from.code,
          to: order.to.code,
          amount: received,
          direction: 'from',
          type: order.type,
        },
        stub(order.from),
        stub(order.to),
      );
    },
  });
  if (refused !== null) return { amount: null, possible: false, pending: false };
  if (given !== null) return { amount: given, possible: true, pending: false };
  const q = quote.data;
  const outOfLimits = q?.errors.some((e) => e.startsWith('LIMIT_') || e.endsWith('exceeds_max'));
  return {
    amount: q && !q.estimated && !outOfLimits ? q.to.amount : null,
    possible: !outOfLimits,
    pending: quote.isPending && quote.fetchStatus !== 'idle',
  };
}

export function EmergencyChoice({ order, onDone }: { order: Order; onDone: (o: Order) => void }) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const [choice, setChoice] = useState<Choice | null>(null);
  const [address, setAddress] = useState(order.refund.address ?? '');
  const received = order.from.received ?? order.from.amount;
  const fromCoin = order.from.coin ?? order.from.code;
  const toCoin = order.to.coin ?? order.to.code;
  const continuing = useContinueAmount(order, received);
  const refundAmount = order.emergency?.outcomes?.refund?.amount ?? null;
  // A Lightning deposit is refunded to an invoice, made now for at most the refund.
  const lightningRefund = isLightning(order.from)
    ? `${formatAmount(refundAmount ?? received, i18n.language)} ${fromCoin}`
    : null;
  const decide = useMutation({
    mutationFn: ({ choice, address }: { choice: Choice; address?: string }) =>
      chooseEmergency(order, choice, address),
    onSuccess: onDone,
  });

  if (order.emergency?.choice === 'REFUND') {
    return (
      <p role="status" className="rounded-lg bg-slate-100 p-3 text-sm">
        {t('order.refundRequested', { address: order.refund.address ?? '' })}
      </p>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return;
    decide.mutate(choice === 'REFUND' ? { choice, address: address.trim() } : { choice });
  };
  const reason = order.emergency?.reason as Reason | undefined;
  const amount = (value: string, coin: string) => `${formatAmount(value, i18n.language)} ${coin}`;
  const options: { value: Choice; title: string; detail: string; disabled: boolean }[] = [
    {
      value: 'EXCHANGE',
      title: t('order.continue'),
      detail: !continuing.possible
        ? t('order.continueImpossible')
        : continuing.amount
          ? t('order.continueDetail', { amount: amount(continuing.amount, toCoin) })
          : continuing.pending
            ? t('order.continueQuoting')
            : t('order.continueUnknown', { coin: toCoin }),
      disabled: !continuing.possible,
    },
    {
      value: 'REFUND',
      title: t('order.refund'),
      detail: refundAmount
        ? t('order.refundDetail', { amount: amount(refundAmount, fromCoin) })
        : t('order.refundDetailEstimate', { amount: amount(received, fromCoin), coin: fromCoin }),
      disabled: false,
    },
  ];
  const error = decide.error?.message || null;
  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-3 rounded-xl border-2 border-amber-400 bg-amber-50 p-4"
    >
      <h2 id={`${ids}-title`} className="font-semibold">
        {t('order.emergencyTitle')}
      </h2>
      {reason ? <p className="text-sm">{t(`order.emergency.${reason}`)}</p> : null}
      <p className="text-sm" data-testid="emergency-received">
        {t('order.emergencyReceived', { amount: amount(received, fromCoin) })}
      </p>
      <form onSubmit={submit} className="space-y-3" noValidate>
        <fieldset disabled={decide.isPending} className="space-y-3">
          <legend className="text-sm font-medium">{t('order.emergencyChoice')}</legend>
          {options.map((option) => (
            <label
              key={option.value}
              className={cn(
                'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border-2 bg-white p-3',
                choice === option.value ? 'border-teal-600' : 'border-slate-200',
                option.disabled && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="radio"
                name={`${ids}-choice`}
                value={option.value}
                checked={choice === option.value}
                disabled={option.disabled}
                onChange={() => {
                  setChoice(option.value);
                  decide.reset();
                }}
                aria-labelledby={`${ids}-${option.value}-title`}
                aria-describedby={`${ids}-${option.value}-detail`}
                className="mt-1 size-5 shrink-0 accent-teal-700"
              />
              <span className="min-w-0">
                <span id={`${ids}-${option.value}-title`} className="block font-semibold">
                  {option.title}
                </span>
                <span
                  id={`${ids}-${option.value}-detail`}
                  data-testid={`emergency-${option.value.toLowerCase()}-detail`}
                  className="block text-sm text-slate-700"
                >
                  {option.detail}
                </span>
              </span>
            </label>
          ))}
          {choice === 'REFUND' ? (
            <div>
              <label htmlFor={`${ids}-refund`} className="text-sm font-medium">
                {lightningRefund
                  ? t('order.lightningRefund', { amount: lightningRefund })
                  : t('order.refundAddress', { coin: fromCoin })}
              </label>
              {lightningRefund ? (
                <p id={`${ids}-refund-hint`} className="mt-1 text-xs text-slate-700">
                  {t('order.lightningRefundHint', { amount: lightningRefund })}
                </p>
              ) : null}
              <Input
                id={`${ids}-refund`}
                value={address}
                onChange={(e) => {
                  setAddress(e.target.value);
                  decide.reset();
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={
                  [error ? `${ids}-error` : null, lightningRefund ? `${ids}-refund-hint` : null]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
                className="mt-1 font-mono text-sm"
                autoComplete="off"
                spellCheck={false}
              />
            </div>
          ) : null}
        </fieldset>
        {error ? (
          <Alert tone="error" id={`${ids}-error`}>
            {error}
          </Alert>
        ) : null}
        <Button
          type="submit"
          className="w-full sm:w-auto"
          disabled={!choice || decide.isPending || (choice === 'REFUND' && !address.trim())}
        >
          {choice === 'REFUND' ? t('order.refundConfirm') : t('order.continueConfirm')}
        </Button>
      </form>
    </section>
  );
}

// One side of the swap widget: the amount, the coin picker and what the quote says about them.
// The side the customer did not type shows the quote for exactly what is on screen; while the
// next quote comes, the previous figure stays, muted and marked busy, never as the answer.
// A Lightning invoice being paid out sets the amounts: neither side can be typed then.
import { type ReactNode, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';

import { formatRate, formatUsd } from '@/lib/format-number';
import { lazyWithTexts } from '@/lib/i18n';
import { cn } from '@/lib/utils';

import type { ExchangeFormAction, ExchangeFormState } from '../hooks/use-exchange-form';
import type { LiveQuote } from '../hooks/use-live-quote';
import { isAmountInput, toNumber } from '../lib/amount';
import type { Currency, Quote, QuoteSide } from '../types';
import { CurrencyPicker } from './currency-picker';

const FixedHold = lazyWithTexts(() => import('./fixed-hold'));

interface AmountPanelProps {
  side: 'send' | 'receive';
  state: ExchangeFormState;
  live: LiveQuote;
  currency: Currency | undefined;
  /** The server's list, or undefined while it loads. */
  currencies: Currency[] | undefined;
  dispatch: (action: ExchangeFormAction) => void;
  maxExceeded: boolean;
  /** A checked Lightning invoice sets the receive amount (and so the send amount). */
  setByInvoice?: boolean;
}

/** The previous answer, if it was for this pair, rate type and direction (a muted stand-in). */
function stillComparable(previous: Quote | null, state: ExchangeFormState): Quote | null {
  if (!previous) return null;
  const sameCoins = previous.from.code === state.from && previous.to.code === state.to;
  return sameCoins ? previous : null;
}

export function AmountPanel({
  side,
  state,
  live,
  currency,
  currencies,
  dispatch,
  maxExceeded,
  setByInvoice = false,
}: AmountPanelProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const send = side === 'send';
  const typed = (state.direction === 'from') === send;
  const quoteSide = (quote: Quote | null): QuoteSide | undefined =>
    send ? quote?.from : quote?.to;
  const fresh = quoteSide(live.quote);
  const stale =
    live.pending && !typed ? quoteSide(stillComparable(live.previous, state)) : undefined;
  const value = typed
    ? send
      ? state.sendAmount
      : state.receiveAmount
    : (fresh?.amount ?? stale?.amount ?? '');
  const editable = !setByInvoice && (send || state.rateType === 'fixed');
  const label = send ? t('exchange.send') : t('exchange.receive');

  const onType = (next: string) => {
    if (!isAmountInput(next)) return;
    dispatch(
      send ? { type: 'sendAmountTyped', value: next } : { type: 'receiveAmountTyped', value: next },
    );
  };

  return (
    <div className="rounded-xl bg-slate-50 p-3">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-xs font-medium text-slate-600">
          {label}
        </label>
        {fresh && currency ? (
          <span className="text-xs text-slate-600">
            {t('exchange.approxUsd', { value: formatUsd(fresh.usd, i18n.language) })}
          </span>
        ) : null}
      </div>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={value}
          readOnly={!editable}
          aria-readonly={!editable}
          aria-busy={!typed && live.pending}
          onChange={(e) => onType(e.target.value)}
          className={cn(
            'h-11 min-w-0 flex-1 bg-transparent font-semibold outline-none',
            // Long amounts shrink rather than hide their last digits.
            value.length > 16
              ? 'text-base'
              : value.length > 13
                ? 'text-lg'
                : value.length > 10
                  ? 'text-xl'
                  : 'text-2xl',
            !editable && 'text-slate-700',
            !typed && live.pending && 'text-slate-400',
          )}
          placeholder="0"
        />
        <CurrencyPicker
          label={label}
          value={currency}
          currencies={currencies}
          onChange={(c) =>
            dispatch(
              send ? { type: 'fromChosen', code: c.code } : { type: 'toChosen', code: c.code },
            )
          }
        />
      </div>
      {/* The row's room is kept while the quote comes: nothing below moves when it does. */}
      <div
        className={cn(
          'mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600',
          send ? 'min-h-11 md:min-h-7' : 'min-h-5',
        )}
      >
        {send ? (
          // The invoice sets the amount: the limits are no choice then (a problem still shows).
          setByInvoice ? null : (
            <LimitChips side={fresh} coin={currency?.coin} onPick={onType} />
          )
        ) : (
          <RateLine quote={live.quote} pending={live.pending} />
        )}
      </div>
      {!send && state.rateType === 'fixed' && live.quote && !live.quote.estimated ? (
        <Suspense fallback={<div className="mt-1 h-11" />}>
          <FixedHold fetchedAt={live.fetchedAt} onRefresh={live.refresh} />
        </Suspense>
      ) : null}
      {send ? (
        <SendProblems quote={live.quote} coin={currency?.coin} maxExceeded={maxExceeded} />
      ) : (
        <ReceiveNotes quote={live.quote} coin={currency?.coin} />
      )}
    </div>
  );
}

/** Min and max chips; a click fills the amount (§2). */
function LimitChips({
  side,
  coin,
  onPick,
}: {
  side: QuoteSide | undefined;
  coin: string | undefined;
  onPick: (amount: string) => void;
}) {
  const { t } = useTranslation();
  if (!side || !coin) return null;
  const chip = (amount: string, text: string) => (
    <button
      type="button"
      className="inline-flex min-h-11 items-center rounded-full bg-white px-3 font-medium text-slate-700 ring-1 ring-slate-200 hover:ring-teal-600 md:min-h-7"
      onClick={() => onPick(amount)}
    >
      {text}
    </button>
  );
  return (
    <>
      {toNumber(side.min) ? chip(side.min, t('exchange.min', { amount: side.min, coin })) : null}
      {toNumber(side.max) ? chip(side.max, t('exchange.max', { amount: side.max, coin })) : null}
    </>
  );
}

function RateLine({ quote, pending }: { quote: Quote | null; pending: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {quote && toNumber(quote.from.rate) ? (
        <span data-testid="quote-rate" data-rate={quote.from.rate}>
          {t('exchange.rateLine', {
            from: quote.from.coin,
            rate: formatRate(quote.from.rate, i18n.language),
            to: quote.to.coin,
          })}
        </span>
      ) : null}
      {pending ? <span role="status">{t('exchange.quoting')}</span> : null}
    </>
  );
}

function InlineProblem({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'warning';
  children: ReactNode;
}) {
  return (
    <p
      role="alert"
      className={cn('mt-2 text-sm', tone === 'error' ? 'text-red-700' : 'text-amber-800')}
    >
      {children}
    </p>
  );
}

function SendProblems({
  quote,
  coin,
  maxExceeded,
}: {
  quote: Quote | null;
  coin: string | undefined;
  maxExceeded: boolean;
}) {
  const { t } = useTranslation();
  if (!quote || !coin) return null;
  return (
    <>
      {quote.errors.includes('LIMIT_MIN') ? (
        <InlineProblem>{t('exchange.belowMin', { min: quote.from.min, coin })}</InlineProblem>
      ) : null}
      {maxExceeded ? (
        <InlineProblem>{t('exchange.exceeded', { max: quote.from.max, coin })}</InlineProblem>
      ) : null}
      {quote.errors.includes('MAINTENANCE_FROM') ? (
        <Maintenance coin={coin} notice={quote.from.maintenance} />
      ) : null}
    </>
  );
}

function ReceiveNotes({ quote, coin }: { quote: Quote | null; coin: string | undefined }) {
  const { t } = useTranslation();
  if (!quote) return null;
  return (
    <>
      {quote.estimated ? (
        <p className="mt-2 text-xs font-medium text-amber-800">{t('exchange.estimated')}</p>
      ) : null}
      {coin && quote.errors.includes('MAINTENANCE_TO') ? (
        <Maintenance coin={coin} notice={quote.to.maintenance} />
      ) : null}
    </>
  );
}

/** The coin is in maintenance, with the operator's own word on it when there is one. */
function Maintenance({ coin, notice }: { coin: string; notice: string | undefined }) {
  const { t } = useTranslation();
  return (
    <InlineProblem tone="warning">
      {t('exchange.maintenance', { coin })}
      {notice ? <span className="block">{notice}</span> : null}
    </InlineProblem>
  );
}

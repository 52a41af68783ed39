// The swap widget (spec/exchange.md §2, §4, §5, §8): editing → creating → order created. Its
// state is one reducer (use-exchange-form), its quote the live quote of what is on screen
// (use-live-quote), and creating an order one mutation (api/create-order). Paid out over
// Lightning, the destination is an invoice: checked once pasted, it sets the receive amount and
// the order is at a fixed rate (use-exchange-form's `paidByInvoice`).
import { ArrowDownUp } from 'lucide-react';
import {
  type FormEvent,
  Suspense,
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { TaggedText } from '@/components/ui/tagged-text';
import { dismissToast, notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { formatPercent } from '@/lib/format-number';
import { lazyWithTexts } from '@/lib/i18n';
import { cn } from '@/lib/utils';

import type { CreateOrderInput } from '../api/create-order';
import { useCurrencies } from '../api/get-currencies';
import { useCreateOrder } from '../hooks/use-create-order';
import { useDebounced } from '../hooks/use-debounced';
import {
  type ExchangeFormAction,
  type ExchangeFormState,
  paidByInvoice,
  quoteRequestOf,
  useExchangeForm,
} from '../hooks/use-exchange-form';
import { useLiveQuote } from '../hooks/use-live-quote';
import { AddressRejected, checkAddress, needsMemo, networkLabel } from '../lib/address-rules';
import { toNumber } from '../lib/amount';
import { coinOf, INITIAL_PAIR, TIMINGS } from '../lib/constants';
import { type CheckedInvoice, isLightning, looksLikeInvoice } from '../lib/lightning';
import { QuoteFailure } from '../lib/quote-failure';
import { STARTING_CURRENCIES } from '../lib/starting-currencies';
import { tagLabel } from '../lib/tag-label';
import type { Currency, Quote, RateType } from '../types';
import { AddressField } from './address-field';
import { AmountPanel } from './amount-panel';
import { RateTypeDialog } from './rate-type-dialog';

const AmountChangedDialog = lazyWithTexts(() => import('./amount-changed-dialog'));
const preloadOrderInput = () => void import('../lib/order-input');

export interface ExchangeWidgetProps {
  initialFrom?: string;
  initialTo?: string;
  fees?: { float: string; fixed: string };
  /** Sample destination addresses to offer (sandbox only), by currency code. */
  samples?: Record<string, string>;
  /** What names the chosen coins until the server's list arrives (and in prerendered pages). */
  knownCurrencies?: Currency[];
  /** The send amount to start with, instead of the send coin's default ('New Exchange'). */
  initialAmount?: string;
}

export function ExchangeWidget({
  initialFrom = INITIAL_PAIR.from,
  initialTo = INITIAL_PAIR.to,
  fees = { float: '0.5', fixed: '1.0' },
  samples,
  knownCurrencies = STARTING_CURRENCIES,
  initialAmount,
}: ExchangeWidgetProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currencies = useCurrencies();
  const list = currencies.data?.list;
  const known = list ?? knownCurrencies;
  const find = (code: string) => known.find((c) => c.code === code);
  const [typed, dispatch] = useExchangeForm(
    initialFrom,
    initialTo,
    (code) => find(code)?.coin ?? coinOf(code),
    initialAmount,
  );
  const from = find(typed.from);
  const to = find(typed.to);
  const lightning = isLightning(to);
  // What the order will be: what was typed, or what a Lightning invoice asks for.
  const state = paidByInvoice(typed, lightning);
  const live = useLiveQuote(quoteRequestOf(state), list ?? []);
  const quote = live.quote;
  // A fixed amount is a promise: no order until the amount on screen is the current quote's
  // (while a new amount is being quoted, the previous figure is still shown, greyed).
  const awaitingFixedQuote =
    state.rateType === 'fixed' &&
    state.direction === 'from' &&
    (!quote || quote.estimated === true);
  const creation = useCreateOrder();
  // A second click or Enter can come before the busy state has rendered: it is ignored.
  const submitting = useRef(false);
  // 'Missing information' goes once the customer fills in what was missing.
  const missingToast = useRef<number | null>(null);
  useEffect(() => {
    if (missingToast.current === null) return;
    dismissToast(missingToast.current);
    missingToast.current = null;
  }, [state.address, state.sendAmount, state.receiveAmount]);
  // A fixed amount that moved since it was shown, waiting for the customer's yes.
  const [changed, setChanged] = useState<{ input: CreateOrderInput; toAmount: string } | null>(
    null,
  );

  const maxExceeded = exceedsMax(state, quote);
  useLocalCatalogueNotice(currencies.data?.local === true);
  useQuoteNotices(live.error, list && from && to ? quote : null, maxExceeded);
  usePairFallback(quote, from, to, list, dispatch);

  // Busy until the order's page has taken over.
  const busy = creation.isPending || creation.isSuccess;

  const create = (input: CreateOrderInput) => {
    submitting.current = true;
    creation.mutate(input, {
      onSettled: () => (submitting.current = false),
      // The order's own page is its first state: reload, back and bookmarks keep it.
      onSuccess: (order) =>
        void navigate(paths.orderLink(order.id, order.token), { state: { order } }),
      onError: (error) => {
        if (error instanceof AddressRejected) {
          dispatch({ type: 'addressChecked', address: error.address, problem: error.problem });
          return;
        }
        // `AmountChanged` of api/create-order, known by its name: that module loads on the
        // first submit, and importing its class would put it on the landing page.
        if (error.name === 'AmountChanged' && 'toAmount' in error) {
          setChanged({ input, toAmount: String(error.toAmount) });
          return;
        }
        notify(t('toast.createFailed'), {
          description: error.message || t('toast.createFailedDefault'),
          variant: 'destructive',
        });
      },
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || submitting.current || !from || !to || awaitingFixedQuote) return;
    // Ignored as well: a second click while the form's checks load.
    submitting.current = true;
    let input;
    try {
      const { orderInput } = await import('../lib/order-input');
      input = orderInput(state, quote, from, to, maxExceeded, dispatch, t, missingToast);
    } finally {
      submitting.current = false;
    }
    if (!input) return;
    // An invoice not checked yet: its amount and the quote for it show first.
    if (lightning && !state.invoice) {
      void checkAddressNow(state.address);
      return;
    }
    create(input);
  };

  // The address being checked with the server, so that a paste and a blur ask once.
  const checking = useRef<string | null>(null);

  /**
   * The patterns of §5 at once, then the server's verdict (loaded on first use): a checksum
   * typo, which network a misplaced address belongs to, or what a Lightning invoice asks for.
   */
  const checkAddressNow = async (address: string) => {
    // One check at a time per address and send coin (an invoice's time left depends on it).
    const key = `${from?.code ?? ''}:${address}`;
    if (!to || !address.trim() || checking.current === key) return;
    let problem = checkAddress(to, address);
    if (problem) dispatch({ type: 'addressChecked', address, problem });
    // The server knows checksums, what another network's address looks like, and invoices.
    let invoice: CheckedInvoice | null = null;
    if (!problem || problem.kind === 'invalid') {
      checking.current = key;
      try {
        const { serverAddressCheck } = await import('../api/validate-address');
        const verdict = await serverAddressCheck(to.code, address, from?.code);
        problem = verdict.problem ?? problem;
        invoice = verdict.invoice;
      } finally {
        checking.current = null;
      }
    }
    dispatch({ type: 'addressChecked', address, problem, invoice });
  };

  // An invoice has its verdict once it is pasted: the amount it sets shows without a blur.
  // One already judged is not asked about again.
  const settledAddress = useDebounced(typed.address, TIMINGS.debounceMs);
  const checkSettled = useEffectEvent((address: string) => {
    if (address !== typed.address || typed.invoice || typed.addressProblem) return;
    void checkAddressNow(address);
  });
  // Asked again for another send coin too: the invoice must outlast that coin's deposit.
  useEffect(() => {
    if (lightning && looksLikeInvoice(settledAddress.trim())) checkSettled(settledAddress);
  }, [lightning, settledAddress, typed.from]);

  const checkOnBlur = () => {
    if (lightning && (typed.invoice || typed.addressProblem)) return;
    void checkAddressNow(typed.address);
  };

  return (
    <form
      aria-label={t('exchange.title')}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      onSubmit={(event) => void submit(event)}
      // What a submit checks loads once the customer starts filling the form in, not with
      // the landing page.
      onFocus={preloadOrderInput}
    >
      <fieldset disabled={busy} className="min-w-0 space-y-4">
        <AmountPanel
          side="send"
          state={state}
          live={live}
          currency={from}
          currencies={list}
          dispatch={dispatch}
          maxExceeded={maxExceeded}
          setByInvoice={!!state.invoice}
        />
        <div className="relative flex justify-center">
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="-my-6 rounded-full bg-white"
            aria-label={t('exchange.swap')}
            onClick={() => dispatch({ type: 'swapped' })}
          >
            <ArrowDownUp aria-hidden="true" className="size-4" />
          </Button>
        </div>
        <AmountPanel
          side="receive"
          state={state}
          live={live}
          currency={to}
          currencies={list}
          dispatch={dispatch}
          maxExceeded={false}
          setByInvoice={!!state.invoice}
        />
        <AddressField
          state={state}
          currency={to}
          samples={samples}
          dispatch={dispatch}
          onBlur={checkOnBlur}
        />
        {to && needsMemo(to) ? <MemoField state={state} currency={to} dispatch={dispatch} /> : null}
        <RateTypeChoice
          value={state.rateType}
          fixedOnly={lightning}
          fees={fees}
          onChange={(rateType) =>
            dispatch({
              type: 'rateTypeChosen',
              rateType,
              quotedSendAmount: quote?.from.amount ?? null,
            })
          }
        />
      </fieldset>
      <SubmitButton busy={busy} disabled={!from || !to || awaitingFixedQuote} />
      {changed && to ? (
        <Suspense fallback={null}>
          <AmountChangedDialog
            shown={changed.input.expectedToAmount ?? ''}
            now={changed.toAmount}
            coin={to.coin}
            onCancel={() => {
              setChanged(null);
              live.refresh();
            }}
            onConfirm={() => {
              setChanged(null);
              create({ ...changed.input, expectedToAmount: changed.toAmount });
            }}
          />
        </Suspense>
      ) : null}
      <p className="text-center text-xs text-slate-600">
        <TaggedText
          text={t('exchange.terms')}
          tags={{
            terms: (children) => (
              <Link to={paths.terms} className="underline">
                {children}
              </Link>
            ),
            privacy: (children) => (
              <Link to={paths.privacy} className="underline">
                {children}
              </Link>
            ),
          }}
        />
      </p>
    </form>
  );
}

/** The send amount is above the quote's maximum (an estimate's limits are only a guess). */
function exceedsMax(state: ExchangeFormState, quote: Quote | null): boolean {
  if (!quote || quote.estimated || toNumber(quote.from.max) === null) return false;
  const send = state.direction === 'from' ? state.sendAmount : quote.from.amount;
  return Number(send) > Number(quote.from.max);
}

/** 'Failed to load currencies' when the shipped catalogue stands in (§8). */
function useLocalCatalogueNotice(local: boolean) {
  const { t } = useTranslation();
  useEffect(() => {
    if (local) notify(t('toast.currenciesFailed'), { variant: 'destructive' });
  }, [local, t]);
}

/**
 * A toast that lasts as long as its cause: shown when `cause` turns up (or changes), dismissed
 * when it is gone — an error fixed by the customer does not linger on screen.
 */
function useCauseToast(cause: string | null, show: (cause: string) => number) {
  const open = useEffectEvent(show);
  useEffect(() => {
    if (cause === null) return;
    const id = open(cause);
    return () => dismissToast(id);
  }, [cause]);
}

/**
 * Toasts for a failed quote and for the errors of a quote that have no place in the form
 * (§4, §8). What the form already says inline (the maximum, a network's maintenance) is not
 * said again in a toast.
 */
function useQuoteNotices(error: Error | null, quote: Quote | null, maxShownInline: boolean) {
  const { t } = useTranslation();
  useCauseToast(
    error ? (error instanceof QuoteFailure && error.message) || t('toast.rateErrorDefault') : null,
    (description) => notify(t('toast.rateError'), { description, variant: 'destructive' }),
  );
  const exceeds =
    !!quote &&
    !maxShownInline &&
    (quote.errors.includes('from_amount_exceeds_max') ||
      quote.errors.includes('to_amount_exceeds_max'));
  useCauseToast(exceeds ? 'exceeds' : null, () =>
    notify(t('toast.exceedsMax'), {
      description: t('toast.exceedsMaxDefault'),
      variant: 'destructive',
    }),
  );
}

/**
 * PAIR_UNAVAILABLE: the receive coin switches to a fallback, and the customer is told (§4).
 * Not when the send coin is the one suspended: another receive coin would not help, and the
 * customer is told so when they submit ('Network temporarily suspended', §5). Each fallback is
 * tried once per send coin.
 */
function usePairFallback(
  quote: Quote | null,
  from: Currency | undefined,
  to: Currency | undefined,
  list: Currency[] | undefined,
  dispatch: (action: ExchangeFormAction) => void,
) {
  const { t } = useTranslation();
  const tried = useRef<{ from: string; codes: string[] }>({ from: '', codes: [] });
  const switchPair = useEffectEvent(async (answer: Quote) => {
    if (!answer.errors.includes('PAIR_UNAVAILABLE') || !from || !to || !list) return;
    if (from.send === 0) return;
    if (tried.current.from !== from.code) tried.current = { from: from.code, codes: [] };
    const codes = tried.current.codes;
    if (!codes.includes(to.code)) codes.push(to.code);
    // A rare answer: its rule loads when it comes.
    const { pickFallbackCoin } = await import('../lib/fallback-coin');
    const fallback = pickFallbackCoin(from, to, list, codes);
    if (!fallback) return;
    codes.push(fallback.code);
    dispatch({ type: 'toChosen', code: fallback.code });
    notify(t('toast.pairSwitched', { coin: `${fallback.coin} (${networkLabel(fallback)})` }));
  });
  const ready = Boolean(list);
  useEffect(() => {
    if (quote && ready) void switchPair(quote);
  }, [quote, ready]);
}

function MemoField({
  state,
  currency,
  dispatch,
}: {
  state: ExchangeFormState;
  currency: Currency;
  dispatch: (action: ExchangeFormAction) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  return (
    <div>
      <label htmlFor={`${ids}-tag`} className="text-sm font-medium">
        {tagLabel(currency.tag, t)}
      </label>
      <input
        id={`${ids}-tag`}
        value={state.tag}
        autoComplete="off"
        onChange={(e) => dispatch({ type: 'tagChanged', value: e.target.value })}
        aria-describedby={`${ids}-tag-hint`}
        className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
      />
      <p id={`${ids}-tag-hint`} className="mt-1 text-xs text-slate-600">
        {t('exchange.memoHint')}
      </p>
    </div>
  );
}

/** Float or fixed; paid out over Lightning, fixed only, and why. */
function RateTypeChoice({
  value,
  fixedOnly,
  fees,
  onChange,
}: {
  value: RateType;
  fixedOnly: boolean;
  fees: { float: string; fixed: string };
  onChange: (value: RateType) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-2">
      <div
        role="radiogroup"
        aria-label={t('exchange.rateType')}
        aria-describedby={fixedOnly ? `${name}-fixed-only` : undefined}
        className="flex gap-4"
      >
        {(['float', 'fixed'] as const).map((type) => (
          <label
            key={type}
            className={cn(
              'flex min-h-11 items-center gap-2 text-sm',
              fixedOnly && type === 'float' && 'text-slate-500',
            )}
          >
            <input
              type="radio"
              name={name}
              value={type}
              checked={value === type}
              disabled={fixedOnly && type === 'float'}
              onChange={() => onChange(type)}
              className="accent-teal-700"
            />
            {type === 'float'
              ? t('exchange.float', { fee: formatPercent(fees.float, i18n.language) })
              : t('exchange.fixed', { fee: formatPercent(fees.fixed, i18n.language) })}
          </label>
        ))}
      </div>
      <RateTypeDialog floatFee={fees.float} fixedFee={fees.fixed} />
      {fixedOnly ? (
        <p id={`${name}-fixed-only`} className="w-full text-xs text-slate-600">
          {t('exchange.lightning.fixedOnly')}
        </p>
      ) : null}
    </div>
  );
}

/** 'Exchange now'; while creating, 'Creating Order...' with a step counter 1, 2, 3 (§4). */
function SubmitButton({ busy, disabled }: { busy: boolean; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Button type="submit" className="h-12 w-full text-base" disabled={busy || disabled}>
      {busy ? (
        <span className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent"
          />
          {t('exchange.creating')}
          <CreatingStep />
        </span>
      ) : (
        t('exchange.exchangeNow')
      )}
    </Button>
  );
}

function CreatingStep() {
  const { t } = useTranslation();
  const [step, setStep] = useState(1);
  useEffect(() => {
    const timers = [2, 3].map((next, i) =>
      setTimeout(() => setStep(next), TIMINGS.creatingStepMs * (i + 1)),
    );
    return () => timers.forEach(clearTimeout);
  }, []);
  return <span className="text-sm opacity-90">{t('exchange.creatingStep', { step })}</span>;
}

// The swap widget (spec/exchange.md §2, §4, §5, §8): editing → creating → order created.
import { ArrowDownUp, ClipboardPaste, ScanLine } from 'lucide-react';
import { Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TaggedText } from '@/components/ui/tagged-text';
import { notify } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { lazyWithTexts } from '@/lib/i18n';

import { useCurrencies } from '../api/get-currencies';
import { QuoteFailure } from '../api/get-quote';
import { createOrder, validateAddress } from '../api/orders';
import { useQuote } from '../hooks/use-quote';
import { isAmountInput, toNumber } from '../lib/amount';
import { checkAddress, needsMemo, networkLabel } from '../lib/address-rules';
import {
  coinOf,
  defaultAmountFor,
  INITIAL_PAIR,
  NEW_EXCHANGE_AMOUNT,
  TIMINGS,
} from '../lib/constants';
import { pickFallbackCoin } from '../lib/fallback-coin';
import type { Currency, Direction, Order, RateType } from '../types';
import { STARTING_CURRENCIES } from '../lib/starting-currencies';
import { CurrencyPicker } from './currency-picker';
import { RateTypeDialog } from './rate-type-dialog';

const OrderCreated = lazyWithTexts(() => import('./order-created'));
const QrScannerDialog = lazyWithTexts(() => import('./qr-scanner-dialog'));

export interface ExchangeWidgetProps {
  initialFrom?: string;
  initialTo?: string;
  fees?: { float: string; fixed: string };
  /** Sample destination addresses to offer (sandbox only), by currency code. */
  samples?: Record<string, string>;
  /** What names the chosen coins until the server's list arrives (and in prerendered pages). */
  knownCurrencies?: Currency[];
}

type Phase = 'editing' | 'creating' | 'created';

function useCurrency(list: Currency[] | undefined, code: string) {
  return useMemo(() => list?.find((c) => c.code === code), [list, code]);
}

export function ExchangeWidget({
  initialFrom = INITIAL_PAIR.from,
  initialTo = INITIAL_PAIR.to,
  fees = { float: '0.5', fixed: '1.0' },
  samples,
  knownCurrencies = STARTING_CURRENCIES,
}: ExchangeWidgetProps) {
  const { t } = useTranslation();
  const ids = useId();
  const { data: currencies } = useCurrencies();
  const list = currencies?.list;

  const [fromCode, setFromCode] = useState(initialFrom);
  const [toCode, setToCode] = useState(initialTo);
  const [amount, setAmount] = useState(() => defaultAmountFor(coinOf(initialFrom)));
  const [receiveAmount, setReceiveAmount] = useState('');
  const [direction, setDirection] = useState<Direction>('from');
  const [rateType, setRateType] = useState<RateType>('float');
  const [address, setAddress] = useState('');
  const [tag, setTag] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  const [step, setStep] = useState(1);
  const [order, setOrder] = useState<Order | null>(null);
  const [scannerOpen, setScannerOpen] = useState(false);
  const swapTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (swapTimer.current) clearTimeout(swapTimer.current);
    },
    [],
  );

  const from = useCurrency(list ?? knownCurrencies, fromCode);
  const to = useCurrency(list ?? knownCurrencies, toCode);
  const typed = direction === 'from' ? amount : receiveAmount;
  const quoteQuery = useQuote(
    { from: fromCode, to: toCode, amount: typed, direction, type: rateType },
    from,
    to,
  );
  const quote = quoteQuery.data;
  const fresh = quote && quote.from.code === fromCode && quote.to.code === toCode;

  // Quote failures the customer must hear about (§8).
  useEffect(() => {
    if (quoteQuery.error) {
      const message = quoteQuery.error instanceof QuoteFailure ? quoteQuery.error.message : '';
      notify(t('toast.rateError'), {
        description: message || t('toast.rateErrorDefault'),
        variant: 'destructive',
      });
    }
  }, [quoteQuery.error, t]);

  // Errors that act: exceeds-max toast, maintenance toast, pair-unavailable fallback (§4, §8).
  const errors = fresh ? quote.errors : [];
  const errorKey = errors.join(',');
  // The quote may come before the currency list (a slow network): act once both are here.
  const ready = Boolean(list && from && to);
  useEffect(() => {
    if (!fresh || !ready) return;
    if (errors.includes('from_amount_exceeds_max') || errors.includes('to_amount_exceeds_max')) {
      notify(t('toast.exceedsMax'), {
        description: t('toast.exceedsMaxDefault'),
        variant: 'destructive',
      });
    }
    if (errors.includes('MAINTENANCE_FROM') || errors.includes('MAINTENANCE_TO')) {
      notify(t('toast.suspendedMaintenance'), { variant: 'warning' });
    }
    // Act once per distinct answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errorKey, fresh, ready]);

  // PAIR_UNAVAILABLE: switch the receive coin to a fallback (§4). Adjusting state while
  // rendering avoids an extra pass; the new pair's quote is no longer "fresh", so this runs once.
  const [switchedTo, setSwitchedTo] = useState<Currency | null>(null);
  if (fresh && errors.includes('PAIR_UNAVAILABLE') && list && from && to) {
    const fallback = pickFallbackCoin(from, to, list);
    if (fallback && fallback.code !== toCode) {
      setToCode(fallback.code);
      setSwitchedTo(fallback);
    }
  }
  useEffect(() => {
    if (switchedTo) {
      notify(t('toast.pairSwitched', { coin: `${switchedTo.coin} (${networkLabel(switchedTo)})` }));
    }
  }, [switchedTo, t]);

  const sendShown = direction === 'from' ? amount : fresh ? quote.from.amount : '';
  const receiveShown = direction === 'to' ? receiveAmount : fresh ? quote.to.amount : '';
  const busy = phase === 'creating';
  const fee = rateType === 'fixed' ? fees.fixed : fees.float;

  const onSendAmount = (value: string) => {
    if (!isAmountInput(value)) return;
    setDirection('from');
    setAmount(value);
  };
  const onReceiveAmount = (value: string) => {
    if (!isAmountInput(value)) return;
    setDirection('to');
    setReceiveAmount(value);
  };
  const onRateType = (value: RateType) => {
    setRateType(value);
    if (value === 'float' && direction === 'to') {
      setDirection('from');
      setAmount(fresh ? quote.from.amount : amount);
    }
  };

  const swap = () => {
    const nextFrom = toCode;
    setFromCode(nextFrom);
    setToCode(fromCode);
    setAmount('');
    setReceiveAmount('');
    setDirection('from');
    setAddressError(null);
    if (swapTimer.current) clearTimeout(swapTimer.current);
    swapTimer.current = setTimeout(() => {
      const coin = list?.find((c) => c.code === nextFrom)?.coin ?? nextFrom;
      setAmount(defaultAmountFor(coin));
    }, TIMINGS.swapDelayMs);
  };

  const addressMessage = (currency: Currency, value: string): string | null => {
    const problem = checkAddress(currency, value);
    if (!problem) return null;
    const vars = { coin: currency.coin, network: networkLabel(currency) };
    if (problem.kind === 'invalid') return t('exchange.invalidAddress', vars);
    return problem.variant === 'destination'
      ? t('exchange.emptyDestination', vars)
      : t('exchange.emptyAddress', vars);
  };

  /** The patterns of §5 first, then the server's checksum verdict. */
  const checkDestination = async (value: string): Promise<string | null> => {
    if (!to) return null;
    const pattern = addressMessage(to, value);
    if (pattern) return pattern;
    try {
      const verdict = await validateAddress(to.code, value.trim());
      if (verdict.reason === 'checksum') return t('exchange.checksum', { coin: to.coin });
      if (!verdict.valid && verdict.reason)
        return t('exchange.invalidAddress', { coin: to.coin, network: networkLabel(to) });
    } catch {
      // The server decides again when the order is created.
    }
    return null;
  };

  const onAddressBlur = async () => {
    if (!address.trim()) return;
    setAddressError(await checkDestination(address));
  };

  const paste = async () => {
    try {
      const text = (await navigator.clipboard.readText()).trim();
      setAddress(text);
      setAddressError(null);
      notify(t('toast.addressPasted'));
    } catch {
      notify(t('toast.pasteFailed'), {
        description: t('toast.pasteFailedDescription'),
        variant: 'destructive',
      });
    }
  };

  const maxExceeded =
    fresh &&
    toNumber(quote.from.max) !== null &&
    Number(sendShown) > Number(quote.from.max) &&
    !quote.estimated;

  const submit = async () => {
    if (!from || !to) return;
    if (!toNumber(sendShown) || !address.trim()) {
      notify(t('toast.missingInfo'), {
        description: t('toast.missingInfoDescription'),
        variant: 'destructive',
      });
      if (!address.trim()) setAddressError(addressMessage(to, ''));
      return;
    }
    if (from.send === 0 || to.recv === 0) {
      notify(t('toast.suspended'), { variant: 'destructive' });
      return;
    }
    if (maxExceeded) return;
    const problem = await checkDestination(address);
    setAddressError(problem);
    if (problem) return;
    if (needsMemo(to) && !tag.trim()) {
      notify(t('toast.missingMemo'), {
        description: t('toast.missingMemoDescription', { coin: to.coin }),
        variant: 'warning',
      });
    }
    setPhase('creating');
    setStep(1);
    const timers = [
      setTimeout(() => setStep(2), TIMINGS.creatingStepMs),
      setTimeout(() => setStep(3), TIMINGS.creatingStepMs * 2),
    ];
    try {
      const created = await createOrder(
        {
          fromCcy: from.code,
          toCcy: to.code,
          amount: direction === 'from' ? amount : receiveAmount,
          toAddress: address.trim(),
          refundAddress: address.trim(),
          direction,
          type: rateType,
          ...(tag.trim() ? { tag: tag.trim() } : {}),
          metadata: JSON.stringify({
            from_usd_value: fresh ? quote.from.usd : null,
            to_usd_value: fresh ? quote.to.usd : null,
          }),
        },
        crypto.randomUUID(),
      );
      setOrder(created);
      setPhase('created');
    } catch (error) {
      notify(t('toast.createFailed'), {
        description: (error instanceof Error && error.message) || t('toast.createFailedDefault'),
        variant: 'destructive',
      });
      setPhase('editing');
    } finally {
      timers.forEach(clearTimeout);
    }
  };

  const reset = () => {
    setOrder(null);
    setPhase('editing');
    setAmount(NEW_EXCHANGE_AMOUNT);
    setDirection('from');
    setReceiveAmount('');
    setAddress('');
    setTag('');
    setAddressError(null);
  };

  if (phase === 'created' && order) {
    return (
      <Suspense fallback={<Spinner label={t('common.loading')} />}>
        <OrderCreated order={order} onNewExchange={reset} />
      </Suspense>
    );
  }

  const minChip = fresh && toNumber(quote.from.min) ? quote.from.min : null;
  const maxChip = fresh && toNumber(quote.from.max) ? quote.from.max : null;

  return (
    <form
      aria-label={t('exchange.title')}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset disabled={busy} className="min-w-0 space-y-4">
        <div className="rounded-xl bg-slate-50 p-3">
          <label htmlFor={`${ids}-send`} className="text-xs font-medium text-slate-600">
            {t('exchange.send')}
          </label>
          <div className="mt-1 flex items-center gap-2">
            <input
              id={`${ids}-send`}
              inputMode="decimal"
              autoComplete="off"
              value={sendShown}
              onChange={(e) => onSendAmount(e.target.value)}
              className="min-w-0 flex-1 bg-transparent text-2xl font-semibold outline-none"
              placeholder="0"
            />
            <CurrencyPicker
              label={t('exchange.send')}
              value={from}
              currencies={list ?? []}
              onChange={(c) => {
                if (c.code === toCode) setToCode(fromCode);
                setFromCode(c.code);
              }}
            />
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
            {fresh && from ? <span className="text-slate-600">≈ ${quote.from.usd}</span> : null}
            {minChip && from ? (
              <button
                type="button"
                className="rounded-full bg-white px-2 py-0.5 font-medium text-slate-700 ring-1 ring-slate-200 hover:ring-teal-600"
                onClick={() => onSendAmount(minChip)}
              >
                {t('exchange.min', { amount: minChip, coin: from.coin })}
              </button>
            ) : null}
            {maxChip && from ? (
              <button
                type="button"
                className="rounded-full bg-white px-2 py-0.5 font-medium text-slate-700 ring-1 ring-slate-200 hover:ring-teal-600"
                onClick={() => onSendAmount(maxChip)}
              >
                {t('exchange.max', { amount: maxChip, coin: from.coin })}
              </button>
            ) : null}
          </div>
          {fresh && from && errors.includes('LIMIT_MIN') ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {t('exchange.belowMin', { min: quote.from.min, coin: from.coin })}
            </p>
          ) : null}
          {maxExceeded && from ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {t('exchange.exceeded', { max: quote.from.max, coin: from.coin })}
            </p>
          ) : null}
          {fresh && from && errors.includes('MAINTENANCE_FROM') ? (
            <p role="alert" className="mt-2 text-sm text-amber-800">
              {t('exchange.maintenance', { coin: from.coin })}
            </p>
          ) : null}
        </div>

        <div className="relative flex justify-center">
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="-my-6 rounded-full bg-white"
            aria-label={t('exchange.swap')}
            onClick={swap}
          >
            <ArrowDownUp aria-hidden="true" className="size-4" />
          </Button>
        </div>

        <div className="rounded-xl bg-slate-50 p-3">
          <label htmlFor={`${ids}-receive`} className="text-xs font-medium text-slate-600">
            {t('exchange.receive')}
          </label>
          <div className="mt-1 flex items-center gap-2">
            <input
              id={`${ids}-receive`}
              inputMode="decimal"
              autoComplete="off"
              value={receiveShown}
              readOnly={rateType !== 'fixed'}
              aria-readonly={rateType !== 'fixed'}
              onChange={(e) => onReceiveAmount(e.target.value)}
              className={cn(
                'min-w-0 flex-1 bg-transparent text-2xl font-semibold outline-none',
                rateType !== 'fixed' && 'text-slate-700',
              )}
              placeholder="0"
            />
            <CurrencyPicker
              label={t('exchange.receive')}
              value={to}
              currencies={list ?? []}
              onChange={(c) => {
                if (c.code === fromCode) setFromCode(toCode);
                setToCode(c.code);
                setAddressError(null);
              }}
            />
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
            {fresh && to ? <span>≈ ${quote.to.usd}</span> : null}
            {fresh && from && to && toNumber(quote.from.rate) ? (
              <span>
                {t('exchange.rateLine', { from: from.coin, rate: quote.from.rate, to: to.coin })}
              </span>
            ) : null}
            {quoteQuery.isFetching ? <span>{t('exchange.quoting')}</span> : null}
          </div>
          {fresh && quote.estimated ? (
            <p className="mt-2 text-xs font-medium text-amber-800">{t('exchange.estimated')}</p>
          ) : null}
          {fresh && to && errors.includes('MAINTENANCE_TO') ? (
            <p role="alert" className="mt-2 text-sm text-amber-800">
              {t('exchange.maintenance', { coin: to.coin })}
            </p>
          ) : null}
        </div>

        <div>
          <label htmlFor={`${ids}-address`} className="text-sm font-medium">
            {t('exchange.address')}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={`${ids}-address`}
              value={address}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setAddress(e.target.value);
                setAddressError(null);
              }}
              onBlur={() => void onAddressBlur()}
              aria-invalid={!!addressError}
              aria-describedby={addressError ? `${ids}-address-error` : undefined}
              placeholder={to ? t('exchange.addressPlaceholder', { coin: to.coin }) : ''}
              className={cn(
                'h-11 min-w-0 flex-1 rounded-lg border bg-white px-3 font-mono text-sm outline-none focus-visible:ring-2 focus-visible:ring-teal-600',
                addressError ? 'border-red-500' : 'border-slate-300',
              )}
            />
            <Button
              type="button"
              variant="outline"
              size="icon"
              aria-label={t('exchange.paste')}
              onClick={() => void paste()}
            >
              <ClipboardPaste aria-hidden="true" className="size-4" />
            </Button>
            <Button
              type="button"
              variant="outline"
              size="icon"
              aria-label={t('exchange.scan')}
              onClick={() => setScannerOpen(true)}
            >
              <ScanLine aria-hidden="true" className="size-4" />
            </Button>
          </div>
          {addressError ? (
            <p id={`${ids}-address-error`} role="alert" className="mt-1 text-sm text-red-700">
              {addressError}
            </p>
          ) : null}
          {samples && to && samples[to.code] ? (
            <button
              type="button"
              className="mt-1 text-xs font-medium text-teal-800 underline"
              onClick={() => {
                setAddress(samples[to.code] ?? '');
                setAddressError(null);
              }}
            >
              {t('exchange.sampleAddress', { coin: to.coin })}
            </button>
          ) : null}
        </div>

        {to && needsMemo(to) ? (
          <div>
            <label htmlFor={`${ids}-tag`} className="text-sm font-medium">
              {to.tag ?? t('exchange.memo')}
            </label>
            <input
              id={`${ids}-tag`}
              value={tag}
              autoComplete="off"
              onChange={(e) => setTag(e.target.value)}
              aria-describedby={`${ids}-tag-hint`}
              className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
            />
            <p id={`${ids}-tag-hint`} className="mt-1 text-xs text-slate-600">
              {t('exchange.memoHint')}
            </p>
          </div>
        ) : null}

        <div className="flex flex-wrap items-center justify-between gap-2">
          <div role="radiogroup" aria-label={t('exchange.rateType')} className="flex gap-4">
            {(['float', 'fixed'] as const).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${ids}-rate`}
                  value={value}
                  checked={rateType === value}
                  onChange={() => onRateType(value)}
                  className="accent-teal-700"
                />
                {value === 'float'
                  ? t('exchange.float', { fee: fees.float })
                  : t('exchange.fixed', { fee: fees.fixed })}
              </label>
            ))}
          </div>
          <RateTypeDialog floatFee={fees.float} fixedFee={fees.fixed} />
        </div>
      </fieldset>

      <Button
        type="submit"
        className="h-12 w-full text-base"
        disabled={busy || !from || !to}
        data-fee={fee}
      >
        {busy ? (
          <span className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent"
            />
            {t('exchange.creating')}
            <span className="text-sm opacity-90">{t('exchange.creatingStep', { step })}</span>
          </span>
        ) : (
          t('exchange.exchangeNow')
        )}
      </Button>
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
      {scannerOpen ? (
        <Suspense fallback={null}>
          <QrScannerDialog
            onClose={() => setScannerOpen(false)}
            onScan={(text) => {
              setAddress(text);
              setAddressError(null);
              setScannerOpen(false);
              notify(t('toast.qrScanned'));
            }}
            sample={
              to && samples?.[to.code]
                ? {
                    coin: to.coin,
                    address: samples[to.code] ?? '',
                    onUse: () => {
                      setAddress(samples[to.code] ?? '');
                      setAddressError(null);
                      setScannerOpen(false);
                    },
                  }
                : undefined
            }
          />
        </Suspense>
      ) : null}
    </form>
  );
}

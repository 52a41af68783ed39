// The destination address (spec/exchange.md §2, §5): typed, pasted, scanned from a QR code or,
// on a sandbox exchange, a published sample; checked on blur and before creation. Paid out over
// Lightning, it is an invoice, and once the server has checked it, what it asks for.
import type { TFunction } from 'i18next';
import { ClipboardPaste, ScanLine } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { notify } from '@/components/ui/toaster';
import { lazyWithTexts } from '@/lib/i18n';
import { cn } from '@/lib/utils';

import type { ExchangeFormAction, ExchangeFormState } from '../hooks/use-exchange-form';
import { type AddressProblem, networkLabel } from '../lib/address-rules';
import { isLightning } from '../lib/lightning';
import type { Currency } from '../types';

const QrScannerDialog = lazyWithTexts(() => import('./qr-scanner-dialog'));
// Core texts only: loaded with its module.
const InvoiceNote = lazy(() => import('./invoice-note'));

interface AddressFieldProps {
  state: ExchangeFormState;
  currency: Currency | undefined;
  samples: Record<string, string> | undefined;
  dispatch: (action: ExchangeFormAction) => void;
  onBlur: () => void;
}

/** The message for an address problem, in the words of §5. */
export function addressMessage(problem: AddressProblem, currency: Currency, t: TFunction): string {
  const vars = { coin: currency.coin, network: networkLabel(currency) };
  if (isLightning(currency)) {
    if (problem.kind === 'empty') return t('exchange.lightning.emptyInvoice');
    if (problem.kind !== 'invoice') return t('exchange.lightning.reasons.invoice_malformed');
  }
  switch (problem.kind) {
    case 'invoice':
      return problem.minutes
        ? t('exchange.lightning.reasons.invoice_expires_soon', problem.minutes)
        : t(`exchange.lightning.reasons.${problem.reason}`);
    case 'checksum':
      return t('exchange.checksum', { coin: currency.coin });
    case 'looksLike':
      return t('exchange.looksLike', {
        ...vars,
        other: problem.networkName,
        otherCoin: problem.coin,
      });
    case 'invalid':
      return t('exchange.invalidAddress', vars);
    case 'empty':
      return problem.variant === 'destination'
        ? t('exchange.emptyDestination', vars)
        : t('exchange.emptyAddress', vars);
  }
}

export function AddressField({ state, currency, samples, dispatch, onBlur }: AddressFieldProps) {
  const { t } = useTranslation();
  const ids = useId();
  const [scanning, setScanning] = useState(false);
  const lightning = isLightning(currency);
  const error =
    state.addressProblem && currency ? addressMessage(state.addressProblem, currency, t) : null;
  const sample = currency ? samples?.[currency.code] : undefined;
  const setAddress = (value: string) => dispatch({ type: 'addressChanged', value });
  const noteId = lightning && currency && !error ? `${ids}-address-note` : undefined;

  const paste = async () => {
    try {
      setAddress((await navigator.clipboard.readText()).trim());
      notify(lightning ? t('exchange.lightning.invoicePasted') : t('toast.addressPasted'));
    } catch {
      notify(t('toast.pasteFailed'), {
        description: t('toast.pasteFailedDescription'),
        variant: 'destructive',
      });
    }
  };

  return (
    <div>
      <label htmlFor={`${ids}-address`} className="text-sm font-medium">
        {lightning ? t('exchange.lightning.invoiceLabel') : t('exchange.address')}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={`${ids}-address`}
          value={state.address}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setAddress(e.target.value)}
          onBlur={onBlur}
          aria-invalid={!!error}
          aria-describedby={error ? `${ids}-address-error` : noteId}
          placeholder={
            lightning
              ? t('exchange.lightning.invoicePlaceholder')
              : currency
                ? t('exchange.addressPlaceholder', { coin: currency.coin })
                : ''
          }
          className={cn(
            'h-11 min-w-0 flex-1 rounded-lg border bg-white px-3 font-mono text-sm outline-none focus-visible:ring-2 focus-visible:ring-teal-600',
            error ? 'border-red-500' : 'border-slate-300',
          )}
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label={lightning ? t('exchange.lightning.pasteInvoice') : t('exchange.paste')}
          onClick={() => void paste()}
        >
          <ClipboardPaste aria-hidden="true" className="size-4" />
        </Button>
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label={t('exchange.scan')}
          onClick={() => setScanning(true)}
        >
          <ScanLine aria-hidden="true" className="size-4" />
        </Button>
      </div>
      {error ? (
        <p id={`${ids}-address-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {noteId && currency ? (
        <Suspense fallback={null}>
          <InvoiceNote id={noteId} invoice={state.invoice} coin={currency.coin} />
        </Suspense>
      ) : null}
      {currency && sample ? (
        <button
          type="button"
          className="inline-flex min-h-11 items-center text-xs font-medium text-teal-800 underline"
          onClick={() => setAddress(sample)}
        >
          {t('exchange.sampleAddress', { coin: currency.coin })}
        </button>
      ) : null}
      {scanning ? (
        <Suspense fallback={null}>
          <QrScannerDialog
            onClose={() => setScanning(false)}
            onScan={(text) => {
              setAddress(text);
              setScanning(false);
              notify(t('toast.qrScanned'));
            }}
            sample={
              currency && sample
                ? {
                    coin: currency.coin,
                    address: sample,
                    onUse: () => {
                      setAddress(sample);
                      setScanning(false);
                    },
                  }
                : undefined
            }
          />
        </Suspense>
      ) : null}
    </div>
  );
}

// The currency picker (spec/exchange.md §2): a button showing the coin; its searchable list
// loads on first use, so the command list is not in the landing page's bundle.
import { ChevronDown } from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Spinner } from '@/components/ui/spinner';
import { lazyWithTexts } from '@/lib/i18n';

import type { Currency } from '../types';
import { CoinIcon, NetworkBadge, networkBadge } from '@/components/coin-icon';

const CurrencyList = lazyWithTexts(() => import('./currency-list'));

interface Props {
  label: string;
  value: Currency | undefined;
  /** The list to choose from; undefined while it loads. */
  currencies: Currency[] | undefined;
  onChange: (currency: Currency) => void;
  disabled?: boolean;
}

export function CurrencyPicker({ label, value, currencies, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        disabled={disabled}
        aria-haspopup="listbox"
        aria-expanded={open}
        // The name starts with what the button shows (WCAG 2.5.3), then says which side it is.
        aria-label={`${label}: ${value ? `${value.coin} ${networkBadge(value.network)}` : t('exchange.chooseCurrency')}`}
        title={
          value
            ? t('exchange.selectedCurrency', { coin: value.coin, network: value.network })
            : undefined
        }
        onClick={() => setOpen((o) => !o)}
        className="flex h-12 min-w-32 items-center gap-2 rounded-lg border border-slate-200 bg-white px-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600 disabled:opacity-50"
      >
        {value ? (
          <>
            <CoinIcon coin={value.coin} logo={value.logo} />
            <span className="flex flex-col leading-tight">
              <span className="text-sm font-semibold">{value.coin}</span>{' '}
              <NetworkBadge network={value.network} />
            </span>
          </>
        ) : (
          <span className="text-sm">{t('exchange.chooseCurrency')}</span>
        )}
        <ChevronDown aria-hidden="true" className="ml-auto size-4 text-slate-500" />
      </button>
      {open ? (
        <div className="absolute right-0 z-50 mt-2 w-[min(22rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white shadow-xl">
          <Suspense fallback={<Spinner label={t('common.loading')} className="py-8" />}>
            <CurrencyList
              label={label}
              currencies={currencies ?? []}
              loading={!currencies}
              onSelect={(currency) => {
                onChange(currency);
                close();
              }}
              onEscape={close}
            />
          </Suspense>
        </div>
      ) : null}
    </div>
  );
}

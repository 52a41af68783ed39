// The searchable list inside the currency picker: popular coins first (up to 7), then all.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
  CommandLoading,
} from '@/components/ui/command';

import { POPULAR_CODES, POPULAR_LIMIT } from '../lib/constants';
import type { Currency } from '../types';
import { CoinIcon, NetworkBadge } from '@/components/coin-icon';

interface Props {
  label: string;
  currencies: Currency[];
  /** The list is on its way: say so rather than 'No cryptocurrency found.' */
  loading?: boolean;
  onSelect: (currency: Currency) => void;
  onEscape: () => void;
}

/**
 * Every typed word must appear in the coin's code, ticker, name or network; a match at the
 * start ranks first. (cmdk's default fuzzy scoring finds "qtum" for "qqqq", so the empty
 * state would almost never show.)
 */
export function matchCurrency(value: string, search: string): number {
  const haystack = value.toLowerCase();
  const words = search.toLowerCase().trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  if (!words.every((word) => haystack.includes(word))) return 0;
  return haystack.startsWith(words[0] ?? '') ? 1 : 0.5;
}

function Row({ currency, onSelect }: { currency: Currency; onSelect: (c: Currency) => void }) {
  return (
    <CommandItem
      value={`${currency.code} ${currency.coin} ${currency.name} ${currency.network}`}
      onSelect={() => onSelect(currency)}
    >
      <CoinIcon coin={currency.coin} logo={currency.logo} />
      <span className="flex flex-1 flex-col">
        <span className="font-medium">{currency.coin}</span>
        <span className="text-xs text-slate-600">{currency.name}</span>
      </span>
      <NetworkBadge network={currency.network} />
    </CommandItem>
  );
}

export default function CurrencyList({ label, currencies, loading, onSelect, onEscape }: Props) {
  const { t } = useTranslation();
  const search = useRef<HTMLInputElement>(null);
  // The list opens on a click: move the focus into its search box, as a menu would.
  useEffect(() => search.current?.focus(), []);
  const popular = POPULAR_CODES.map((code) => currencies.find((c) => c.code === code))
    .filter((c): c is Currency => !!c)
    .slice(0, POPULAR_LIMIT);
  return (
    <Command
      label={label}
      filter={matchCurrency}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onEscape();
        }
      }}
    >
      <CommandInput
        placeholder={t('exchange.searchCurrency')}
        aria-label={t('exchange.searchCurrency')}
        ref={search}
      />
      <CommandList>
        {loading ? (
          <CommandLoading>{t('exchange.loadingCurrencies')}</CommandLoading>
        ) : (
          <CommandEmpty>{t('exchange.noCurrency')}</CommandEmpty>
        )}
        <CommandGroup heading={t('exchange.popular')}>
          {popular.map((c) => (
            <Row key={`popular-${c.code}`} currency={c} onSelect={onSelect} />
          ))}
        </CommandGroup>
        <CommandGroup heading={t('exchange.allCurrencies')}>
          {currencies
            .filter((c) => !popular.includes(c))
            .map((c) => (
              <Row key={c.code} currency={c} onSelect={onSelect} />
            ))}
        </CommandGroup>
      </CommandList>
    </Command>
  );
}

// Markets (spec/accounts-and-pages.md §2.3): All/Favorites, search, the nine columns with a
// 7-day sparkline, sortable headers, the three messages, and where the data comes from.
import { ArrowDown, ArrowUp, Search, Star } from 'lucide-react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { inputClass } from '@/components/ui/input';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatDay, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { type MarketCoin, useCoins } from '../api/get-coins';
import { useFavorites } from '../lib/favorites';
import {
  formatBillions,
  formatChange,
  formatCountMillions,
  formatMillions,
  formatPrice,
  searchCoins,
  type SortKey,
  sortCoins,
  sparklinePoints,
} from '../lib/format';

function Sparkline({ prices, label }: { prices: number[]; label: string }) {
  const up = (prices.at(-1) ?? 0) >= (prices[0] ?? 0);
  return (
    <svg role="img" aria-label={label} viewBox="0 0 120 32" className="h-8 w-28">
      <polyline
        points={sparklinePoints(prices, 120, 32)}
        fill="none"
        strokeWidth="1.5"
        className={up ? 'stroke-teal-600' : 'stroke-red-600'}
      />
    </svg>
  );
}

function Change({ value, locale }: { value: number | null; locale: string }) {
  return (
    <span
      className={cn(
        value !== null && value > 0 && 'text-teal-700',
        value !== null && value < 0 && 'text-red-700',
      )}
    >
      {formatChange(value, locale)}
    </span>
  );
}

interface CoinRowProps {
  coin: MarketCoin;
  favorite: boolean;
  tradable: boolean;
  locale: string;
  onToggle: (id: string) => void;
}

/** One coin's row; unchanged rows are not rendered again when the list around them changes. */
const CoinRow = memo(function CoinRow({
  coin,
  favorite,
  tradable,
  locale,
  onToggle,
}: CoinRowProps) {
  const { t } = useTranslation();
  const symbol = coin.symbol.toUpperCase();
  return (
    <tr>
      <td className="px-2 py-3 sm:px-3">
        <button
          type="button"
          aria-pressed={favorite}
          aria-label={t(favorite ? 'markets.removeFavorite' : 'markets.addFavorite', {
            name: coin.name,
          })}
          onClick={() => onToggle(coin.id)}
          className="rounded p-1 hover:bg-slate-100"
        >
          <Star
            aria-hidden="true"
            className={cn('size-4', favorite ? 'fill-amber-400 text-amber-500' : 'text-slate-400')}
          />
        </button>
      </td>
      <td className="hidden px-3 py-3 text-right text-slate-600 sm:table-cell">
        {coin.market_cap_rank ?? '—'}
      </td>
      <td className="px-2 py-3 sm:px-3">
        <span className="flex items-center gap-2">
          {coin.image ? (
            <img
              src={coin.image}
              alt=""
              width={24}
              height={24}
              loading="lazy"
              className="size-6 rounded-full"
            />
          ) : null}
          {/* On a phone the symbol goes under the name, so that price and change fit beside. */}
          <span className="flex flex-col sm:flex-row sm:items-center sm:gap-2 sm:whitespace-nowrap">
            <span className="font-medium text-slate-900">{coin.name}</span>
            <span className="text-slate-600">{symbol}</span>
          </span>
          {tradable ? (
            <Link
              to={paths.exchangePair(symbol, symbol === 'BTC' ? 'ETH' : 'BTC')}
              className="hidden text-xs text-teal-800 underline sm:inline"
              aria-label={t('markets.exchangeCoin', { name: coin.name })}
            >
              {t('markets.exchange')}
            </Link>
          ) : null}
        </span>
      </td>
      <td className="px-2 py-3 text-right font-mono whitespace-nowrap sm:px-3">
        {formatPrice(coin.current_price, locale)}
      </td>
      <td className="px-2 py-3 text-right whitespace-nowrap sm:px-3">
        <Change value={coin.price_change_percentage_24h} locale={locale} />
      </td>
      <td className="px-3 py-3 text-right whitespace-nowrap">
        <Change value={coin.price_change_percentage_7d_in_currency} locale={locale} />
      </td>
      <td className="px-3 py-3 text-right whitespace-nowrap">
        {formatBillions(coin.market_cap, locale)}
      </td>
      <td className="px-3 py-3 text-right whitespace-nowrap">
        {formatMillions(coin.total_volume, locale)}
      </td>
      <td className="px-3 py-3 text-right whitespace-nowrap">{`${formatCountMillions(coin.circulating_supply, locale)} ${symbol}`}</td>
      <td className="px-3 py-3">
        {coin.sparkline_in_7d?.price.length ? (
          <Sparkline
            prices={coin.sparkline_in_7d.price}
            label={`${coin.name}: ${formatChange(coin.price_change_percentage_7d_in_currency, locale)}`}
          />
        ) : null}
      </td>
    </tr>
  );
});

/** `tradableCoins`: the tickers Ferry exchanges (upper case), which get an exchange link. */
export default function MarketsPage({ tradableCoins }: { tradableCoins: ReadonlySet<string> }) {
  const { t, i18n } = useTranslation();
  const coins = useCoins();
  const { favorites, toggle } = useFavorites();
  const [view, setView] = useState<'all' | 'favorites'>('all');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({
    key: 'market_cap_rank',
    ascending: true,
  });
  const locale = i18n.language;

  // `wide`: shown from the `sm` breakpoint on; on a phone the rank is the row's place anyway.
  const columns: { key: SortKey; label: string; numeric: boolean; wide?: boolean }[] = [
    { key: 'market_cap_rank', label: t('markets.columns.rank'), numeric: true, wide: true },
    { key: 'name', label: t('markets.columns.name'), numeric: false },
    { key: 'current_price', label: t('markets.columns.price'), numeric: true },
    { key: 'price_change_percentage_24h', label: t('markets.columns.change24h'), numeric: true },
    {
      key: 'price_change_percentage_7d_in_currency',
      label: t('markets.columns.change7d'),
      numeric: true,
    },
    { key: 'market_cap', label: t('markets.columns.marketCap'), numeric: true },
    { key: 'total_volume', label: t('markets.columns.volume'), numeric: true },
    { key: 'circulating_supply', label: t('markets.columns.supply'), numeric: true },
  ];

  const data = coins.data;
  const shown = useMemo(() => {
    if (!data) return null;
    const base =
      view === 'favorites' ? data.coins.filter((c) => favorites.includes(c.id)) : data.coins;
    return sortCoins(searchCoins(base, query), sort.key, sort.ascending);
  }, [data, view, favorites, query, sort]);
  // A hundred rows with charts take long to render: React renders them in the background, in
  // slices, so the page keeps answering while they arrive (and while someone types a search).
  const rows = useDeferredValue(shown);
  const sortBy = (key: SortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, ascending: !s.ascending }
        : { key, ascending: key === 'market_cap_rank' || key === 'name' },
    );

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-12">
      <PageMeta title={t('markets.title')} description={t('markets.subtitle')} />
      <header>
        <h1 className="text-4xl font-bold text-slate-900">{t('markets.title')}</h1>
        <p className="mt-2 text-slate-700">{t('markets.subtitle')}</p>
        {coins.data ? (
          <p className="mt-2 text-sm text-slate-600" data-testid="market-source">
            {coins.data.source === 'sample'
              ? t('markets.sample', {
                  date: formatDay(coins.data.as_of, locale) ?? coins.data.as_of,
                })
              : coins.data.stale
                ? t('markets.stale', { time: formatTime(coins.data.fetched_at ?? 0, locale) })
                : t('markets.live', { time: formatTime(coins.data.fetched_at ?? 0, locale) })}
          </p>
        ) : null}
      </header>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div
          role="group"
          aria-label={t('markets.title')}
          className="inline-flex rounded-lg bg-slate-100 p-1"
        >
          {(['all', 'favorites'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={cn(
                'rounded-md px-4 py-1.5 text-sm font-medium',
                view === v ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700',
              )}
            >
              {v === 'all' ? t('markets.all') : t('markets.favorites')}
            </button>
          ))}
        </div>
        <label className="relative w-full sm:w-72">
          <span className="sr-only">{t('markets.search')}</span>
          <Search
            aria-hidden="true"
            className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
          />
          <input
            type="search"
            className={cn(inputClass, 'pl-9')}
            placeholder={t('markets.search')}
            value={query}
            maxLength={50}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
      </div>

      {coins.isPending || (shown && !rows) ? (
        <p role="status" className="py-10 text-center text-slate-600">
          {t('markets.loading')}
        </p>
      ) : null}
      {coins.error ? (
        <p role="alert" className="py-10 text-center text-red-700">
          {t('markets.error')}
        </p>
      ) : null}
      {rows ? (
        rows.length === 0 ? (
          <p className="rounded-xl border border-slate-200 bg-white p-8 text-center text-slate-700">
            {t('markets.empty')}
            {view === 'favorites' && favorites.length === 0 ? (
              <span className="mt-1 block text-sm">{t('markets.noFavorites')}</span>
            ) : null}
          </p>
        ) : (
          <Card padding="none" className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-2 py-3 text-left font-medium sm:px-3">
                    <span className="sr-only">{t('markets.columns.favorite')}</span>
                  </th>
                  {columns.map((column) => (
                    <th
                      key={column.key}
                      scope="col"
                      aria-sort={
                        sort.key === column.key
                          ? sort.ascending
                            ? 'ascending'
                            : 'descending'
                          : 'none'
                      }
                      className={cn(
                        'px-2 py-3 font-medium whitespace-nowrap sm:px-3',
                        column.numeric ? 'text-right' : 'text-left',
                        column.wide && 'hidden sm:table-cell',
                      )}
                    >
                      <button
                        type="button"
                        onClick={() => sortBy(column.key)}
                        aria-label={t('markets.sortBy', { column: column.label })}
                        className="inline-flex items-center gap-1 hover:text-slate-900"
                      >
                        {column.label}
                        {sort.key === column.key ? (
                          sort.ascending ? (
                            <ArrowUp aria-hidden="true" className="size-3" />
                          ) : (
                            <ArrowDown aria-hidden="true" className="size-3" />
                          )
                        ) : null}
                      </button>
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-3 text-left font-medium">
                    {t('markets.columns.chart')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((coin) => (
                  <CoinRow
                    key={coin.id}
                    coin={coin}
                    favorite={favorites.includes(coin.id)}
                    tradable={tradableCoins.has(coin.symbol.toUpperCase())}
                    locale={locale}
                    onToggle={toggle}
                  />
                ))}
              </tbody>
            </table>
          </Card>
        )
      ) : null}
    </div>
  );
}

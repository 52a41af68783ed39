// /exchange/all-pairs: every pair a customer can trade now, searchable, linking to pair pages.
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

import { useCurrencies } from '../api/get-currencies';
import type { Currency } from '../types';
import { CoinIcon, networkBadge } from '@/components/coin-icon';

const PAGE = 60;

const label = (c: Currency) => `${c.coin} (${networkBadge(c.network)})`;

export default function AllPairsPage() {
  const { t } = useTranslation();
  const { data } = useCurrencies();
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(PAGE);
  const deferred = useDeferredValue(query);

  const pairs = useMemo(() => {
    const list = data?.list ?? [];
    const senders = list.filter((c) => c.send === 1);
    const receivers = list.filter((c) => c.recv === 1);
    return senders.flatMap((from) =>
      receivers.filter((to) => to.code !== from.code).map((to) => [from, to] as const),
    );
  }, [data]);

  const matches = useMemo(() => {
    const words = deferred
      .toLowerCase()
      .split(/[\s/→>-]+/)
      .filter(Boolean);
    if (words.length === 0) return pairs;
    return pairs.filter(([from, to]) => {
      const text = [from, to]
        .map((c) => `${c.code} ${c.coin} ${c.name} ${c.network} ${c.networkName ?? ''}`)
        .join(' ')
        .toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }, [pairs, deferred]);

  if (!data) {
    return (
      <>
        <PageMeta title={t('allPairs.title')} />
        <Spinner label={t('common.loading')} />
      </>
    );
  }
  return (
    <section className="mx-auto max-w-4xl px-4 py-10">
      <PageMeta
        title={t('allPairs.title')}
        description={t('allPairs.description', { count: pairs.length })}
      />
      <h1 className="text-3xl font-semibold">{t('allPairs.title')}</h1>
      <p className="mt-2 text-slate-700">{t('allPairs.description', { count: pairs.length })}</p>
      <label htmlFor="pair-search" className="mt-6 block text-sm font-medium">
        {t('allPairs.search')}
      </label>
      <input
        id="pair-search"
        type="search"
        value={query}
        placeholder={t('allPairs.placeholder')}
        onChange={(e) => {
          setQuery(e.target.value);
          setShown(PAGE);
        }}
        className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm"
      />
      <p className="mt-3 text-sm text-slate-600" aria-live="polite">
        {t('allPairs.count', { count: matches.length })}
      </p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {matches.slice(0, shown).map(([from, to]) => (
          <li key={`${from.code}-${to.code}`}>
            <Link
              to={paths.exchangePair(from.code, to.code)}
              className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm hover:border-teal-600"
            >
              <CoinIcon coin={from.coin} logo={from.logo} />
              <CoinIcon coin={to.coin} logo={to.logo} className="-ml-3" />
              <span className="font-medium">
                {t('allPairs.pair', { from: label(from), to: label(to) })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {matches.length > shown ? (
        <Button variant="outline" className="mt-4" onClick={() => setShown((n) => n + PAGE)}>
          {t('allPairs.more')}
        </Button>
      ) : null}
    </section>
  );
}

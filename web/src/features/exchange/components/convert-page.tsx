// /convert: a quick converter on live quotes, with a link to exchange the pair. The figure is
// the live quote of what is on screen: "…" while it comes, a message if it cannot.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

import { useCurrencies } from '../api/get-currencies';
import { type LiveQuote, useLiveQuote } from '../hooks/use-live-quote';
import { isAmountInput } from '../lib/amount';
import { CurrencyPicker } from './currency-picker';

function Converted({ live, coin }: { live: LiveQuote; coin: string }) {
  const { t } = useTranslation();
  if (live.quote) return <>{`${live.quote.to.amount} ${coin}`}</>;
  if (live.error) return <span className="text-base text-red-700">{t('convert.failed')}</span>;
  return <span aria-busy={live.pending}>…</span>;
}

export default function ConvertPage() {
  const { t } = useTranslation();
  const { data } = useCurrencies();
  const list = data?.list;
  const [amount, setAmount] = useState('1');
  const [fromCode, setFromCode] = useState('BTC');
  const [toCode, setToCode] = useState('USDTTRC');
  const from = list?.find((c) => c.code === fromCode);
  const to = list?.find((c) => c.code === toCode);
  const live = useLiveQuote(
    { from: fromCode, to: toCode, amount, direction: 'from', type: 'float' },
    list ?? [],
  );

  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <PageMeta title={t('convert.title')} description={t('convert.description')} />
      <h1 className="text-3xl font-semibold">{t('convert.title')}</h1>
      <p className="mt-2 text-slate-700">{t('convert.description')}</p>
      <Card className="mt-6 space-y-4">
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <label htmlFor="convert-amount" className="text-sm font-medium">
              {t('exchange.amount')}
            </label>
            <input
              id="convert-amount"
              inputMode="decimal"
              value={amount}
              onChange={(e) => isAmountInput(e.target.value) && setAmount(e.target.value)}
              className="mt-1 h-12 w-full rounded-lg border border-slate-300 px-3 text-lg font-semibold"
            />
          </div>
          <CurrencyPicker
            label={t('exchange.send')}
            value={from}
            currencies={list}
            onChange={(c) => setFromCode(c.code)}
          />
        </div>
        <div className="flex items-center justify-between gap-2">
          <p className="text-2xl font-semibold" aria-live="polite" data-testid="converted">
            <Converted live={live} coin={to?.coin ?? ''} />
          </p>
          <CurrencyPicker
            label={t('exchange.receive')}
            value={to}
            currencies={list}
            onChange={(c) => setToCode(c.code)}
          />
        </div>
        {live.quote?.estimated ? (
          <p className="text-xs text-amber-800">{t('exchange.estimated')}</p>
        ) : null}
        <p className="text-xs text-slate-600">{t('convert.note')}</p>
        {from && to && from.code !== to.code ? (
          <Link
            to={paths.exchangePair(from.code, to.code)}
            className={buttonVariants({ className: 'w-full' })}
          >
            {t('convert.exchange', { from: from.coin, to: to.coin })}
          </Link>
        ) : null}
      </Card>
    </section>
  );
}

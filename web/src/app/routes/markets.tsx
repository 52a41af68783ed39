// /markets: the market table, with exchange links for the coins Ferry swaps (the currency
// list belongs to the exchange feature, the table to markets: they meet here). The table's
// own chunk loads lazily, under its own name (the server preloads it for /markets).
import { useMemo } from 'react';

import { useCurrencies } from '@/features/exchange/api/get-currencies';
import { lazyWithTexts } from '@/lib/i18n';

const MarketsPage = lazyWithTexts(() => import('@/features/markets/components/markets-page'));

export function MarketsRoute() {
  const { data } = useCurrencies();
  const tradable = useMemo(
    () => new Set((data?.list ?? []).map((c) => c.coin.toUpperCase())),
    [data],
  );
  return <MarketsPage tradableCoins={tradable} />;
}

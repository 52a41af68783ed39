// `GET /api/coins`: coins with CoinGecko's field names (spec/accounts-and-pages.md §3).
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface MarketCoin {
  id: string;
  symbol: string;
  name: string;
  image: string | null;
  market_cap_rank: number | null;
  current_price: number | null;
  price_change_percentage_24h: number | null;
  price_change_percentage_7d_in_currency: number | null;
  market_cap: number | null;
  total_volume: number | null;
  circulating_supply: number | null;
  sparkline_in_7d?: { price: number[] } | null;
}

export interface CoinList {
  source: 'live' | 'sample';
  fetched_at: number | null;
  as_of: string | null;
  stale: boolean;
  coins: MarketCoin[];
}

export const coinsQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/coins'],
    queryFn: () => api.get<CoinList>('/api/coins'),
    refetchInterval: 120_000,
  });

export function useCoins() {
  return useQuery(coinsQueryOptions());
}

// `GET /api/site-stats`: what the exchange has done, counted by the server over its completed
// orders. The trust section shows these figures or none — never a made-up one.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export interface SiteStats {
  completed_orders: number;
  /** US dollars, a decimal string. */
  volume_usd: string;
}

/** Failures are only logged: the section then shows no figure. */
export async function getSiteStats(): Promise<SiteStats | null> {
  try {
    return await api.get<SiteStats>('/api/site-stats');
  } catch (error) {
    console.warn('Could not load the site statistics', error);
    return null;
  }
}

export const siteStatsQueryOptions = () =>
  queryOptions({ queryKey: ['/api/site-stats'], queryFn: getSiteStats, staleTime: 60_000 });

export function useSiteStats() {
  return useQuery(siteStatsQueryOptions());
}

/** Figures worth showing: a new exchange, with nothing completed, has none. */
export function shownStats(stats: SiteStats | null | undefined): SiteStats | null {
  return stats && stats.completed_orders > 0 ? stats : null;
}

// The operator's public settings (`GET /api/config`), written into the page by the server.
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from './api-client';

export interface SiteConfig {
  site_name: string;
  support_email: string;
  company_name: string;
  company_address: string | null;
  /** Where the operator runs a token presale, if anywhere. */
  presale_url: string | null;
  public_url: string;
  fees: { float_percent: string; fixed_percent: string };
  languages: string[];
  default_language: string;
  sandbox: boolean;
  /** The year the home page says the service is trusted since. */
  trusted_since: number;
  /** The operator's support hours in their words ("Mon–Fri 9:00–20:00 EST"), if set. */
  support_hours?: string | null;
  /** Only when the operator says support answers around the clock. */
  support_always_open?: boolean;
}

/** The settings the server writes into the page (`<meta name="ferry-config">`), if any. */
export function embeddedSiteConfig(): SiteConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const content = document.querySelector('meta[name="ferry-config"]')?.getAttribute('content');
  if (!content) return undefined;
  try {
    return JSON.parse(content) as SiteConfig;
  } catch {
    return undefined;
  }
}

export const siteConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/config'],
    queryFn: () => api.get<SiteConfig>('/api/config'),
    // Known from the first paint when the server wrote it into the page: nothing shifts when
    // the fees, the site name or the sandbox banner arrive.
    initialData: embeddedSiteConfig,
  });

export function useSiteConfig() {
  return useQuery(siteConfigQueryOptions());
}

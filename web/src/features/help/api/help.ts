// The help centre's articles and its search (`/api/content/help`, `/api/help/search`).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import type { DocumentSummary } from '@/features/site/api/get-document';
import { api } from '@/lib/api-client';

export const HELP_CATEGORIES = ['getting-started', 'exchanges', 'wallets-security'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];

export interface SearchHit extends DocumentSummary {
  excerpt: string;
}

export const articlesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/content/help'],
    queryFn: () => api.get<{ items: DocumentSummary[] }>('/api/content/help').then((a) => a.items),
  });

export function useArticles() {
  return useQuery(articlesQueryOptions());
}

export function useHelpSearch(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: ['/api/help/search', q],
    queryFn: () =>
      api
        .get<{ items: SearchHit[] }>(`/api/help/search?q=${encodeURIComponent(q)}`)
        .then((a) => a.items),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

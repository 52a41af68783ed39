// The help centre's articles and its search (`/api/content/help`, `/api/help/search`).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import type { DocumentSummary } from '@/lib/documents';
import { api } from '@/lib/api-client';

export const HELP_CATEGORIES = ['getting-started', 'exchanges', 'wallets-security'] as const;
export type HelpCategory = (typeof HELP_CATEGORIES)[number];

export interface SearchHit extends DocumentSummary {
  excerpt: string;
}

// Articles come in the reader's language where they are translated, else in English.
export const articlesQueryOptions = (language: string) =>
  queryOptions({
    queryKey: ['/api/content/help', language],
    queryFn: () =>
      api
        .get<{ items: DocumentSummary[] }>(`/api/content/help?lang=${encodeURIComponent(language)}`)
        .then((a) => a.items),
  });

export function useArticles() {
  const { i18n } = useTranslation();
  return useQuery(articlesQueryOptions(i18n.language));
}

export function useHelpSearch(query: string) {
  const { i18n } = useTranslation();
  const q = query.trim();
  const language = i18n.language;
  return useQuery({
    queryKey: ['/api/help/search', q, language],
    queryFn: () =>
      api
        .get<{
          items: SearchHit[];
        }>(`/api/help/search?q=${encodeURIComponent(q)}&lang=${encodeURIComponent(language)}`)
        .then((a) => a.items),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

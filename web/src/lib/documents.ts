import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { api } from './api-client';

/** A document of `content/`, rendered by the server (trusted: it ships with Ferry). */
export interface DocumentSummary {
  slug: string;
  title: string;
  summary: string | null;
  category: string | null;
  updated: string | null;
  date: string | null;
  tags: string[];
  author: string | null;
  popular: boolean;
  /** The language the document is in: the reader's where it is translated, else English. */
  language: string;
}

export interface SiteDocument extends DocumentSummary {
  html: string;
}

export const documentQueryOptions = (collection: string, slug: string, language: string) =>
  queryOptions({
    queryKey: [`/api/content/${collection}/${slug}`, language],
    queryFn: () =>
      api.get<SiteDocument>(
        `/api/content/${collection}/${slug}?lang=${encodeURIComponent(language)}`,
      ),
  });

/** The document in the reader's language where it is translated. */
export function useDocument(collection: string, slug: string) {
  const { i18n } = useTranslation();
  return useQuery(documentQueryOptions(collection, slug, i18n.language));
}

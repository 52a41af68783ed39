import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

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
}

export interface SiteDocument extends DocumentSummary {
  language: string;
  html: string;
}

export const documentQueryOptions = (collection: string, slug: string) =>
  queryOptions({
    queryKey: [`/api/content/${collection}/${slug}`],
    queryFn: () => api.get<SiteDocument>(`/api/content/${collection}/${slug}`),
  });

export function useDocument(collection: string, slug: string) {
  return useQuery(documentQueryOptions(collection, slug));
}

import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** A document of `content/`, rendered by the server (trusted: it ships with Ferry). */
export interface SiteDocument {
  slug: string;
  title: string;
  updated: string | null;
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

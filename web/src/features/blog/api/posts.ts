// The blog's listing: a page of posts, optionally one category's or one tag's.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import type { DocumentSummary } from '@/lib/documents';
import { api } from '@/lib/api-client';

export interface PostPage {
  items: DocumentSummary[];
  total: number;
  page: number;
  pages: number;
}

export interface PostFilter {
  category?: string | undefined;
  tag?: string | undefined;
  page: number;
}

export function usePosts(filter: PostFilter) {
  const { i18n } = useTranslation();
  const params = new URLSearchParams({ page: String(filter.page), lang: i18n.language });
  if (filter.category) params.set('category', filter.category);
  if (filter.tag) params.set('tag', filter.tag);
  const path = `/api/content/blog?${params.toString()}`;
  return useQuery({
    queryKey: [path],
    queryFn: () => api.get<PostPage>(path),
    placeholderData: keepPreviousData,
  });
}

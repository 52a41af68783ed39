// The blog: `/blog`, `/blog/category/{category}` and `/blog/tag/{tag}` list the posts newest
// first, six to a page; `/blog/{slug}` shows one post.
import { Rss } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { DocumentSummary } from '@/lib/documents';
import { DocumentPage } from '@/components/document-page';
import { Card } from '@/components/ui/card';
import { formatDay } from '@/lib/format';
import { cn } from '@/lib/utils';

import { usePosts } from '../api/posts';

const CATEGORIES = ['guides', 'security', 'education', 'news'] as const;

function isCategory(value: string | undefined): value is (typeof CATEGORIES)[number] {
  return (CATEGORIES as readonly (string | undefined)[]).includes(value);
}

function PostMeta({ post }: { post: DocumentSummary }) {
  const { t, i18n } = useTranslation();
  const day = formatDay(post.date, i18n.language);
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
      {day ? <time dateTime={post.date ?? undefined}>{day}</time> : null}
      {isCategory(post.category ?? undefined) ? (
        <Link
          to={paths.blogCategory(post.category ?? '')}
          className="font-medium text-teal-800 underline"
        >
          {t(`blog.categories.${post.category as (typeof CATEGORIES)[number]}`)}
        </Link>
      ) : null}
      {post.author ? <span>{t('blog.by', { author: post.author })}</span> : null}
    </p>
  );
}

function Tags({ tags }: { tags: string[] }) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <ul aria-label={t('blog.tags')} className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={paths.blogTag(tag)}
            className="rounded-full bg-slate-100 px-3 py-1 text-xs text-slate-700 hover:bg-slate-200"
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function BlogListPage() {
  const { t, i18n } = useTranslation();
  const { category, tag } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const posts = usePosts({ category, tag, page });
  const title =
    category && isCategory(category)
      ? t('blog.categoryTitle', { category: t(`blog.categories.${category}`) })
      : tag
        ? t('blog.tagTitle', { tag })
        : t('blog.title');

  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-12">
      <PageMeta title={title} description={t('blog.subtitle')} />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-4xl font-bold text-slate-900">{title}</h1>
          <p className="mt-2 text-slate-700">{t('blog.subtitle')}</p>
          {/* Said only when a post is not yet translated into the reader's language. */}
          {posts.data?.items.some((post) => !i18n.language.startsWith(post.language)) ? (
            <p className="mt-1 text-xs text-slate-600">{t('blog.englishNote')}</p>
          ) : null}
        </div>
        <a href="/blog/rss.xml" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          <Rss aria-hidden="true" className="size-4" />
          {t('blog.rss')}
        </a>
      </header>
      <nav aria-label={t('blog.title')} className="flex flex-wrap gap-2">
        <Link
          to={paths.blog}
          className={cn(
            'rounded-full px-4 py-1.5 text-sm',
            !category && !tag
              ? 'bg-teal-700 text-white'
              : 'bg-white text-slate-700 ring-1 ring-slate-200',
          )}
        >
          {t('blog.all')}
        </Link>
        {CATEGORIES.map((c) => (
          <Link
            key={c}
            to={paths.blogCategory(c)}
            aria-current={category === c ? 'page' : undefined}
            className={cn(
              'rounded-full px-4 py-1.5 text-sm',
              category === c
                ? 'bg-teal-700 text-white'
                : 'bg-white text-slate-700 ring-1 ring-slate-200',
            )}
          >
            {t(`blog.categories.${c}`)}
          </Link>
        ))}
      </nav>
      {posts.isPending ? <Spinner label={t('common.loading')} /> : null}
      {posts.error ? <p role="alert">{t('blog.failed')}</p> : null}
      {posts.data ? (
        posts.data.items.length === 0 ? (
          <p className="text-slate-700">{t('blog.empty')}</p>
        ) : (
          <>
            <ul className="grid gap-6 md:grid-cols-2">
              {posts.data.items.map((post) => (
                <Card as="li" padding="lg" key={post.slug} className="flex flex-col gap-3">
                  <PostMeta post={post} />
                  <h2 className="text-xl font-semibold text-slate-900">
                    <Link to={paths.blogPost(post.slug)} className="hover:underline">
                      {post.title}
                    </Link>
                  </h2>
                  {post.summary ? <p className="text-slate-700">{post.summary}</p> : null}
                  <Tags tags={post.tags} />
                  <Link
                    to={paths.blogPost(post.slug)}
                    className="mt-auto text-sm font-medium text-teal-800 underline"
                    aria-label={`${t('blog.readMore')}: ${post.title}`}
                  >
                    {t('blog.readMore')}
                  </Link>
                </Card>
              ))}
            </ul>
            {posts.data.pages > 1 ? (
              <nav
                aria-label={t('blog.page', { page: posts.data.page, pages: posts.data.pages })}
                className="flex items-center justify-between gap-3"
              >
                <button
                  type="button"
                  disabled={posts.data.page <= 1}
                  onClick={() => setParams({ page: String(posts.data.page - 1) })}
                  className={buttonVariants({ variant: 'outline' })}
                >
                  {t('blog.newer')}
                </button>
                <span className="text-sm text-slate-600">
                  {t('blog.page', { page: posts.data.page, pages: posts.data.pages })}
                </span>
                <button
                  type="button"
                  disabled={posts.data.page >= posts.data.pages}
                  onClick={() => setParams({ page: String(posts.data.page + 1) })}
                  className={buttonVariants({ variant: 'outline' })}
                >
                  {t('blog.older')}
                </button>
              </nav>
            ) : null}
          </>
        )
      ) : null}
    </div>
  );
}

export function BlogPostPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  return (
    <DocumentPage
      key={slug}
      collection="blog"
      slug={slug}
      englishNote={t('blog.englishNote')}
      header={
        <Link
          to={paths.blog}
          className="mb-4 inline-block text-sm font-medium text-teal-800 underline"
        >
          ← {t('blog.back')}
        </Link>
      }
      footer={(post) => (
        <div className="mt-10 space-y-4 border-t border-slate-200 pt-6">
          <PostMeta post={post} />
          <Tags tags={post.tags} />
        </div>
      )}
    />
  );
}

// A page made of one of Ferry's Markdown documents (terms, privacy, help articles, blog posts).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { Spinner } from '@/components/ui/spinner';
import { type SiteDocument, useDocument } from '@/lib/documents';
import { formatDay } from '@/lib/format';

export function DocumentPage({
  collection,
  slug,
  header,
  footer,
  englishNote,
}: {
  collection: string;
  slug: string;
  /** Above the title (a breadcrumb). */
  header?: ReactNode;
  /** Below the text (related links). */
  footer?: (document: SiteDocument) => ReactNode;
  /** What to say in other languages; the legal pages' note by default. */
  englishNote?: string;
}) {
  const { t, i18n } = useTranslation();
  const { data, error, isPending } = useDocument(collection, slug);
  if (isPending) return <Spinner label={t('common.loading')} />;
  if (error || !data) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-16">
        <p role="alert">{t('document.failed')}</p>
      </section>
    );
  }
  const updated = formatDay(data.updated ?? data.date, i18n.language);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <PageMeta title={data.title} {...(data.summary ? { description: data.summary } : {})} />
      {header}
      <h1 className="text-3xl font-bold">{data.title}</h1>
      {updated ? (
        <p className="mt-2 text-sm text-slate-600">{t('document.updated', { date: updated })}</p>
      ) : null}
      {!i18n.language.startsWith(data.language) ? (
        <p lang={i18n.language} className="mt-4 rounded-lg bg-slate-100 p-3 text-sm">
          {englishNote ?? t('document.englishOnly')}
        </p>
      ) : null}
      <div
        lang={data.language}
        className="document mt-8"
        // Rendered on the server from Ferry's own Markdown, with raw HTML removed.
        dangerouslySetInnerHTML={{ __html: data.html }}
      />
      {footer?.(data)}
    </article>
  );
}

// A page made of one of Ferry's Markdown documents (terms, privacy; later help and blog).
import { useTranslation } from 'react-i18next';

import { PageMeta } from '@/components/seo/page-meta';
import { Spinner } from '@/components/ui/spinner';

import { useDocument } from '../api/get-document';

export function DocumentPage({ collection, slug }: { collection: string; slug: string }) {
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
  const updated = data.updated
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${data.updated}T00:00:00Z`),
      )
    : null;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <PageMeta title={data.title} />
      <h1 className="text-3xl font-bold">{data.title}</h1>
      {updated ? (
        <p className="mt-2 text-sm text-slate-600">{t('document.updated', { date: updated })}</p>
      ) : null}
      {!i18n.language.startsWith(data.language) ? (
        <p lang={i18n.language} className="mt-4 rounded-lg bg-slate-100 p-3 text-sm">
          {t('document.englishOnly')}
        </p>
      ) : null}
      <div
        lang={data.language}
        className="document mt-8"
        // Rendered on the server from Ferry's own Markdown, with raw HTML removed.
        dangerouslySetInnerHTML={{ __html: data.html }}
      />
    </article>
  );
}

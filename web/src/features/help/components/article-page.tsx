// A help article (`/help/articles/{slug}`): the Markdown from `content/help`, a way back to the
// help centre, related articles of the same category and a way to contact support.
import { ChevronLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { DocumentPage } from '@/components/document-page';

import { useArticles } from '../api/help';

export default function ArticlePage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  const articles = useArticles();
  return (
    <DocumentPage
      key={slug}
      collection="help"
      slug={slug}
      englishNote={t('help.englishNote')}
      header={
        <Link
          to={paths.help}
          className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-teal-800 underline"
        >
          <ChevronLeft aria-hidden="true" className="size-4" />
          {t('help.back')}
        </Link>
      }
      footer={(article) => {
        const related = (articles.data ?? [])
          .filter((a) => a.category === article.category && a.slug !== article.slug)
          .slice(0, 5);
        return (
          <div className="mt-12 space-y-8 border-t border-slate-200 pt-8">
            {related.length > 0 ? (
              <section aria-labelledby="related-articles">
                <h2 id="related-articles" className="text-lg font-semibold">
                  {t('help.related')}
                </h2>
                <ul className="mt-3 space-y-2">
                  {related.map((a) => (
                    <li key={a.slug}>
                      <Link to={paths.helpArticle(a.slug)} className="text-teal-800 underline">
                        {a.title}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            <div className="flex flex-wrap items-center gap-3 rounded-xl bg-slate-100 p-4">
              <p className="text-slate-700">{t('help.articleFooter')}</p>
              <Link
                to={paths.contact}
                className={buttonVariants({ variant: 'outline', size: 'sm' })}
              >
                {t('help.contact')}
              </Link>
            </div>
          </div>
        );
      }}
    />
  );
}

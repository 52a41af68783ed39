// The help centre (spec/accounts-and-pages.md §2.4): a search over the articles, the three
// category cards, the Popular Guides / Video Tutorials / FAQ tabs, and Contact Support.
import { BookOpen, LifeBuoy, Search, ShieldCheck } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { buttonVariants } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Card } from '@/components/ui/card';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import type { DocumentSummary } from '@/lib/documents';
import { cn } from '@/lib/utils';

import { HELP_CATEGORIES, useArticles, useHelpSearch } from '../api/help';

const ICONS = { 'getting-started': BookOpen, exchanges: LifeBuoy, 'wallets-security': ShieldCheck };
/** The step-by-step walkthroughs offered instead of videos. */
const WALKTHROUGHS = ['first-exchange', 'setup-2fa', 'track-exchange', 'wallet-verification'];

function ArticleLink({ article }: { article: DocumentSummary }) {
  return (
    <Link
      to={paths.helpArticle(article.slug)}
      className="inline-flex min-h-11 items-center text-teal-800 underline-offset-2 hover:underline"
    >
      {article.title}
    </Link>
  );
}

export default function HelpPage() {
  const { t, i18n } = useTranslation();
  const articles = useArticles();
  // Said only when some article is not yet translated into the reader's language.
  const someInEnglish = articles.data?.some((a) => !i18n.language.startsWith(a.language));
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const search = useHelpSearch(deferred);

  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-12">
      <PageMeta title={t('help.title')} description={t('help.subtitle')} />
      <header className="rounded-3xl bg-gradient-to-b from-teal-50 to-white px-6 py-10 text-center">
        <h1 className="text-4xl font-bold text-slate-900">{t('help.title')}</h1>
        <p className="mt-3 text-slate-700">{t('help.subtitle')}</p>
        <label className="relative mx-auto mt-6 block max-w-xl">
          <span className="sr-only">{t('help.search')}</span>
          <Search
            aria-hidden="true"
            className="absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500"
          />
          <input
            type="search"
            className={cn(inputClass, 'h-12 pl-10')}
            placeholder={t('help.searchPlaceholder')}
            value={query}
            maxLength={200}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        {someInEnglish ? (
          <p className="mt-3 text-xs text-slate-600">{t('help.englishNote')}</p>
        ) : null}
      </header>

      {query.trim() ? (
        <section aria-live="polite" aria-label={t('help.search')} className="space-y-3">
          {search.isPending ? (
            <p className="text-slate-600">{t('help.searching')}</p>
          ) : search.data && search.data.length > 0 ? (
            <>
              <p className="text-sm text-slate-600">
                {t('help.results', { count: search.data.length })}
              </p>
              <ul className="space-y-3">
                {search.data.map((hit) => (
                  <Card as="li" padding="sm" key={hit.slug}>
                    <ArticleLink article={hit} />
                    <p className="mt-1 text-sm text-slate-600">{hit.excerpt}</p>
                  </Card>
                ))}
              </ul>
            </>
          ) : (
            <p className="rounded-xl border border-slate-200 bg-white p-4 text-slate-700">
              {t('help.noResults', { query: query.trim() })}
            </p>
          )}
        </section>
      ) : null}

      {articles.isPending ? (
        // A screen's height, so the sections below stay below the fold until the list is in.
        <div className="min-h-screen">
          <Spinner label={t('common.loading')} />
        </div>
      ) : null}
      {articles.error ? <p role="alert">{t('help.failed')}</p> : null}
      {articles.data ? (
        <>
          <div className="grid gap-6 md:grid-cols-3">
            {HELP_CATEGORIES.map((category) => {
              const Icon = ICONS[category];
              const inCategory = articles.data.filter((a) => a.category === category);
              return (
                <Card as="section" padding="lg" key={category} aria-labelledby={`help-${category}`}>
                  <Icon aria-hidden="true" className="size-8 text-teal-700" />
                  <h2 id={`help-${category}`} className="mt-3 text-xl font-semibold text-slate-900">
                    {t(`help.categories.${category}`)}
                  </h2>
                  <p className="mt-1 text-sm text-slate-600">
                    {t(`help.categoryText.${category}`)}
                  </p>
                  <ul className="mt-2 text-sm">
                    {inCategory.map((article) => (
                      <li key={article.slug}>
                        <ArticleLink article={article} />
                      </li>
                    ))}
                  </ul>
                </Card>
              );
            })}
          </div>
          <HelpTabs articles={articles.data} />
        </>
      ) : null}

      <section className="flex flex-col items-center gap-3 rounded-2xl bg-slate-900 px-6 py-10 text-center text-white">
        <h2 className="text-2xl font-semibold">{t('help.contactTitle')}</h2>
        <p className="text-slate-200">{t('help.contactText')}</p>
        <Link
          to={paths.contact}
          // The outline button is a light button with dark text (dark with light text in the
          // dark theme): it stands out on this dark block either way.
          className={buttonVariants({ variant: 'outline', className: 'mt-2' })}
        >
          {t('help.contact')}
        </Link>
      </section>
    </div>
  );
}

type Tab = 'popular' | 'videos' | 'faq';

function HelpTabs({ articles }: { articles: DocumentSummary[] }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('popular');
  const tabs: Tab[] = ['popular', 'videos', 'faq'];
  const bySlug = (slugs: string[]) =>
    slugs
      .map((s) => articles.find((a) => a.slug === s))
      .filter((a): a is DocumentSummary => Boolean(a));
  return (
    <Card as="section" padding="lg">
      <Tabs
        label={t('help.title')}
        items={tabs.map((name) => ({ value: name, label: t(`help.tabs.${name}`) }))}
        value={tab}
        onValueChange={setTab}
        panelClassName="pt-4"
      >
        {tab === 'popular' ? (
          <ul className="grid gap-4 sm:grid-cols-2">
            {articles
              .filter((a) => a.popular)
              .map((article) => (
                <li key={article.slug}>
                  <ArticleLink article={article} />
                  {article.summary ? (
                    <p className="mt-1 text-sm text-slate-600">{article.summary}</p>
                  ) : null}
                </li>
              ))}
          </ul>
        ) : null}
        {tab === 'videos' ? (
          <>
            <p className="text-slate-700">{t('help.videosText')}</p>
            <ul className="mt-3 list-disc space-y-1 pl-5">
              {bySlug(WALKTHROUGHS).map((article) => (
                <li key={article.slug}>
                  <ArticleLink article={article} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {tab === 'faq' ? (
          <div className="space-y-3">
            <p className="text-slate-700">{t('help.faqText')}</p>
            <Link to={paths.faq} className={buttonVariants({ variant: 'outline' })}>
              {t('help.faqLink')}
            </Link>
          </div>
        ) : null}
      </Tabs>
    </Card>
  );
}

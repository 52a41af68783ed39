// FAQ (spec/accounts-and-pages.md §2.5): eight category tabs with accordion answers, a search
// over questions and answers with a count line and 'Clear Search' when nothing matches, and
// links to the documentation and to contact.
import { ChevronDown, Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageMeta } from '@/components/seo/page-meta';
import { Button, buttonVariants } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { Card } from '@/components/ui/card';
import { Tabs } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { useSiteConfig } from '@/lib/site-config';
import { percentFees } from '@/lib/site-fees';
import { cn } from '@/lib/utils';

import { FAQ_CATEGORIES, type FaqCategory, type FaqItem, matches } from '../lib/faq';

function useFaqItems(): FaqItem[] {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  return useMemo(() => {
    const values = { site: config?.site_name ?? 'Ferry', ...percentFees(config, i18n.language) };
    return FAQ_CATEGORIES.flatMap((category) => {
      const entries = t(`faqPage.items.${category}`, { returnObjects: true }) as unknown as Record<
        string,
        { q: string; a: string }
      >;
      return Object.keys(entries).map((key) => ({
        id: `${category}.${key}`,
        category,
        question: t(`faqPage.items.${category}.${key}.q` as never, values),
        answer: t(`faqPage.items.${category}.${key}.a` as never, values),
      }));
    });
    // `t` changes with the language, so the texts follow it.
  }, [t, config, i18n.language]);
}

function Question({ item }: { item: FaqItem }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Card as="li" padding="none">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-center justify-between gap-4 p-4 text-left font-medium text-slate-900"
        >
          {item.question}
          <ChevronDown
            aria-hidden="true"
            className={cn('size-5 shrink-0 transition-transform', open && 'rotate-180')}
          />
        </button>
      </h3>
      <div id={id} hidden={!open} className="px-4 pb-4 text-slate-700">
        {item.answer}
      </div>
    </Card>
  );
}

/** The count line, the questions, or 'no results' with Clear Search. */
function Questions({
  items,
  shown,
  query,
  onClear,
}: {
  items: FaqItem[];
  shown: FaqItem[];
  query: string;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const searching = query.trim() !== '';
  return (
    <>
      <p aria-live="polite" className="text-sm text-slate-600">
        {searching
          ? t('faqPage.countMatching', { count: shown.length, total: items.length })
          : t('faqPage.count', { count: shown.length })}
      </p>
      {shown.length > 0 ? (
        <ul className="space-y-3">
          {shown.map((item) => (
            <Question key={item.id} item={item} />
          ))}
        </ul>
      ) : (
        <Card padding="lg" className="text-center">
          <p className="text-slate-700">{t('faqPage.noResults', { query: query.trim() })}</p>
          <Button variant="outline" className="mt-4" onClick={onClear}>
            {t('faqPage.clear')}
          </Button>
        </Card>
      )}
    </>
  );
}

export default function FaqPage() {
  const { t } = useTranslation();
  const items = useFaqItems();
  const [category, setCategory] = useState<FaqCategory>('general');
  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const shown = searching
    ? items.filter((item) => matches(item, query))
    : items.filter((item) => item.category === category);

  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-12">
      <PageMeta title={t('faqPage.title')} description={t('faqPage.subtitle')} />
      <header className="text-center">
        <h1 className="text-4xl font-bold text-slate-900">{t('faqPage.title')}</h1>
        <p className="mt-2 text-slate-700">{t('faqPage.subtitle')}</p>
        <label className="relative mx-auto mt-6 block max-w-xl">
          <span className="sr-only">{t('faqPage.search')}</span>
          <Search
            aria-hidden="true"
            className="absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500"
          />
          <input
            type="search"
            className={cn(inputClass, 'h-12 pl-10')}
            placeholder={t('faqPage.search')}
            value={query}
            maxLength={100}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
      </header>

      {searching ? (
        <div className="space-y-4">
          <Questions items={items} shown={shown} query={query} onClear={() => setQuery('')} />
        </div>
      ) : (
        <Tabs
          label={t('faqPage.title')}
          variant="pill"
          items={FAQ_CATEGORIES.map((name) => ({
            value: name,
            label: t(`faqPage.categories.${name}`),
          }))}
          value={category}
          onValueChange={setCategory}
          panelClassName="mt-8 space-y-4"
        >
          <Questions items={items} shown={shown} query={query} onClear={() => setQuery('')} />
        </Tabs>
      )}

      <section className="rounded-2xl bg-slate-100 p-6 text-center">
        <h2 className="text-xl font-semibold text-slate-900">{t('faqPage.moreTitle')}</h2>
        <p className="mt-1 text-slate-700">{t('faqPage.moreText')}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <Link to={paths.help} className={buttonVariants({ variant: 'outline' })}>
            {t('faqPage.helpCentre')}
          </Link>
          <Link to={paths.apiDocs} className={buttonVariants({ variant: 'outline' })}>
            {t('faqPage.docs')}
          </Link>
          <Link to={paths.contact} className={buttonVariants()}>
            {t('faqPage.contact')}
          </Link>
        </div>
      </section>
    </div>
  );
}

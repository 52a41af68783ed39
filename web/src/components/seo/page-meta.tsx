// Per-page <title> and robots meta; React 19 hoists them into <head>. The site's name follows
// the page's title (unless the title names it already), and for languages other than English
// the language's name follows that (spec/accounts-and-pages.md §4.5). The build keeps the head
// of each prerendered page for the server to send (web/scripts/prerender.mjs).
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';

import { DEFAULT_LANGUAGE, isLanguageCode, languageName } from '@/lib/languages';

const SiteNameContext = createContext<string | null>(null);

/** The operator's site name, for page titles; the app layer provides it. */
export const SiteNameProvider = SiteNameContext.Provider;

export function PageMeta({
  title,
  description,
  noindex = false,
}: {
  title: string;
  description?: string;
  noindex?: boolean;
}) {
  const { i18n } = useTranslation();
  const siteName = useContext(SiteNameContext);
  const language = i18n.resolvedLanguage;
  const site = siteName && !title.includes(siteName) ? ` | ${siteName}` : '';
  const suffix =
    isLanguageCode(language) && language !== DEFAULT_LANGUAGE ? ` | ${languageName(language)}` : '';
  return (
    <>
      <title>{`${title}${site}${suffix}`}</title>
      {description ? <meta name="description" content={description} /> : null}
      {noindex ? <meta name="robots" content="noindex" /> : null}
    </>
  );
}

// Per-page <title> and robots meta; React 19 hoists them into <head>. For languages other than
// English the language's name is appended to the title (spec/accounts-and-pages.md §4.5).
import { useTranslation } from 'react-i18next';

import { DEFAULT_LANGUAGE, isLanguageCode, languageName } from '@/lib/languages';

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
  const language = i18n.resolvedLanguage;
  const suffix =
    isLanguageCode(language) && language !== DEFAULT_LANGUAGE ? ` | ${languageName(language)}` : '';
  return (
    <>
      <title>{`${title}${suffix}`}</title>
      {description ? <meta name="description" content={description} /> : null}
      {noindex ? <meta name="robots" content="noindex" /> : null}
    </>
  );
}

// Follows back/forward navigation to a `lang` parameter and keeps the alternate-language links
// of the current page in <head> (spec/accounts-and-pages.md §4.5).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { useSiteConfig } from '@/features/site/api/get-site-config';
import { applyLanguage } from '@/lib/i18n';
import { isLanguageCode, LANGUAGES } from '@/lib/languages';

export function LanguageSync() {
  const location = useLocation();
  const { i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const lang = new URLSearchParams(location.search).get('lang');

  useEffect(() => {
    if (isLanguageCode(lang) && lang !== i18n.resolvedLanguage) {
      void applyLanguage(lang, { store: true });
    }
  }, [lang, i18n]);

  const origin = config?.public_url ?? window.location.origin;
  const enabled = LANGUAGES.filter((l) => !config || config.languages.includes(l.code));
  const href = (code: string) => {
    const params = new URLSearchParams(location.search);
    params.set('lang', code);
    return `${origin}${location.pathname}?${params.toString()}`;
  };
  return (
    <>
      {enabled.map((l) => (
        <link key={l.code} rel="alternate" hrefLang={l.code} href={href(l.code)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={`${origin}${location.pathname}`} />
    </>
  );
}

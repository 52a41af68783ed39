// Follows back/forward navigation to a `lang` parameter, keeps the alternate-language links
// of the current page in <head> (spec/accounts-and-pages.md §4.5), and tells the server which
// language a signed-in user reads, so their mails come in it.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { userQueryOptions, useUser, type User } from '@/lib/auth';
import { useSiteConfig } from '@/lib/site-config';
import { request } from '@/lib/api-client';
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
  useMailLanguage(i18n.resolvedLanguage);
  return (
    <>
      {enabled.map((l) => (
        <link key={l.code} rel="alternate" hrefLang={l.code} href={href(l.code)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={`${origin}${location.pathname}`} />
    </>
  );
}

/** Saves `language` as a signed-in user's mail language when it differs (once per change). */
function useMailLanguage(language: string | undefined) {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!user?.language || !language || user.language === language) return;
    if (asked.current === language) return;
    asked.current = language;
    // A plain call rather than the profile's mutation hooks: this runs on every page.
    request<{ user: User }>('/api/account', {
      method: 'PATCH',
      body: JSON.stringify({ language }),
    })
      .then((answer) => queryClient.setQueryData(userQueryOptions().queryKey, answer.user))
      .catch(() => undefined);
  }, [user?.language, language, queryClient]);
}

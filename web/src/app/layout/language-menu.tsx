import { Globe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { Menu } from '@/components/ui/menu';
import { useSiteConfig } from '@/lib/site-config';
import { applyLanguage } from '@/lib/i18n';
import { isLanguageCode, LANGUAGES, languageName } from '@/lib/languages';

/** Stores the choice, sets `<html lang>` and puts `?lang=` in the URL (§4.5). */
export function useChangeLanguage() {
  const [, setSearchParams] = useSearchParams();
  return async (code: string) => {
    if (!isLanguageCode(code)) return;
    await applyLanguage(code, { store: true });
    setSearchParams((params) => {
      params.set('lang', code);
      return params;
    });
  };
}

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const { data: config } = useSiteConfig();
  const changeLanguage = useChangeLanguage();
  const enabled = LANGUAGES.filter((l) => !config || config.languages.includes(l.code));
  const current = isLanguageCode(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';

  return (
    <Menu
      label={`${current.toUpperCase()} · ${t('nav.language')}: ${languageName(current)}`}
      heading={t('nav.language')}
      panelClassName="max-h-96"
      trigger={
        <>
          <Globe aria-hidden="true" className="size-4" />
          <span className="uppercase">{current}</span>
        </>
      }
      items={enabled.map((language) => ({
        key: language.code,
        label: language.name,
        lang: language.code,
        current: language.code === current,
        onSelect: () => void changeLanguage(language.code),
      }))}
    />
  );
}

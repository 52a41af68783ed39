// i18next with English bundled (the source of every text) and the other 13 languages loaded on
// demand as separate chunks.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import en from '@/locales/en.json';

import {
  DEFAULT_LANGUAGE,
  LANGUAGE_STORAGE_KEY,
  type LanguageCode,
  resolveLanguage,
} from './languages';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

type Bundle = typeof en;

const loaders = import.meta.glob<Bundle>(['../locales/*.json', '!../locales/en.json'], {
  import: 'default',
});

async function ensureLoaded(language: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const load = loaders[`../locales/${language}.json`];
  if (!load) throw new Error(`No translation file for ${language}`);
  i18n.addResourceBundle(language, 'translation', await load());
}

export function initialLanguage(): LanguageCode {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    stored = null;
  }
  return resolveLanguage({
    urlParam: new URLSearchParams(window.location.search).get('lang'),
    stored,
    browser: navigator.languages ?? [navigator.language],
  });
}

export async function initI18n(language: LanguageCode = initialLanguage()): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
      returnNull: false,
      saveMissing: import.meta.env.DEV,
      missingKeyHandler: (_lngs, _ns, key) => console.error(`Missing translation key: ${key}`),
    });
  }
  await applyLanguage(language, { store: false });
  return i18n;
}

/** Loads `language` if needed, switches to it, and sets `<html lang>` (and stores it if asked). */
export async function applyLanguage(
  language: LanguageCode,
  { store }: { store: boolean },
): Promise<void> {
  await ensureLoaded(language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  if (store) {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }
}

export { i18n };

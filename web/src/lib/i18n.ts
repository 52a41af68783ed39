// i18next. Each language's texts come in files by kind: `locales/{lang}.json`, what every page
// needs (header, footer, the swap form), `locales/pages/{lang}.json`, what the site's pages
// need, `locales/account/{lang}.json`, what the account pages need, and `faq/` and `admin/`,
// the FAQ's and the back office's. English core texts ship in the entry bundle;
// everything else loads on demand, so the landing page carries only what it shows.
import i18n from 'i18next';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { initReactI18next } from 'react-i18next';

import en from '@/locales/en.json';
import type enAccount from '@/locales/account/en.json';
import type enAdmin from '@/locales/admin/en.json';
import type enFaq from '@/locales/faq/en.json';
import type enPages from '@/locales/pages/en.json';

import {
  DEFAULT_LANGUAGE,
  isLanguageCode,
  LANGUAGE_STORAGE_KEY,
  type LanguageCode,
  resolveLanguage,
} from './languages';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en & typeof enPages & typeof enAccount & typeof enFaq & typeof enAdmin;
    };
  }
}

type Bundle = Record<string, unknown>;

const coreLoaders = import.meta.glob<Bundle>(['../locales/*.json', '!../locales/en.json'], {
  import: 'default',
});
const pageLoaders = import.meta.glob<Bundle>('../locales/pages/*.json', { import: 'default' });
const accountLoaders = import.meta.glob<Bundle>('../locales/account/*.json', {
  import: 'default',
});

const faqLoaders = import.meta.glob<Bundle>('../locales/faq/*.json', { import: 'default' });
const adminLoaders = import.meta.glob<Bundle>('../locales/admin/*.json', { import: 'default' });

/** Which texts a lazily loaded part of the app needs besides the core ones. */
export type TextKind = 'pages' | 'account' | 'faq' | 'admin';

const LOADERS: Record<
  TextKind,
  { folder: string; loaders: Record<string, () => Promise<Bundle>> }
> = {
  pages: { folder: 'pages', loaders: pageLoaders },
  account: { folder: 'account', loaders: accountLoaders },
  faq: { folder: 'faq', loaders: faqLoaders },
  admin: { folder: 'admin', loaders: adminLoaders },
};

const loaded = new Set<string>(['core:en']);
const pending = new Map<string, Promise<void>>();

function load(kind: 'core' | TextKind, language: LanguageCode): Promise<void> {
  const key = `${kind}:${language}`;
  if (loaded.has(key)) return Promise.resolve();
  const existing = pending.get(key);
  if (existing) return existing;
  const loader =
    kind === 'core'
      ? coreLoaders[`../locales/${language}.json`]
      : LOADERS[kind].loaders[`../locales/${LOADERS[kind].folder}/${language}.json`];
  if (!loader) return Promise.reject(new Error(`No ${kind} texts for ${language}`));
  const promise = loader().then((bundle) => {
    i18n.addResourceBundle(language, 'translation', bundle, true, true);
    loaded.add(key);
    pending.delete(key);
  });
  pending.set(key, promise);
  return promise;
}

/** Texts of `kinds` in the current language (and in English, the fallback). */
export function loadTexts(kinds: readonly TextKind[] = ['pages']): Promise<void> {
  const current = isLanguageCode(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
  return Promise.all(
    kinds.flatMap((kind) => [load(kind, current), load(kind, DEFAULT_LANGUAGE)]),
  ).then(() => undefined);
}

/** A language's core and page texts, without switching to it (the language-test page). */
export function loadLanguageTexts(language: LanguageCode): Promise<void> {
  return Promise.all([load('core', language), load('pages', language)]).then(() => undefined);
}

/** `React.lazy`, waiting for the texts too, so a page never shows a raw key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bound as React.lazy
export function lazyWithTexts<T extends ComponentType<any>>(
  factory: () => Promise<{ default: T }>,
  kinds: readonly TextKind[] = ['pages'],
): LazyExoticComponent<T> {
  return lazy(() => Promise.all([factory(), loadTexts(kinds)]).then(([module]) => module));
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

/**
 * Loads `language` if needed, switches to it, and sets `<html lang>` (and stores it if asked).
 * Texts of the kinds already in use are loaded for the new language before it shows.
 */
export async function applyLanguage(
  language: LanguageCode,
  { store }: { store: boolean },
): Promise<void> {
  const inUse = (kind: TextKind) => [...loaded].some((key) => key.startsWith(`${kind}:`));
  const kinds = Object.keys(LOADERS) as TextKind[];
  await Promise.all([
    load('core', language),
    ...kinds.map((kind) => (inUse(kind) ? load(kind, language) : null)),
  ]);
  await i18n.changeLanguage(language);
  // The build's prerender runs without a document.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (store) {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    rememberLanguageForServer();
  }
}

/** The cookie naming the chosen language, so the server sends pages prerendered in it. */
export const LANGUAGE_COOKIE = 'language';

/**
 * Mirrors the stored language choice into a cookie the server reads (the choice itself stays
 * in localStorage, where the app resolves it from); without a stored choice, clears it.
 */
export function rememberLanguageForServer(): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    stored = null;
  }
  document.cookie = isLanguageCode(stored)
    ? `${LANGUAGE_COOKIE}=${stored}; path=/; max-age=31536000; samesite=lax`
    : `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`;
}

export { i18n };

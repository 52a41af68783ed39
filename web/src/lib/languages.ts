// The 14 UI languages (spec/accounts-and-pages.md §9), each named in its own language.

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'pt', name: 'Português' },
  { code: 'ru', name: 'Русский' },
  { code: 'pl', name: 'Polski' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'uk', name: 'Українська' },
  { code: 'tr', name: 'Türkçe' },
  { code: 'it', name: 'Italiano' },
  { code: 'zh', name: '中文' },
  { code: 'ko', name: '한국어' },
  { code: 'ja', name: '日本語' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';
export const LANGUAGE_STORAGE_KEY = 'language';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((l) => l.code === value);
}

export function languageName(code: LanguageCode): string {
  return LANGUAGES.find((l) => l.code === code)?.name ?? code;
}

interface LanguageSources {
  urlParam: string | null;
  stored: string | null;
  browser: readonly string[];
}

/**
 * Resolution order of §4.5: the `lang` URL parameter, the stored language, the browser's
 * languages, else English. An unsupported `lang` parameter falls back to English and is logged.
 */
export function resolveLanguage({ urlParam, stored, browser }: LanguageSources): LanguageCode {
  if (urlParam !== null && urlParam !== '') {
    if (isLanguageCode(urlParam)) return urlParam;
    console.error(`Unsupported language "${urlParam}"; using English`);
    return DEFAULT_LANGUAGE;
  }
  if (isLanguageCode(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguageCode(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

// The colour theme: the system's, light or dark, remembered in localStorage. The pre-paint
// script (src/theme/theme-init.js) applies the stored choice before the first paint; this
// module changes it later, follows the system while the choice is "system", and lets
// components read it (the server's render and hydration see "system": nothing mismatches).
import { useSyncExternalStore } from 'react';

export const THEME_STORAGE_KEY = 'theme';
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

export function storedTheme(): ThemeChoice {
  let value: string | null = null;
  try {
    value = localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    value = null;
  }
  return value === 'light' || value === 'dark' ? value : 'system';
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Whether `choice` shows the dark theme now. */
export function isDark(choice: ThemeChoice): boolean {
  return choice === 'dark' || (choice === 'system' && systemPrefersDark());
}

/** Puts the theme of `choice` on the page, as the pre-paint script does. */
export function applyTheme(choice: ThemeChoice): void {
  const dark = isDark(choice);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  applyTheme(choice);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // The system's preference changes (a phone at dusk), or another tab chose: follow.
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  const follow = () => {
    applyTheme(storedTheme());
    listener();
  };
  media?.addEventListener('change', follow);
  window.addEventListener('storage', follow);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', follow);
    window.removeEventListener('storage', follow);
  };
}

/** The stored choice; "system" on the server and while hydrating. */
export function useTheme(): ThemeChoice {
  return useSyncExternalStore(subscribe, storedTheme, () => 'system');
}

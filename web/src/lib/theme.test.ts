import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { applyTheme, setTheme, storedTheme, useTheme } from './theme';

function systemPrefersDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: dark && query === '(prefers-color-scheme: dark)',
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.className = '';
});

describe('the colour theme', () => {
  it('follows the system until the visitor chooses, and remembers the choice', () => {
    systemPrefersDark(true);
    expect(storedTheme()).toBe('system');
    applyTheme(storedTheme());
    expect(document.documentElement).toHaveClass('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');

    setTheme('light');
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement).not.toHaveClass('dark');
    expect(document.documentElement.style.colorScheme).toBe('light');

    setTheme('system');
    expect(localStorage.getItem('theme')).toBeNull();
    expect(document.documentElement).toHaveClass('dark');
  });

  it('lets components follow a change', () => {
    systemPrefersDark(false);
    const { result } = renderHook(() => useTheme());
    expect(result.current).toBe('system');
    act(() => setTheme('dark'));
    expect(result.current).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
  });

  it('is on the page before it paints: the pre-paint script applies the stored choice', () => {
    const script = readFileSync(join(__dirname, '..', 'theme', 'theme-init.js'), 'utf8');
    const run = () => new Function(script)() as void;
    systemPrefersDark(false);
    localStorage.setItem('theme', 'dark');
    run();
    expect(document.documentElement).toHaveClass('dark');
    localStorage.setItem('theme', 'light');
    systemPrefersDark(true);
    run();
    expect(document.documentElement).not.toHaveClass('dark');
    localStorage.removeItem('theme');
    run();
    expect(document.documentElement).toHaveClass('dark');
    // Storage refused (a privacy mode): the system decides.
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    run();
    expect(document.documentElement).toHaveClass('dark');
    vi.restoreAllMocks();
    // A browser without matchMedia: light, and the script runs to its end.
    vi.stubGlobal('matchMedia', undefined);
    run();
    expect(document.documentElement).not.toHaveClass('dark');
    expect(document.documentElement.style.colorScheme).toBe('light');
  });
});

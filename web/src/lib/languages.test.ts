import { describe, expect, it, vi } from 'vitest';

import { resolveLanguage } from './languages';

describe('resolveLanguage (spec/accounts-and-pages.md §4.5)', () => {
  it('prefers the lang URL parameter', () => {
    expect(resolveLanguage({ urlParam: 'de', stored: 'fr', browser: ['ja'] })).toBe('de');
  });

  it('then the stored language', () => {
    expect(resolveLanguage({ urlParam: null, stored: 'fr', browser: ['ja'] })).toBe('fr');
  });

  it('then the browser languages, by their base tag', () => {
    expect(resolveLanguage({ urlParam: null, stored: null, browser: ['xx', 'pt-BR'] })).toBe('pt');
  });

  it('else English', () => {
    expect(resolveLanguage({ urlParam: null, stored: 'klingon', browser: ['xx'] })).toBe('en');
  });

  it('replaces an unsupported lang parameter by English and logs an error', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(resolveLanguage({ urlParam: 'xx', stored: 'fr', browser: [] })).toBe('en');
    expect(log).toHaveBeenCalledOnce();
  });
});

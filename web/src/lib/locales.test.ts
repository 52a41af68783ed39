// Every language has every key of en.json (the source), with the same {{placeholders}}.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LANGUAGES } from './languages';

const dir = join(__dirname, '..', 'locales');
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const read = (file: string) => flatten(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Tree);
/** A language's texts: the core, page, account, FAQ and back-office files together. */
const load = (code: string) =>
  new Map([
    ...read(`${code}.json`),
    ...read(`pages/${code}.json`),
    ...read(`account/${code}.json`),
    ...read(`faq/${code}.json`),
    ...read(`admin/${code}.json`),
  ]);
const placeholders = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const english = load('en');

describe('translations', () => {
  it('ship a core, a page, an account, an FAQ and a back-office file for each of the 14 languages and no other', () => {
    const folders = ['pages', 'account', 'faq', 'admin'].map((kind) => join(dir, kind));
    for (const folder of [dir, ...folders]) {
      const files = readdirSync(folder)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.replace('.json', ''))
        .sort();
      expect(files).toEqual(LANGUAGES.map((l) => l.code).sort());
    }
  });

  it('keep each key in the same file as English does', () => {
    const core = [...read('en.json').keys()];
    for (const { code } of LANGUAGES) {
      expect([...read(`${code}.json`).keys()].sort()).toEqual([...core].sort());
    }
  });

  for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
    it(`${code} has exactly the keys of en.json, each translated with the same placeholders`, () => {
      const translated = load(code);
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of english) {
        const other = translated.get(key) ?? '';
        expect(other.trim(), `${code}:${key} is empty`).not.toBe('');
        expect(placeholders(other), `${code}:${key}`).toEqual(placeholders(text));
      }
    });
  }
});

// The app's own translation files: tests assert what a person reads, in each language.
import { readFileSync } from 'node:fs';

type Tree = { [key: string]: string | Tree };

function read(path: string): Tree {
  return JSON.parse(readFileSync(new URL(`../../web/src/locales/${path}`, import.meta.url), 'utf8')) as Tree;
}

/** Deep-merges the core, page, account, FAQ and back-office texts, as the app does. */
function merge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const existing = out[key];
    out[key] = typeof existing === 'object' && typeof value === 'object' ? merge(existing, value) : value;
  }
  return out;
}

export function texts(language: string) {
  const files = ['pages', 'account', 'faq', 'admin'].map((kind) => `${kind}/${language}.json`);
  const tree = files.reduce((merged, file) => merge(merged, read(file)), read(`${language}.json`));
  return (key: string): string => {
    const value = key.split('.').reduce<string | Tree | undefined>(
      (node, part) => (node && typeof node === 'object' ? node[part] : undefined),
      tree,
    );
    if (typeof value !== 'string') throw new Error(`${language}: no text for ${key}`);
    return value;
  };
}

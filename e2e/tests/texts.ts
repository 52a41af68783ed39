// The app's own translation files: tests assert what a person reads, in each language.
import { readFileSync } from 'node:fs';

type Tree = { [key: string]: string | Tree };

export function texts(language: string) {
  const url = new URL(`../../web/src/locales/${language}.json`, import.meta.url);
  const tree = JSON.parse(readFileSync(url, 'utf8')) as Tree;
  return (key: string): string => {
    const value = key.split('.').reduce<string | Tree | undefined>(
      (node, part) => (node && typeof node === 'object' ? node[part] : undefined),
      tree,
    );
    if (typeof value !== 'string') throw new Error(`${language}: no text for ${key}`);
    return value;
  };
}

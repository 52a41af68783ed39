// Writes each public page's first screen, in every language, as HTML the server puts inside
// `#root` (src/http/spa.rs), so the browser paints it before the app's script has run; the
// app then hydrates it. Rendered with the site settings of FERRY_PRERENDER_CONFIG (default:
// prerender-config.json, the server's defaults); the server serves these pages only while its
// own public settings are the same, since the app would otherwise render something else.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const web = new URL('..', import.meta.url).pathname;
const out = join(web, 'dist/prerender');
const configPath = process.env.FERRY_PRERENDER_CONFIG ?? join(web, 'prerender-config.json');
const config = JSON.parse(readFileSync(configPath, 'utf8'));
const popular = JSON.parse(readFileSync(join(web, '../catalogue/popular-pairs.json'), 'utf8'));

const PAGES = [
  '/',
  '/markets',
  '/help',
  '/faq',
  '/status',
  '/about',
  '/contact',
  '/convert',
  '/exchange/all-pairs',
  '/blog',
  '/terms',
  '/privacy',
  ...popular.pairs.map(([from, to]) => `/exchange/${from.toLowerCase()}-${to.toLowerCase()}`),
];

/** `/` is `index`; any other path is its own file name. */
const fileOf = (language, path) =>
  join(out, language, `${path === '/' ? 'index' : path.slice(1)}.html`);

// React writes a page's <title>, <meta> and <link> tags first. They do not belong in `#root`:
// the server writes the head, taking the title and description the app gives the page from
// `{page}.head.json`, so that the head a browser or a search engine reads before any script has
// run is the app's own, in the page's language.
const HEAD = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)+/;
const unescape = (text) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
const headOf = (html) => {
  const head = html.match(HEAD)?.[0] ?? '';
  const title = head.match(/<title>([^<]*)<\/title>/)?.[1];
  const description = head.match(/<meta name="description" content="([^"]*)"/)?.[1];
  if (title === undefined) return null;
  return {
    title: unescape(title),
    ...(description === undefined ? {} : { description: unescape(description) }),
  };
};

const { render, LANGUAGES } = await import(join(web, 'dist-ssr/entry-prerender.js'));
rmSync(out, { recursive: true, force: true });
const started = Date.now();
let bytes = 0;
for (const { code } of LANGUAGES.filter((l) => config.languages.includes(l.code))) {
  for (const path of PAGES) {
    const rendered = await render(path, code, config);
    const html = rendered.replace(HEAD, '');
    const file = fileOf(code, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
    const head = headOf(rendered);
    if (head) writeFileSync(file.replace(/\.html$/, '.head.json'), JSON.stringify(head));
    else if (code === 'en') console.log(`  ${path}: no title before its data arrives`);
    bytes += html.length;
  }
}
// Pair pages are too many to prerender: the server writes their head from the app's texts.
// `descriptionTemplate` has the title's placeholders; `description` stays the site's for a
// server that fills in the title only.
for (const { code } of LANGUAGES) {
  const texts = (file) => JSON.parse(readFileSync(join(web, 'src/locales', file), 'utf8'));
  mkdirSync(join(out, code), { recursive: true });
  writeFileSync(
    join(out, code, 'pair-page.json'),
    JSON.stringify({
      title: texts(`pages/${code}.json`).pair.title,
      description: texts(`${code}.json`).meta.description,
      descriptionTemplate: texts(`pages/${code}.json`).pair.description,
    }),
  );
}
writeFileSync(join(out, 'config.json'), JSON.stringify(config));
console.log(
  `prerendered ${PAGES.length} pages in ${config.languages.length} languages ` +
    `(${(bytes / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
// Timers of the rendered app (query cache collection) would keep Node alive.
process.exit(0);

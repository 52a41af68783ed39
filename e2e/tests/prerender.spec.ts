// The first screen arrives as HTML, prerendered at build time in the visitor's language, and the
// app takes it over (hydrates it) without rendering anything else (src/http/spa.rs, web/src/main.tsx).
import { type ConsoleMessage, expect, type Page, test } from '@playwright/test';

import { ADDRESSES, clickWhenLive, exchangeNowAtFixedRate, whenLive, withoutTheApp } from './support';
import { texts } from './texts';

const en = texts('en');
const de = texts('de');
const ja = texts('ja');

const PRERENDERED = [
  '/',
  '/markets',
  '/help',
  '/faq',
  '/status',
  '/about',
  '/contact',
  '/convert',
  '/exchange/all-pairs',
  '/exchange/btc-eth',
  '/blog',
  '/terms',
  '/privacy',
];

/** Errors the page logs or throws: a failed hydration shows up as one. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Resolves once React has taken the page over. */
async function hydrated(page: Page) {
  await whenLive(page.locator('#root > *').first());
}

test('without any script, the page shows its first screen in the browser language', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de('home.title'));
  await expect(page.getByRole('link', { name: de('nav.signIn') }).first()).toBeVisible();

  await page.goto('/markets?lang=en');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('markets.title'));
  await context.close();
});

test('the app takes every prerendered page over without a mismatch', async ({ page }) => {
  const errors = collectErrors(page);
  for (const path of PRERENDERED) {
    await page.goto(path);
    await expect(page.locator('#root'), path).toHaveAttribute('data-prerendered', 'en');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(errors, `${path} hydrates cleanly`).toEqual([]);
  }
  // Taken over, it answers: the language menu opens.
  await page.goto('/');
  await hydrated(page);
  await clickWhenLive(page.getByRole('button', { name: new RegExp(en('nav.language')) }));
  await expect(page.getByRole('menuitem', { name: '日本語' })).toBeVisible();
});

test('what a visitor types before the app takes the page over is kept, and the order is made with it', async ({
  page,
}) => {
  // A slow phone: the page's HTML is on screen, the app's entry script has not run yet.
  const release = await withoutTheApp(page);
  await page.goto('/exchange/btc-eth', { waitUntil: 'commit' });
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByLabel('You send', { exact: true }).fill('0.02');
  await page.getByLabel('Fixed rate (1.0%)').check();
  expect(await page.evaluate(() => Object.keys(document.querySelector('#root > *')!).length)).toBe(0);

  release();
  await hydrated(page);
  // The quote for the typed amount comes, and the widget renders again with it.
  await expect(page.getByTestId('fixed-hold')).toHaveText(/^Amount held \d+:\d\d/);
  await expect(page.getByLabel('Destination address')).toHaveValue(ADDRESSES.ETH);
  await expect(page.getByLabel('You send', { exact: true })).toHaveValue('0.02');
  await expect(page.getByLabel('Fixed rate (1.0%)')).toBeChecked();

  await exchangeNowAtFixedRate(page);
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  await expect(page.getByTestId('destination').first()).toContainText(ADDRESSES.ETH.slice(0, 6));
  await expect(page.getByTestId('deposit-amount').first()).toHaveText(/^0\.02 BTC/);
});

test('a header menu clicked before the app takes the page over opens once it has', async ({ page }) => {
  const release = await withoutTheApp(page);
  await page.goto('/', { waitUntil: 'commit' });
  await page.getByRole('button', { name: /^Theme/ }).click();
  release();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('button', { name: 'Theme: Dark' })).toHaveAttribute('aria-expanded', 'false');
});

test('a header menu clicked while its code still loads opens once it has', async ({ page }) => {
  // The page taken over, but the header menus' own chunk not there yet: React drops the click.
  const release = await withoutTheApp(page, /\/assets\/header-menus-[^/]+\.js$/);
  await page.goto('/', { waitUntil: 'commit' });
  await hydrated(page);
  await page.getByRole('button', { name: /^Theme/ }).click();
  release();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test('a chosen language comes back prerendered after a reload', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/markets');
  await hydrated(page);
  await clickWhenLive(page.getByRole('button', { name: new RegExp(en('nav.language')) }));
  await page.getByRole('menuitem', { name: '日本語' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ja('markets.title'));

  // No lang parameter: the server knows the choice from the cookie the app keeps.
  await page.goto('/help');
  await expect(page.locator('#root')).toHaveAttribute('data-prerendered', 'ja');
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ja('help.title'));
  expect(errors).toEqual([]);
});

test('pages without a prerendered screen are rendered by the app alone', async ({ page }) => {
  await page.goto('/signin');
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered', /.*/);
  await expect(page.getByRole('heading', { name: en('account.signIn.title') })).toBeVisible();
});

/** The `<title>` and description in the HTML the server sends, before any script has run. */
async function serverHead(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  const unescape = (text: string) =>
    text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return {
    title: unescape(html.match(/<title data-server-head>([^<]*)<\/title>/)?.[1] ?? ''),
    description: unescape(html.match(/<meta name="description" content="([^"]*)" data-server-head \/>/)?.[1] ?? ''),
    canonical: html.match(/<link rel="canonical" href="([^"]*)" \/>/)?.[1] ?? '',
  };
}

test('search engines read the head the app shows, in the page language, with its own canonical URL', async ({
  page,
}) => {
  for (const [path, language] of [
    ['/', 'en'],
    ['/?lang=ja', 'ja'],
    ['/markets?lang=de', 'de'],
    ['/help?lang=fr', 'fr'],
    ['/faq?lang=es', 'es'],
    ['/status?lang=ru', 'ru'],
    ['/exchange/btc-eth?lang=ko', 'ko'],
    ['/contact?lang=zh', 'zh'],
    // Not prerendered: a pair outside the popular ones, a help article.
    ['/exchange/doge-xmr?lang=tr', 'tr'],
    ['/help/articles/setup-2fa?lang=de', 'de'],
  ] as const) {
    const head = await serverHead(page, path);
    await page.goto(path);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(await page.title(), path).toBe(head.title);
    const description = await page.locator('meta[name="description"]').last().getAttribute('content');
    expect(description, path).toBe(head.description);
    expect(head.canonical, path).toMatch(
      language === 'en' ? new RegExp(`${path.replace('?', '\\?')}$`) : new RegExp(`\\?lang=${language}$`),
    );
  }
  // Inner pages carry the site's name after their own title, then the language's name.
  expect((await serverHead(page, '/markets?lang=de')).title).toBe(`${de('markets.title')} | Ferry | Deutsch`);
  expect((await serverHead(page, '/markets')).title).toBe(`${en('markets.title')} | Ferry`);
});

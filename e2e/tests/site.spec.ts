// The site's pages (spec/accounts-and-pages.md §2.3–2.6, §2.14, §4.3, §4.4): help, FAQ, contact,
// blog, markets, status, presale, language test, and the head the server writes for each route.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

import { mailCount } from './mail';
import { ADMIN_TOKEN } from './support';
import { texts } from './texts';

const en = texts('en');
const de = texts('de');

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('help search finds an article by a word of its body, and the article opens', async ({ page }) => {
  await page.goto('/help');
  await expect(page.getByRole('heading', { name: en('help.title'), level: 1 })).toBeVisible();
  for (const category of ['getting-started', 'exchanges', 'wallets-security']) {
    await expect(page.getByRole('heading', { name: en(`help.categories.${category}`) })).toBeVisible();
  }
  await page.getByRole('tab', { name: en('help.tabs.videos') }).click();
  await expect(page.getByText(en('help.videosText'))).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByLabel(en('help.search')).fill('authenticator');
  const results = page.getByRole('region', { name: en('help.search') });
  await expect(results.getByRole('link', { name: 'How do I turn on two-factor authentication?' })).toBeVisible();
  await results.getByRole('link', { name: 'How do I turn on two-factor authentication?' }).click();
  await expect(page).toHaveURL(/\/help\/articles\/setup-2fa$/);
  await expect(page.getByRole('heading', { name: 'How do I turn on two-factor authentication?', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: en('help.related') })).toBeVisible();
  await expect(page.getByText(en('help.englishNote'))).toBeHidden();
});

test('the help centre reads in German: list, search and article, with no English-only note', async ({ page }) => {
  const title = 'Wie aktiviere ich die Zwei-Faktor-Authentifizierung?';
  await page.goto('/help?lang=de');
  await expect(page.getByRole('heading', { name: de('help.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: title }).first()).toBeVisible();
  await expect(page.getByText(de('help.englishNote'))).toBeHidden();
  await page.getByLabel(de('help.search')).fill('Wiederherstellungscodes');
  const results = page.getByRole('region', { name: de('help.search') });
  await results.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/help\/articles\/setup-2fa/);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.locator('article [lang="de"]').first()).toBeVisible();
  await expect(page.getByText(de('help.englishNote'))).toBeHidden();
  await expect(page).toHaveTitle(new RegExp(`^${title.replace('?', '\\?')}`));
});

test('FAQ search filters questions and Clear Search resets it', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('tab')).toHaveCount(8);
  await expect(page.getByText(en('faqPage.count').replace('{{count}}', '4'))).toBeVisible();
  await page.getByRole('tab', { name: en('faqPage.categories.refunds') }).click();
  await page.getByRole('button', { name: 'How long does a refund take?' }).click();
  await expect(page.getByText('Refunds take 1 to 3 business days')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel(en('faqPage.search')).fill('memo');
  await expect(page.getByRole('button', { name: 'What is a memo or destination tag?' })).toBeVisible();
  await expect(page.getByText(/of 32 questions match/)).toBeVisible();
  await page.getByLabel(en('faqPage.search')).fill('qqqzzz');
  await expect(page.getByText(en('faqPage.noResults').replace('{{query}}', 'qqqzzz'))).toBeVisible();
  await page.getByRole('button', { name: en('faqPage.clear') }).click();
  await expect(page.getByLabel(en('faqPage.search'))).toHaveValue('');
  await expect(page.getByRole('tab')).toHaveCount(8);

  await page.goto('/faq?lang=de');
  await expect(page.getByRole('heading', { name: texts('de')('faqPage.title'), level: 1 })).toBeVisible();
});

test('the contact form sends, shows the thanks, clears, and the message is stored and mailed', async ({ page, request }) => {
  await page.goto('/contact');
  // The operator's support hours (FERRY_SUPPORT_HOURS, here its default), and no office card
  // without an address (FERRY_COMPANY_ADDRESS unset).
  await expect(page.getByRole('heading', { name: en('contact.hoursTitle') })).toBeVisible();
  await expect(page.getByTestId('support-hours')).toHaveText(
    'Mon-Fri 9:00 AM-8:00 PM EST, Sat 10:00 AM-6:00 PM EST, Sun closed',
  );
  await expect(page.getByRole('heading', { name: en('contact.officeTitle') })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  const before = mailCount('support@ferry.local');
  const subject = `Refund question ${Date.now()}`;
  await page.getByLabel(en('contact.name')).fill('Grace Hopper');
  await page.getByLabel(en('contact.email')).fill('grace@example.com');
  await page.getByLabel(en('contact.subject')).fill(subject);
  await page.getByLabel(en('contact.category')).selectOption('billing');
  await page.getByLabel(en('contact.message'), { exact: true }).fill('Where is my refund for order abc?');
  await page.getByRole('button', { name: en('contact.send') }).click();
  await expect(page.getByText("Thank you for your message! We'll get back to you as soon as possible.")).toBeVisible();
  await expect(page.getByLabel(en('contact.subject'))).toHaveValue('');
  const stored = await (await request.get('/api/admin/contact-messages', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
  expect(stored.some((m: { subject: string }) => m.subject === subject)).toBe(true);
  await expect.poll(() => mailCount('support@ferry.local'), { timeout: 15_000 }).toBe(before + 1);

  // A server error shows in the red box.
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }),
  );
  await page.getByLabel(en('contact.name')).fill('G');
  await page.getByLabel(en('contact.email')).fill('g@example.com');
  await page.getByLabel(en('contact.subject')).fill('s');
  await page.getByLabel(en('contact.message'), { exact: true }).fill('m');
  await page.getByRole('button', { name: en('contact.send') }).click();
  await expect(page.getByRole('alert')).toContainText('500');
});

test('the blog lists posts with pages, categories and tags, and opens a post', async ({ page, request }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { name: en('blog.title'), level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) })).toHaveCount(6);
  await page.getByRole('button', { name: en('blog.older') }).click();
  await expect(page.getByText(en('blog.page').replace('{{page}}', '2').replace('{{pages}}', '2'))).toBeVisible();
  await page.getByRole('link', { name: en('blog.categories.security'), exact: true }).first().click();
  await expect(page).toHaveURL(/\/blog\/category\/security$/);
  await page.getByRole('link', { name: /Read more/ }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: en('blog.tags') })).toBeVisible();
  const feed = await request.get('/blog/rss.xml');
  expect(await feed.text()).toContain('<rss version="2.0">');
});

test('the blog reads in German, with no English-only note', async ({ page }) => {
  await page.goto('/blog/category/guides?lang=de');
  await expect(page.getByRole('heading', { name: 'USDT in vielen Netzwerken: Welches sollten Sie verwenden?', level: 2 })).toBeVisible();
  await expect(page.getByText(de('blog.englishNote'))).toBeHidden();
  await page.goto('/blog/usdt-networks-explained?lang=de');
  await expect(page.getByRole('heading', { name: 'USDT in vielen Netzwerken: Welches sollten Sie verwenden?', level: 1 })).toBeVisible();
  await expect(page.getByText(de('blog.englishNote'))).toBeHidden();
});

test('markets search and favourites survive a reload', async ({ page }) => {
  await page.goto('/markets');
  await expect(page.getByRole('heading', { name: 'Cryptocurrency Markets' })).toBeVisible();
  for (const column of ['Price', '24h %', '7d %', 'Market Cap', 'Volume (24h)', 'Circulating Supply']) {
    await expect(page.getByRole('columnheader', { name: new RegExp(column.replace(/[()%]/g, '.')) })).toBeVisible();
  }
  await expect(page.getByTestId('market-source')).toContainText('Sample data');
  const bitcoin = page.getByRole('row').filter({ has: page.getByRole('button', { name: /Bitcoin to favorites$/ }) }).first();
  await expect(bitcoin.getByText(/^\$[\d,]+\.\d{2}$/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole('button', { name: 'Add Solana to favorites' }).click();
  await page.getByRole('button', { name: 'Add Bitcoin to favorites' }).click();
  await page.getByLabel('Search coins...').fill('sol');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.reload();
  await page.getByRole('button', { name: en('markets.favorites'), exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Solana' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Bitcoin' })).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(3);
  await page.getByLabel('Search coins...').fill('zzz');
  await expect(page.getByText('No coins found matching your criteria')).toBeVisible();
  // Sorting by price: highest first, then lowest first.
  await page.getByLabel('Search coins...').fill('');
  await page.getByRole('button', { name: en('markets.all'), exact: true }).click();
  await page.getByRole('button', { name: 'Sort by Price' }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Bitcoin');
  await page.getByRole('button', { name: 'Sort by Price' }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Pepe');
});

test('the status page is measured and shows a provider the test turned unhealthy', async ({ page, request }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { name: en('status.servicesTitle') })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const outage = (down: boolean) =>
    request.put('/api/admin/sandbox/outage', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      data: { down },
    });
  try {
    expect((await outage(true)).status()).toBe(200);
    const provider = page.getByRole('listitem').filter({ hasText: en('status.services.provider').replace('{{name}}', 'Sandbox') });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { name: en('status.servicesTitle') }).waitFor();
          return provider.getByText(en('status.labels.outage')).count();
        },
        { timeout: 20_000, intervals: [2000] },
      )
      .toBe(1);
    await expect(page.getByText(en('status.banner.outage'))).toBeVisible();
  } finally {
    await outage(false);
  }
});

test('presale and the language test page tell the truth and render', async ({ page }) => {
  await page.goto('/presale');
  await expect(page.getByRole('heading', { name: en('presale.title'), level: 1 })).toBeVisible();
  await expect(page.getByText(en('presale.closed'))).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(5);
  await expect(page.getByRole('row').filter({ hasText: '50%' })).toContainText('0.25%');
  await page.goto('/language-test');
  await expect(page.getByRole('row')).toHaveCount(15);
  await expect(page.getByRole('row').filter({ hasText: '日本語' })).toContainText(texts('ja')('home.title'));
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test('the server writes each route head: pair titles, canonical, noindex and a 404 for unknown paths', async ({ request }) => {
  const pair = await request.get('/exchange/btc-eth');
  const html = await pair.text();
  expect(html).toContain('<title data-server-head>Exchange BTC (BTC) to ETH (ETH) | Ferry</title>');
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/exchange\/btc-eth" \/>/);
  expect(html).toContain('<meta property="og:title" content="Exchange BTC (BTC) to ETH (ETH) | Ferry" />');
  expect(html).toContain('hreflang="de"');
  const article = await (await request.get('/help/articles/fixed-vs-float')).text();
  expect(article).toContain('<title data-server-head>How do fixed and float rates differ? | Ferry</title>');
  const germanArticle = await (await request.get('/help/articles/setup-2fa?lang=de')).text();
  expect(germanArticle).toContain(
    '<title data-server-head>Wie aktiviere ich die Zwei-Faktor-Authentifizierung? | Ferry | Deutsch</title>',
  );
  const missing = await request.get('/no-such-page');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('<meta name="robots" content="noindex" data-server-head />');
  // The page's own chunk and its texts are preloaded with the entry script; where the page's
  // first screen comes prerendered, the scripts are not needed to paint it and load at low priority.
  expect(article).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/article-page-[\w-]+\.js" \/>/);
  const markets = await (await request.get('/markets')).text();
  expect(markets).toMatch(
    /<link rel="modulepreload" fetchpriority="low" crossorigin href="\/assets\/markets-page-[\w-]+\.js" \/>/,
  );
  expect(markets).toMatch(/<script type="module" fetchpriority="low" crossorigin src="\/assets\/index-[\w-]+\.js">/);
  const orders = await (await request.get('/orders')).text();
  expect(orders).toContain('<meta name="robots" content="noindex" data-server-head />');
});

const ROUTE_TITLES: [string, string][] = [
  ['/markets', 'markets.title'],
  ['/help', 'help.title'],
  ['/faq', 'faqPage.title'],
  ['/status', 'status.title'],
  ['/contact', 'contact.title'],
  ['/blog', 'blog.title'],
  ['/about', 'about.title'],
  ['/presale', 'presale.title'],
  ['/language-test', 'languageTest.title'],
  ['/signin', 'account.signIn.title'],
  ['/signup', 'account.signUp.title'],
  ['/forgot-password', 'account.forgot.title'],
  ['/api-docs', 'apiDocs.title'],
];

test('each page renders its main heading in English and in German', async ({ page }) => {
  for (const [path, key] of ROUTE_TITLES) {
    for (const language of ['en', 'de']) {
      await page.goto(`${path}?lang=${language}`);
      await expect(page.getByRole('heading', { level: 1 }), `${path} in ${language}`).toHaveText(
        texts(language)(key).replace('{{siteName}}', 'Ferry'),
      );
    }
  }
});

test('the home page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Recent transactions' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test('the API documentation lists every operation from the OpenAPI document', async ({ page }) => {
  await page.goto('/api-docs');
  const exchange = page.getByRole('region', { name: en('apiDocs.groups.exchange') });
  await expect(exchange.getByRole('heading', { name: /post\s*\/api\/create-order/i })).toBeVisible();
  await expect(page.getByRole('region', { name: en('apiDocs.groups.accounts') }).getByRole('heading', { name: /\/api\/register/ })).toBeVisible();
  await exchange.getByText(en('apiDocs.example')).first().click();
  await expect(exchange.locator('pre').first()).toContainText('curl -X');
  const partner = page.getByRole('region', { name: en('apiDocs.groups.partner'), exact: true });
  await expect(partner.getByRole('heading', { name: /post\s*\/api\/v2\/create/i })).toBeVisible();
  await partner.getByText(en('apiDocs.example')).first().click();
  await expect(partner.locator('pre').first()).toContainText('X-API-SIGN: $SIGN');
  await expect(partner.locator('pre').first()).toContainText('"code": 0');
  const guide = page.getByRole('region', { name: en('apiDocs.partnerTitle') });
  const python = guide.locator('details').filter({ hasText: en('apiDocs.languages.python') }).first();
  await python.getByText(en('apiDocs.languages.python')).click();
  await expect(python.locator('pre')).toContainText('hmac.new(API_SECRET.encode(), body.encode(), hashlib.sha256)');
  await expect(guide.getByRole('row', { name: /311/ })).toContainText(en('apiDocs.errors.311'));
  await expectNoSeriousAxeViolations(page);
  await page.goto('/documentation');
  await expect(page.getByRole('heading', { name: en('apiDocs.title'), level: 1 })).toBeVisible();
});

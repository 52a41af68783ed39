// The app shell of the foundation: header, footer, languages, 404, guard, referral capture.
import { expect, test } from '@playwright/test';

import { clickWhenLive } from './support';
import { texts } from './texts';

const en = texts('en');
const de = texts('de');
const fr = texts('fr');

test('the home route renders the header and the footer', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  const nav = header.getByRole('navigation', { name: en('nav.mainNavigation') });
  for (const label of ['Track order', 'About', 'Blog', 'FAQ', 'API', 'Status']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  // No presale runs here (FERRY_PRESALE_URL unset): it takes no slot in the menu.
  await expect(nav.getByRole('link', { name: 'Presale' })).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await expect(header.getByRole('button', { name: /Language/ })).toBeVisible();
  await expect(header.getByRole('button', { name: /Theme/ })).toBeEnabled();

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('navigation', { name: en('footer.quickLinks') })).toBeVisible();
  await expect(footer.getByRole('navigation', { name: en('footer.resources') })).toBeVisible();
  await expect(footer.getByText('Supported coins')).toBeVisible();
  await expect(footer.getByText(`© ${new Date().getFullYear()} Ferry. All rights reserved.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: en('home.title') })).toBeVisible();
});

test('the sandbox banner warns that no real funds may be sent', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText(en('sandbox.banner'))).toBeVisible();
});

test('choosing Deutsch switches the text, the URL, <html lang> and the title, and survives a reload', async ({
  page,
}) => {
  await page.goto('/');
  await clickWhenLive(page.getByRole('button', { name: /Language/ }));
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();

  await expect(page.getByRole('heading', { level: 1, name: de('home.title') })).toBeVisible();
  await expect(page).toHaveURL(/[?&]lang=de\b/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveTitle(/ \| Deutsch$/);
  await expect(page.locator('link[rel="alternate"][hreflang="fr"]')).toHaveAttribute('href', /lang=fr/);
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('link', { name: de('nav.signIn') })).toBeVisible();

  // Without a lang parameter, the stored choice still applies.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: de('home.title') })).toBeVisible();
});

test('back and forward follow the lang parameter', async ({ page }) => {
  await page.goto('/?lang=de');
  await expect(page.getByRole('heading', { level: 1, name: de('home.title') })).toBeVisible();
  await clickWhenLive(page.getByRole('button', { name: new RegExp(de('nav.language')) }));
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.getByRole('heading', { level: 1, name: fr('home.title') })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/lang=de/);
  await expect(page.getByRole('heading', { level: 1, name: de('home.title') })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: fr('home.title') })).toBeVisible();
});

test('an unsupported lang parameter falls back to English', async ({ page }) => {
  await page.goto('/?lang=xx');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1, name: en('home.title') })).toBeVisible();
});

test('an unknown path shows Page Not Found, is noindex, and Return Home works', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await page.getByRole('link', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: en('home.title') })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
});

test('/orders while signed out redirects to /signin', async ({ page }) => {
  await page.goto('/orders');
  await expect(page).toHaveURL(/\/signin$/);
});

test('a ?ref= code is stored and reported as an affiliate click', async ({ page }) => {
  const click = page.waitForRequest(
    (r) => r.url().endsWith('/api/affiliate/click') && r.method() === 'POST',
  );
  await page.goto('/?ref=partner42');
  const request = await click;
  expect(request.postDataJSON()).toEqual({ referral_code: 'partner42', source: 'direct' });
  expect((await request.response())?.status()).toBe(202);
  expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBe('partner42');
});

test('on a phone the menu button opens the navigation', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Status' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await page.getByRole('button', { name: en('nav.closeMenu') }).click();
  await expect(menu).toHaveCount(0);
});

test('a page loaded on demand shows its texts in the chosen language, never raw keys', async ({ page }) => {
  const ja = texts('ja');
  await page.goto('/no-such-page?lang=ja');
  await expect(page.getByRole('heading', { name: ja('notFound.title') })).toBeVisible();
  await expect(page.getByRole('link', { name: ja('notFound.returnHome') })).toBeVisible();
  await expect(page.getByText('notFound.')).toHaveCount(0);
  // Switching language on such a page loads that language's page texts too.
  await clickWhenLive(page.getByRole('button', { name: new RegExp(ja('nav.language')) }));
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { name: de('notFound.title') })).toBeVisible();
});

// Terms and privacy (spec/accounts-and-pages.md §1): last updated May 1, 2025, minimum age 18,
// Cayman Islands law; the operator's details from the configuration.
import { expect, test } from '@playwright/test';

test('the exchange notice links to the terms, which state the spec facts', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  await page.getByRole('link', { name: 'Terms of Service' }).first().click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByText('Last updated: May 1, 2025').first()).toBeVisible();
  const body = page.locator('article');
  await expect(body).toContainText('at least 18 years old');
  await expect(body).toContainText('Cayman Islands');
  await expect(body).toContainText('support@ferry.local');
  await expect(body).not.toContainText('{{');
});

test('the privacy policy renders, and says it is in English in another language', async ({ page }) => {
  await page.goto('/privacy?lang=de');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText('Dieses Dokument ist nur auf Englisch verfügbar.')).toBeVisible();
  await expect(page.getByText('Zuletzt aktualisiert: 1. Mai 2025')).toBeVisible();
});

test('the about page tells the mission, vision, selling points and an honest roadmap', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'About', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About Ferry' })).toBeVisible();
  for (const heading of ['Our mission', 'Our vision', 'Your keys, your coins', 'Clear pricing', 'Open and self-hostable', 'Roadmap']) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(page.getByText('Q2 2025 — 150+ currencies')).toBeVisible();
  await expect(page.getByText('14 languages today; more are planned.')).toBeVisible();
  await expect(page.getByText('0.5% for a float rate or 1.0% for a fixed rate', { exact: false })).toBeVisible();
});

// Shared by the tests and the Playwright configuration.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

export const ADMIN_TOKEN = 'e2e-admin-token';
/** The bearer token the e2e server's `/metrics` answers (`FERRY_METRICS_TOKEN`). */
export const METRICS_TOKEN = 'e2e-metrics-token';

/**
 * Resolves once the app has taken `node` over (React puts its own keys on the nodes it owns). A
 * prerendered page shows its controls before that, but they answer only then: the header's menus
 * come in a chunk of their own, and a click before it has run is lost.
 */
export async function whenLive(node: Locator) {
  await expect
    .poll(() => node.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react'))))
    .toBe(true);
}

/**
 * Holds the app's entry script (or another of its scripts) back, so what shows is the page
 * before any of it has run; the function returned lets it go, and what asks for it afterwards.
 */
export async function withoutTheApp(page: Page, script = /\/assets\/index-[^/]+\.js$/) {
  let released = false;
  const held: (() => void)[] = [];
  await page.route(script, async (route) => {
    if (!released) await new Promise<void>((resolve) => held.push(resolve));
    // The page may have moved on meanwhile (its request cancelled): nothing to continue.
    await route.continue().catch(() => undefined);
  });
  return () => {
    released = true;
    held.splice(0).forEach((go) => go());
  };
}

/** Clicks a control once the app has taken it over (see `whenLive`). */
export async function clickWhenLive(control: Locator) {
  await whenLive(control);
  await control.click();
}

/** Published addresses that pass the server's checksums. */
export const ADDRESSES = {
  ETH: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ETH_TYPO: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
  BTC: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  BTC_LEGACY: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  XRP: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

/** Picks a coin in one of the widget's pickers by typing its name. */
export async function pickCoin(page: Page, side: 'You send' | 'You get', search: string) {
  await page.getByRole('button', { name: new RegExp(`^${side}:`) }).click();
  await page.getByPlaceholder('Search by name or ticker').fill(search);
  await page.keyboard.press('Enter');
}

/**
 * 'Exchange now' at a fixed rate, until the order's page is open. The sandbox's market moves
 * every 5 seconds: should it fall between the quote on screen and the click, the server asks
 * the customer to confirm the lower amount first ('The amount changed', 409), as it must; the
 * customer confirms, as often as it falls again.
 */
export async function exchangeNowAtFixedRate(page: Page) {
  const created = () =>
    page.waitForResponse((r) => r.url().endsWith('/api/create-order') && r.request().method() === 'POST');
  let answer = created();
  await page.getByRole('button', { name: 'Exchange now' }).click();
  const dialog = page.getByRole('dialog', { name: 'The amount changed' });
  for (let attempt = 0; attempt < 4 && (await answer).status() === 409; attempt += 1) {
    await expect(dialog).toBeVisible();
    answer = created();
    await dialog.getByRole('button', { name: /^Create the order for / }).click();
  }
  await expect(page).toHaveURL(/\/order\/[A-Z2-9]{16}\?token=/);
}

export async function simulateDeposit(request: APIRequestContext, orderId: string, amount?: string) {
  const response = await request.post('/api/admin/sandbox/deposit', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { order_id: orderId, ...(amount ? { amount } : {}) },
  });
  expect(response.status()).toBe(200);
}

/** The sandbox closes the order's deposit window now, as if its time had run out. */
export async function expireOrder(request: APIRequestContext, orderId: string) {
  const response = await request.post('/api/admin/sandbox/expire', {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: { order_id: orderId },
  });
  expect(response.status()).toBe(200);
}

/** The operator's whole override of a currency (`{}` clears it), as the back office sends it. */
export async function setCurrencySwitch(
  request: APIRequestContext,
  code: string,
  body: { send?: boolean | null; recv?: boolean | null; maintenance?: string | null; min?: string | null; max?: string | null },
) {
  const response = await request.put(`/api/admin/currency-overrides/${code}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    data: body,
  });
  expect(response.status()).toBe(200);
}

/** Notes a secret the test handled, so the teardown can check the server never logged it. */
export function rememberSecret(secret: string | null | undefined): void {
  if (!secret) return;
  appendFileSync(join(process.env.E2E_DATA_DIR ?? '.', 'secrets.txt'), `${secret}\n`);
}

// Partners end to end (issue #7): an API key made on /api-management signs a real request,
// and the affiliate page shows a visitor's click and the order the widget credited to it.
import { createHmac } from 'node:crypto';

import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { mailedLink } from './mail';
import { ADDRESSES, rememberSecret, simulateDeposit } from './support';
import { texts } from './texts';

const en = texts('en');
const PASSWORD = 'Correct1horse';

function uniqueEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** A registered (and, if asked, verified) user: their e-mail and referral code. */
async function partner(request: APIRequestContext, verified: boolean) {
  const email = uniqueEmail('partner');
  const answer = await request.post('/api/register', {
    data: { email, username: email, password: PASSWORD, confirm_password: PASSWORD },
  });
  expect(answer.status()).toBe(201);
  const body = (await answer.json()) as { token: string; user: { referral_code: string } };
  rememberSecret(body.token);
  if (verified) {
    const link = await mailedLink(email, '/verify-email');
    const token = new URL(link).searchParams.get('token');
    const verify = await request.post('/api/email/verification/verify', { data: { token } });
    expect(verify.status()).toBe(200);
  }
  return { email, code: body.user.referral_code };
}

/** Signs in through the form (the session is an HttpOnly cookie), then opens `path`. */
async function signedIn(page: Page, email: string, path: string) {
  await page.goto('/signin');
  await page.getByLabel(en('account.fields.email')).fill(email);
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: en('account.signIn.submit'), exact: true }).click();
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();
  await page.goto(path);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('an API key is created with its secret shown once, signs a request, and its use is counted', async ({
  page,
  request,
}) => {
  const unverified = await partner(request, false);
  await signedIn(page, unverified.email, '/api-management');
  await expect(page.getByText(en('account.apiKeys.verifyFirst'))).toBeVisible();
  await expect(page.getByRole('button', { name: en('account.apiKeys.create') })).toBeDisabled();

  const { email } = await partner(request, true);
  await page.getByRole('button', { name: en('nav.accountMenu') }).click();
  await page.getByRole('menuitem', { name: en('nav.signOut') }).click();
  await signedIn(page, email, '/api-management');
  await expect(page.getByRole('heading', { name: en('account.apiKeys.title'), level: 1 })).toBeVisible();
  await expect(page.getByText(en('account.apiKeys.none'))).toBeVisible();
  await page.getByLabel(en('account.apiKeys.name')).fill('E2E bot');
  await page.getByLabel(en('account.apiKeys.permission')).selectOption('trade');
  await page.getByRole('button', { name: en('account.apiKeys.create') }).click();

  const created = page.getByRole('region', { name: en('account.apiKeys.createdTitle') });
  await expect(created.getByText(en('account.apiKeys.createdText'))).toBeVisible();
  const values = created.locator('dd code');
  const key = (await values.nth(0).textContent())!.trim();
  const secret = (await values.nth(1).textContent())!.trim();
  rememberSecret(secret);
  rememberSecret((await values.nth(2).textContent())!.trim());
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: en('account.apiKeys.savedIt') }).click();
  await expect(created).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  const item = page.getByTestId('api-key');
  await expect(item).toContainText(key);
  await expect(item.getByTestId('request-count')).toHaveText('0');
  await expect(item).toContainText(en('account.apiKeys.never'));

  // The test signs a partner request itself, as a partner's client would.
  const body = JSON.stringify({ type: 'float', fromCcy: 'BTC', toCcy: 'ETH', direction: 'from', amount: '0.1' });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  const price = await request.post('/api/v2/price', {
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-api-sign': signature },
    data: body,
  });
  const answer = (await price.json()) as { code: number; data: { from: { code: string } } };
  expect(answer.code).toBe(0);
  expect(answer.data.from.code).toBe('BTC');
  const forged = await request.post('/api/v2/price', {
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-api-sign': '00'.repeat(32) },
    data: body,
  });
  expect(((await forged.json()) as { code: number }).code).toBe(311);

  await page.reload();
  await expect(item.getByTestId('request-count')).toHaveText('1');
  await expect(item).not.toContainText(en('account.apiKeys.never'));

  // Revoking stops the key at once.
  await item.getByRole('button', { name: en('account.apiKeys.revoke') }).click();
  const confirm = page.getByRole('dialog', { name: en('account.apiKeys.revokeConfirmTitle').replace('{{name}}', 'E2E bot') });
  await expect(confirm).toContainText(en('account.apiKeys.revokeConfirmText'));
  await confirm.getByRole('button', { name: en('account.apiKeys.confirmRevoke') }).click();
  await expect(confirm).toHaveCount(0);
  await expect(item).toContainText(en('account.apiKeys.revoked'));
  const after = await request.post('/api/v2/price', {
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-api-sign': signature },
    data: body,
  });
  expect(((await after.json()) as { code: number }).code).toBe(311);
});

test('the affiliate page shows the click and the order a referred visitor made', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const { email, code } = await partner(request, false);

  // A visitor arrives with the link and exchanges through the widget.
  const visitor = await browser.newPage();
  await visitor.goto(`/exchange/btc-eth?ref=${code}`);
  await expect.poll(() => visitor.evaluate(() => localStorage.getItem('referralCode'))).toBe(code);
  await visitor.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await visitor.getByRole('button', { name: 'Exchange now' }).click();
  await expect(visitor.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  const orderId = (await visitor.getByTestId('order-id').textContent())!.trim();
  await visitor.close();

  await signedIn(page, email, '/affiliate');
  await expect(page.getByRole('heading', { name: en('account.affiliate.title'), level: 1 })).toBeVisible();
  await expect(page.getByTestId('referral-link')).toHaveText(new RegExp(`/\\?ref=${code}$`));
  await expect(page.getByTestId('stat-clicks')).toHaveText('1');
  await expect(page.getByTestId('stat-orders')).toHaveText('1');
  const orders = page.getByRole('region', { name: en('account.affiliate.ordersTitle') });
  await expect(orders).toContainText(orderId);
  await expect(orders).toContainText(en('account.affiliate.states.pending'));
  await expect(page.getByRole('img', { name: /clicks 1, orders 1,/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Once the order completes, the commission is earned.
  await simulateDeposit(request, orderId);
  await expect
    .poll(
      async () => {
        await page.reload();
        return orders.textContent();
      },
      { timeout: 20_000 },
    )
    .toContain(en('account.affiliate.states.available'));
  await expect(page.getByRole('button', { name: en('account.affiliate.requestPayout') })).toBeDisabled();
});

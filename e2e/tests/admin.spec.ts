// The back office end to end (issue 22): an operator with 2FA signs in, finds an order in
// EMERGENCY by its deposit address and refunds it; the customer's page shows the refund and
// the audit log names the operator. The console stays out of the public bundle and search.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { mailedLink, nowInsideAStep, totp } from './mail';
import { ADDRESSES, ADMIN_TOKEN, rememberSecret, simulateDeposit } from './support';
import { texts } from './texts';

const en = texts('en');
const PASSWORD = 'Correct1horse';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * An account with a confirmed e-mail, two-factor authentication on and `role` in the back
 * office, made over the API as an owner would: its e-mail and authenticator secret.
 */
async function makeOperator(request: APIRequestContext, role: string): Promise<{ email: string; secret: string }> {
  const email = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await request.post('/api/register', {
    data: { email, username: email, password: PASSWORD, confirm_password: PASSWORD, full_name: 'Olga Operator' },
  });
  expect(registered.status()).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  rememberSecret(token);
  const bearer = { authorization: `Bearer ${token}` };
  const setup = (await (await request.post('/api/account/2fa/setup', { headers: bearer })).json()) as { secret: string };
  rememberSecret(setup.secret);
  const now = await nowInsideAStep();
  const enabled = await request.post('/api/account/2fa/enable', {
    headers: bearer,
    data: { code: totp(setup.secret, now - 30) },
  });
  expect(enabled.status()).toBe(200);
  const link = await mailedLink(email, '/verify-email');
  const verifyToken = new URL(link).searchParams.get('token') ?? '';
  rememberSecret(verifyToken);
  expect((await request.post('/api/email/verification/verify', { data: { token: verifyToken } })).status()).toBe(200);
  const made = await request.put('/api/admin/operators', { headers: admin, data: { email, role } });
  expect(made.status()).toBe(200);
  // Signed out again: the browser signs in by itself.
  await request.post('/api/logout', { headers: bearer });
  return { email, secret: setup.secret };
}

/** A fixed BTC → ETH order a visitor placed, with 0.008 of its 0.01 BTC deposited: EMERGENCY. */
async function orderInEmergency(request: APIRequestContext) {
  const created = await request.post('/api/create-order', {
    data: { fromCcy: 'BTC', toCcy: 'ETH', amount: '0.01', toAddress: ADDRESSES.ETH, direction: 'from', type: 'fixed' },
  });
  expect(created.status()).toBe(200);
  const { data } = (await created.json()) as { data: { id: string; token: string; from: { address: string } } };
  await simulateDeposit(request, data.id, '0.008');
  return { id: data.id, token: data.token, depositAddress: data.from.address };
}

async function signInWithCode(page: Page, email: string, secret: string) {
  await page.getByLabel(en('account.fields.email')).fill(email);
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: en('account.signIn.submit'), exact: true }).click();
  await expect(page.getByRole('heading', { name: en('account.signIn.twoFactorTitle') })).toBeVisible();
  const now = await nowInsideAStep();
  await page.getByLabel(en('account.fields.code')).fill(totp(secret, now));
  await page.getByRole('button', { name: en('account.signIn.verify') }).click();
}

test('an operator finds an order in EMERGENCY by its deposit address and refunds it; the customer sees the refund and the log names the operator', async ({
  page,
  request,
}) => {
  const operator = await makeOperator(request, 'operator');
  const order = await orderInEmergency(request);

  // The console is behind sign-in; signing in with a code opens it at once.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/signin/);
  await signInWithCode(page, operator.email, operator.secret);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: en('admin.home.title') })).toBeVisible();
  await expect(page.locator('meta[name="robots"][content="noindex"]')).toHaveCount(1);
  await expectNoSeriousViolations(page);

  // Find it by its deposit address.
  // Exactly: the queue's link ("Needs a person, orders waiting: 1") names orders too.
  await page.getByRole('link', { name: en('admin.nav.orders'), exact: true }).click();
  await page.getByLabel(en('admin.orders.search')).fill(order.depositAddress);
  await page.getByRole('button', { name: en('admin.orders.submit') }).click();
  const results = page.getByRole('table');
  await expect(results.getByRole('row')).toHaveCount(2);
  await expectNoSeriousViolations(page);
  await results.getByRole('link', { name: new RegExp(order.id) }).click();
  await expect(page.getByRole('heading', { name: en('admin.order.title').replace('{{id}}', order.id) })).toBeVisible();
  await expect(page.getByText(en('order.status.EMERGENCY')).first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // Refund: a reason is required, and the address (the order has none yet).
  // Exact: "Set refund address" is a button too.
  await page.getByRole('button', { name: en('admin.refund.open'), exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: en('admin.refund.title').replace('{{id}}', order.id) })).toBeVisible();
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: en('admin.refund.submit') }).click();
  await expect(dialog.getByText(en('admin.refund.reasonRequired'))).toBeVisible();
  await dialog.getByLabel(en('admin.refund.reason')).fill('Sent too little; the customer asked for the coins back');
  await dialog.getByLabel(en('admin.refund.address').replace('{{coin}}', 'BTC')).fill(ADDRESSES.BTC);
  await dialog.getByRole('button', { name: en('admin.refund.submit') }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: en('admin.refund.done') })).toBeVisible();
  await expect(dialog).toBeHidden();

  // The sandbox sends it back; the timeline names who did it and why.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(en('order.status.REFUNDED')).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Sent too little; the customer asked for the coins back')).toBeVisible();
  await expect(page.getByText(operator.email).first()).toBeVisible();
  await expect(page.getByRole('button', { name: en('admin.refund.open'), exact: true })).toHaveCount(0);

  // The customer's own page shows the refund.
  await page.goto(`/order/${order.id}?token=${order.token}`);
  await expect(page.getByText(en('order.refundedTitle'))).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(ADDRESSES.BTC).first()).toBeVisible();

  // And the audit log names the operator.
  const log = (await (
    await request.get(`/api/admin/audit?action=order.refund&subject_id=${order.id}`, { headers: admin })
  ).json()) as { entries: { actor_email: string; actor_role: string; reason: string }[] };
  expect(log.entries).toHaveLength(1);
  expect(log.entries[0]).toMatchObject({
    actor_email: operator.email,
    actor_role: 'operator',
    reason: 'Sent too little; the customer asked for the coins back',
  });
});

test('an operator puts a currency in maintenance from the console and customers see the message; the console pages pass axe', async ({
  page,
  request,
}) => {
  const operator = await makeOperator(request, 'operator');
  await page.goto('/admin/currencies');
  await signInWithCode(page, operator.email, operator.secret);
  await expect(page.getByRole('heading', { name: en('admin.currencies.title') })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByLabel(en('admin.currencies.filter')).fill('ZEC');
  await page.getByRole('button', { name: 'Edit ZEC' }).click();
  const dialog = page.getByRole('dialog');
  await expectNoSeriousViolations(page);
  const message = `Node upgrade ${Date.now()}`;
  await dialog.getByLabel(en('admin.editCurrency.maintenance')).fill(message);
  await dialog.getByRole('button', { name: en('admin.editCurrency.submit') }).click();
  await expect(dialog).toBeHidden();
  try {
    await expect(page.getByRole('row').filter({ hasText: message })).toHaveCount(1);
    const customer = await page.context().newPage();
    await customer.goto('/exchange/btc-zec');
    await expect(customer.getByText('ZEC is under maintenance')).toBeVisible();
    await expect(customer.getByText(message)).toBeVisible();
    await customer.close();
  } finally {
    expect((await request.put('/api/admin/currency-overrides/ZEC', { headers: admin, data: {} })).status()).toBe(200);
  }
  const log = (await (
    await request.get('/api/admin/audit?action=currency.set&subject_id=ZEC', { headers: admin })
  ).json()) as { entries: { actor_email: string | null; after: { maintenance: string | null } }[] };
  expect(log.entries.map((e) => [e.actor_email, e.after.maintenance])).toContainEqual([operator.email, message]);

  for (const [link, title] of [
    ['admin.nav.incidents', 'admin.incidents.title'],
    ['admin.nav.apiKeys', 'admin.apiKeys.title'],
  ]) {
    await page.getByRole('link', { name: en(link), exact: true }).click();
    await expect(page.getByRole('heading', { name: en(title), level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page);
  }
});

test('a support operator reads an order but is offered no refund, and a locked console asks for a fresh code', async ({
  page,
  request,
}) => {
  const support = await makeOperator(request, 'support');
  const order = await orderInEmergency(request);
  await page.goto('/signin');
  await signInWithCode(page, support.email, support.secret);
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();

  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByRole('heading', { name: en('admin.order.title').replace('{{id}}', order.id) })).toBeVisible();
  await expect(page.getByRole('button', { name: en('admin.refund.open'), exact: true })).toHaveCount(0);
  await page.getByLabel(en('admin.notes.label'), { exact: true }).fill('Customer wrote in about this order');
  await page.getByRole('button', { name: en('admin.notes.submit') }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: en('admin.notes.added') })).toBeVisible();
  await expect(page.getByText('Customer wrote in about this order')).toBeVisible();

  // Locked: the console asks for a code again, and only a new one opens it.
  await page.getByRole('button', { name: en('admin.session.lock') }).click();
  await expect(page.getByRole('heading', { name: en('admin.session.lockedTitle') })).toBeVisible();
  await expectNoSeriousViolations(page);
  await expect(async () => {
    const now = await nowInsideAStep();
    await page.getByLabel(en('admin.session.code')).fill(totp(support.secret, now + 30));
    await page.getByRole('button', { name: en('admin.session.unlock') }).click();
    await expect(page.getByRole('heading', { name: en('admin.order.title').replace('{{id}}', order.id) })).toBeVisible({
      timeout: 2000,
    });
  }).toPass({ timeout: 40_000 });
});

test('the console is not in the public bundle, not for customers and not for search engines', async ({ page, request }) => {
  const loaded: string[] = [];
  page.on('request', (r) => loaded.push(r.url()));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(loaded.filter((url) => /admin/i.test(url))).toEqual([]);

  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain('Disallow: /admin\n');
  const html = await (await request.get('/admin/orders')).text();
  expect(html).toContain('<meta name="robots" content="noindex"');

  // A visitor is sent to sign in; the admin API does not exist for them.
  expect((await request.get('/api/admin/orders')).status()).toBe(401);
});

test('an operator locks a customer account from the console: the customer is signed out and cannot sign in', async ({
  page,
  browser,
  request,
}) => {
  const operator = await makeOperator(request, 'operator');
  // The customer, signed in in a browser of their own.
  const customer = await browser.newContext();
  const customerPage = await customer.newPage();
  const email = `customer-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const registered = await customerPage.request.post('/api/register', {
    data: { email, username: email, password: PASSWORD, confirm_password: PASSWORD, full_name: 'Cara Customer' },
  });
  expect(registered.status()).toBe(201);
  rememberSecret(((await registered.json()) as { token: string }).token);
  expect((await customerPage.request.get('/api/user')).status()).toBe(200);

  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/signin/);
  await signInWithCode(page, operator.email, operator.secret);
  await expect(page.getByRole('heading', { name: en('admin.users.title') })).toBeVisible();
  await page.getByLabel(en('admin.users.search')).fill(email);
  await page.getByRole('button', { name: en('admin.users.submit') }).click();
  await page.getByRole('table').getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { name: new RegExp(email) })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: en('admin.lockUser.open') }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(en('admin.act.reason')).fill('The customer reports a stolen password');
  await dialog.getByRole('button', { name: en('admin.lockUser.submit') }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: en('admin.lockUser.done') })).toBeVisible();
  await expect(page.getByText(en('admin.users.locked')).first()).toBeVisible();

  // The customer's session is gone, and the password opens none.
  expect((await customerPage.request.get('/api/user')).status()).toBe(401);
  const again = await customerPage.request.post('/api/login', { data: { username: email, password: PASSWORD } });
  expect(again.status()).toBe(403);
  await customer.close();
});

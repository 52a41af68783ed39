// Accounts end to end (spec/accounts-and-pages.md §2.7–2.13, §2.15, §4.1, §5, §8), with the
// server's mails delivered to a real SMTP server and TOTP codes computed by the test.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

import { mailCount, mailedLink, nowInsideAStep, totp } from './mail';
import { ADDRESSES, rememberSecret } from './support';
import { texts } from './texts';

const en = texts('en');
const PASSWORD = 'Correct1horse';

function uniqueEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.locator('[data-toast]').filter({ hasText: title });
  await expect(toast).toBeVisible();
  if (description) await expect(toast).toContainText(description);
}

/** Signs up through the form; the session token the server answered with (for API calls). */
async function signUp(page: Page, email: string): Promise<string> {
  await page.getByLabel(en('account.fields.fullName')).fill('Ada Lovelace');
  await page.getByLabel(en('account.fields.email')).fill(email);
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill(PASSWORD);
  await page.getByLabel(en('account.fields.confirmPassword')).fill(PASSWORD);
  await page.getByRole('checkbox').check();
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/register'));
  await page.getByRole('button', { name: en('account.signUp.submit') }).click();
  const token = ((await (await answer).json()) as { token: string }).token;
  rememberSecret(token);
  return token;
}

/**
 * The session lives in an HttpOnly cookie: no script of the page can read it, and nothing the
 * page stores (localStorage, sessionStorage, readable cookies) holds the token.
 */
async function expectTokenOutOfScriptsReach(page: Page, token: string) {
  const readable = await page.evaluate(() => ({
    local: Object.entries(localStorage),
    session: Object.entries(sessionStorage),
    cookies: document.cookie,
  }));
  expect(token.length).toBeGreaterThan(20);
  for (const [key, value] of [...readable.local, ...readable.session]) {
    expect(`${key}=${value}`).not.toContain(token);
  }
  expect(readable.cookies).not.toContain(token);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'ferry_session');
  expect(cookie?.value).toBe(token);
  expect(cookie?.httpOnly).toBe(true);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/signin');
  await page.getByLabel(en('account.fields.email')).fill(email);
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: en('account.signIn.submit'), exact: true }).click();
}

async function openAccountMenu(page: Page, item: string) {
  await page.getByRole('button', { name: en('nav.accountMenu') }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('the whole account journey: referral sign-up, mailed verification, 2FA, orders, password reset', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A referrer, and a visitor arriving with their code.
  const referrer = await request.post('/api/register', {
    data: { email: uniqueEmail('referrer'), password: PASSWORD, confirm_password: PASSWORD },
  });
  const code = (await referrer.json()).user.referral_code as string;
  const email = uniqueEmail('ada');
  await page.goto(`/?ref=${code}`);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('referralCode'))).toBe(code);
  await page.goto('/signup');
  await expect(page.getByText(en('account.signUp.referral').replace('{{code}}', code))).toBeVisible();
  const token = await signUp(page, email);
  await expectToast(page, en('account.signUp.successTitle'), en('account.signUp.successDescription'));
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBeNull();
  await expectTokenOutOfScriptsReach(page, token);
  const me = await (await request.get('/api/user', { headers: { authorization: `Bearer ${token}` } })).json();
  expect(me.user.referred_by).toBe(code);

  // The verification mail arrives over SMTP; its link verifies.
  await page.getByRole('button', { name: en('nav.accountMenu') }).click();
  await expect(page.getByRole('menuitem', { name: en('nav.verifyEmail') })).toBeVisible();
  await page.keyboard.press('Escape');
  const verifyLink = await mailedLink(email, '/verify-email');
  rememberSecret(new URL(verifyLink).searchParams.get('token'));
  await page.goto(verifyLink);
  await expect(page.getByRole('heading', { name: en('account.verify.successTitle') })).toBeVisible();
  await expect(page.getByText(en('account.verify.verifiedAddress').replace('{{email}}', email))).toBeVisible();
  await page.getByRole('link', { name: en('account.verify.goToDashboard') }).click();
  await expect(page.getByRole('heading', { name: en('account.dashboard.title') })).toBeVisible();
  await page.getByRole('button', { name: en('nav.accountMenu') }).click();
  await expect(page.getByRole('menuitem', { name: en('nav.verifyEmail') })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Two-factor authentication, with the code computed here.
  await openAccountMenu(page, en('nav.profile'));
  const twoFactor = page.getByRole('region', { name: en('account.profile.twoFactorSection') });
  await twoFactor.getByRole('button', { name: en('account.profile.enable') }).click();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  rememberSecret(secret);
  const enabledAt = await nowInsideAStep();
  await twoFactor.getByLabel(en('account.profile.confirmCode')).fill(totp(secret, enabledAt));
  await twoFactor.getByRole('button', { name: en('account.profile.confirm') }).click();
  await expect(twoFactor.getByRole('list', { name: en('account.profile.recoveryTitle') }).getByRole('listitem')).toHaveCount(10);
  await twoFactor.getByRole('button', { name: en('account.profile.done') }).click();
  await expect(twoFactor.getByText(en('account.profile.twoFactorOn'))).toBeVisible();

  // Sign out; signing in now needs the code.
  await openAccountMenu(page, en('nav.signOut'));
  await expectToast(page, en('auth.loggedOutTitle'));
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: en('account.signIn.twoFactorTitle') })).toBeVisible();
  await page.getByLabel(en('account.fields.code')).fill('123');
  await page.getByRole('button', { name: en('account.signIn.verify') }).click();
  await expect(page.getByText(en('account.validation.codeLength'))).toBeVisible();
  await expect(page.getByLabel(en('account.fields.code'))).toBeFocused();
  await page.getByLabel(en('account.fields.code')).fill(totp(secret, enabledAt + 30));
  await page.getByRole('button', { name: en('account.signIn.verify') }).click();
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();
  // The page reloads after the code step: the new session's token is the cookie's value.
  const sessionToken = (await page.context().cookies()).find((c) => c.name === 'ferry_session')?.value ?? '';
  rememberSecret(sessionToken);
  await expectTokenOutOfScriptsReach(page, sessionToken);

  // An order created while signed in (by the session cookie alone) appears in My Orders.
  const orderId = await page.evaluate(async (address) => {
    const response = await fetch('/api/create-order', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fromCcy: 'BTC', toCcy: 'ETH', amount: '0.05', toAddress: address }),
    });
    return ((await response.json()) as { data: { id: string } }).data.id;
  }, ADDRESSES.ETH);
  await openAccountMenu(page, en('nav.orders'));
  await expect(page.getByRole('heading', { name: en('account.orders.title') })).toBeVisible();
  await expect(page.getByText(en('account.orders.count').replace('{{count}}', '1'))).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: orderId });
  await expect(row.getByText('0.05000000')).toBeVisible();
  await expect(row.getByText(en('order.status.NEW'))).toBeVisible();
  await page.getByLabel(en('account.orders.search')).fill('zzz');
  await expect(page.getByText(en('account.orders.noMatch'))).toBeVisible();
  await page.getByLabel(en('account.orders.search')).fill(orderId.slice(0, 6).toUpperCase());
  await row.getByRole('link', { name: new RegExp(en('account.orders.viewDetails')) }).click();
  await expect(page).toHaveURL(new RegExp(`/order-details/${orderId}$`));
  // The owner sees the full order without the link's token.
  await expect(page.getByText(ADDRESSES.ETH)).toBeVisible();

  // Signing out goes home and leaves nothing private behind: back on the order's page only its
  // public status shows, and My Orders asks to sign in again.
  await openAccountMenu(page, en('nav.signOut'));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: en('nav.signIn') })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === 'ferry_session')).toBeUndefined();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/order-details/${orderId}$`));
  await expect(page.getByText(en('order.publicView'))).toBeVisible();
  await expect(page.getByText(ADDRESSES.ETH)).toHaveCount(0);
  // Tracking is for everyone: the footer's link goes to the Track page, not to sign in.
  await page.getByRole('link', { name: en('footer.trackOrder') }).click();
  await expect(page).toHaveURL(/\/track$/);
  await page.goto('/orders');
  await expect(page).toHaveURL(/\/signin$/);

  // Forgot password → the mailed link → a new password; the old sessions are gone.
  const mailsBefore = mailCount(email);
  await page.goto('/forgot-password');
  await page.getByLabel(en('account.fields.email')).fill(email);
  await page.getByRole('button', { name: en('account.forgot.submit') }).click();
  await expect(page.getByRole('heading', { name: en('account.forgot.sentTitle') })).toBeVisible();
  await expectToast(page, en('account.forgot.toastTitle'), en('account.forgot.toastDescription'));
  const resetLink = await mailedLink(email, '/reset-password', mailsBefore);
  rememberSecret(new URL(resetLink).searchParams.get('token'));
  await page.goto(resetLink);
  await page.getByLabel(en('account.fields.newPassword')).fill('Brand2newpass');
  await page.getByLabel(en('account.fields.confirmPassword')).fill('Brand2newpass');
  await page.getByRole('button', { name: en('account.reset.submit') }).click();
  await expect(page.getByRole('heading', { name: en('account.reset.successTitle') })).toBeVisible();
  const old = await request.get('/api/user', { headers: { authorization: `Bearer ${sessionToken}` } });
  expect(old.status()).toBe(401);
  // The used link is dead.
  await page.goto(resetLink);
  await expect(page.getByRole('heading', { name: en('account.reset.invalidTitle') })).toBeVisible();
  // And the new password works (with the code).
  await signIn(page, email, 'Brand2newpass');
  await expect(page.getByRole('heading', { name: en('account.signIn.twoFactorTitle') })).toBeVisible();
});

test('sign-in and sign-up check their fields with the spec messages', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: en('account.signIn.submit'), exact: true }).click();
  await expect(page.getByText(en('account.validation.emailRequired'))).toBeVisible();
  await expect(page.getByLabel(en('account.fields.email'))).toBeFocused();
  await expect(page.getByText(en('account.validation.signInPasswordMin'))).toBeVisible();
  await page.getByLabel(en('account.fields.email')).fill('nobody@example.com');
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill('Wrong1password');
  await page.getByRole('button', { name: en('account.fields.showPassword') }).click();
  await expect(page.getByLabel(en('account.fields.password'), { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: en('account.signIn.submit'), exact: true }).click();
  await expectToast(page, en('account.signIn.failed'), 'Invalid email or password');

  await page.goto('/signup');
  await page.getByLabel(en('account.fields.email')).fill('not-an-email');
  await page.getByLabel(en('account.fields.password'), { exact: true }).fill('abcdefgh');
  await page.getByLabel(en('account.fields.confirmPassword')).fill('abcdefgi');
  await page.getByRole('button', { name: en('account.signUp.submit') }).click();
  // The first invalid field takes the focus; each field is marked invalid and names its error.
  const fullName = page.getByLabel(en('account.fields.fullName'));
  await expect(fullName).toBeFocused();
  await expect(fullName).toHaveAttribute('aria-invalid', 'true');
  await expect(fullName).toHaveAccessibleDescription(en('account.validation.fullNameRequired'));
  await expect(page.getByRole('checkbox')).toHaveAccessibleDescription(en('account.validation.termsRequired'));
  for (const key of [
    'account.validation.fullNameRequired',
    'account.validation.emailInvalid',
    'account.validation.passwordMix',
    'account.validation.passwordsMismatch',
    'account.validation.termsRequired',
  ]) {
    await expect(page.getByText(en(key))).toBeVisible();
  }
  expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))).toEqual([]);
});

test('reset and verify links without a token say so', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { name: en('account.reset.invalidTitle') })).toBeVisible();
  await expectToast(page, en('account.reset.invalidToastTitle'), en('account.reset.invalidText'));
  await page.getByRole('link', { name: en('account.reset.requestNew') }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);

  await page.goto('/reset-password?token=made-up');
  await expect(page.getByRole('heading', { name: en('account.reset.invalidTitle') })).toBeVisible();

  await page.goto('/verify-email');
  await expect(page.getByText(en('account.verify.noToken'))).toBeVisible();
  await expect(page.getByRole('link', { name: en('account.verify.requestNew') })).toHaveAttribute('href', '/profile');
  await page.goto('/verify-email?token=made-up');
  await expect(page.getByText('This verification link is invalid or was already used.')).toBeVisible();
});

test('GitHub sign-in goes through the provider and back; Google says it is not set up', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: en('account.social.github') }).click();
  await expectToast(page, en('account.signIn.successTitle'));
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toContainText('octo-e2e@example.com');
  await openAccountMenu(page, en('nav.signOut'));

  await page.goto('/signin');
  await page.getByRole('link', { name: en('account.social.google') }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expectToast(
    page,
    en('account.signIn.failed'),
    en('account.social.notConfigured').replace('{{provider}}', 'Google'),
  );
});

test('a new account has an empty order list, a wallet teaser, and a profile with its sessions', async ({ page }) => {
  await page.goto('/signup');
  const token = await signUp(page, uniqueEmail('empty'));
  await expectTokenOutOfScriptsReach(page, token);
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();
  await page.goto('/orders');
  await expect(page.getByRole('heading', { name: en('account.orders.emptyTitle') })).toBeVisible();
  await page.getByRole('link', { name: en('account.orders.createFirst') }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/wallet');
  await expect(page.getByRole('heading', { name: en('account.wallet.title') })).toBeVisible();
  await expect(page.getByText(en('account.wallet.badge'))).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: en('account.wallet.orders') })).toHaveAttribute(
    'href',
    '/orders',
  );

  await page.goto('/profile');
  const sessions = page.getByRole('region', { name: en('account.profile.sessionsSection') });
  await expect(sessions.getByText(en('account.profile.thisDevice'))).toBeVisible();
  expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))).toEqual([]);

  // The phone menu greets the user.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: en('nav.openMenu') }).click();
  await expect(page.locator('#mobile-menu').getByText(/Hello, /)).toBeVisible();
});

test('the sign-in page renders in German', async ({ page }) => {
  const de = texts('de');
  await page.goto('/signin?lang=de');
  await expect(page.getByRole('heading', { name: de('account.signIn.title') })).toBeVisible();
  await expect(page.getByRole('link', { name: de('account.signIn.forgot') })).toBeVisible();
  await expect(page.getByText('account.')).toHaveCount(0);
});

test('a session ended elsewhere signs the app out at its next private call', async ({ page, request }) => {
  await page.goto('/signup');
  const token = await signUp(page, uniqueEmail('revoked'));
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();
  await openAccountMenu(page, en('nav.dashboard'));
  await expect(page.getByRole('heading', { name: en('account.dashboard.title') })).toBeVisible();
  // The dashboard's own private calls finish first: one still in flight after the logout below
  // would sign the app out before the step this test is about.
  await expect(page.getByText(en('account.dashboard.totalOrders'), { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Signed out from another client: the cookie this browser holds is now dead.
  const logout = await request.post('/api/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(logout.status()).toBe(200);
  await openAccountMenu(page, en('nav.orders'));
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('link', { name: en('nav.signIn') })).toBeVisible();
});

test('the dashboard says when the orders did not load, rather than showing zero', async ({ page }) => {
  await page.goto('/signup');
  await signUp(page, uniqueEmail('dash'));
  await expect(page.getByRole('button', { name: en('nav.accountMenu') })).toBeVisible();
  await page.route('**/api/orders', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"internal error"}' }),
  );
  await page.goto('/dashboard');
  await expect(page.getByRole('alert').filter({ hasText: en('account.orders.error') })).toBeVisible();
  await expect(page.getByText(en('account.dashboard.totalOrders'), { exact: true })).toHaveCount(0);
});

test('deleting a password-less (GitHub) account asks first', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: en('account.social.github') }).click();
  await expectToast(page, en('account.signIn.successTitle'));
  await page.goto('/profile');
  const danger = page.getByRole('region', { name: en('account.profile.dangerSection') });
  await danger.getByRole('button', { name: en('account.profile.deleteAction') }).click();
  const dialog = page.getByRole('dialog', { name: en('account.profile.deleteConfirmTitle') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: en('account.profile.cancel') }).click();
  await expect(dialog).toHaveCount(0);
  // Still there: nothing was deleted.
  await page.reload();
  await expect(page.getByRole('heading', { name: en('account.profile.title') })).toBeVisible();
});

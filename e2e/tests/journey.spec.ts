// The customer's journey of issue 24, walked on a phone (390×844) and a desktop (1366×900):
// the order's own link, tracking by id, the rate lock, the emergency choice, receipts that add
// up, quiet toasts, tap targets and dark mode without a flash.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { ADDRESSES, clickWhenLive, simulateDeposit, withoutTheApp } from './support';

const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1366, height: 900 } },
} as const;

interface Order {
  id: string;
  token: string;
  status: string;
  from: { amount: string; received: string | null };
  to: { amount: string; sent: string | null };
  refund: { address: string | null; amount: string | null };
  emergency: {
    outcomes?: { exchange: { amount?: string } | null; refund: { amount: string } | null };
  } | null;
}

interface Transactions {
  transactions: Record<'deposit' | 'payout' | 'refund', { id: string; explorer: string | null } | null>;
}

async function createOrder(request: APIRequestContext, body: Record<string, string> = {}) {
  const response = await request.post('/api/create-order', {
    data: { fromCcy: 'BTC', toCcy: 'ETH', amount: '0.01', toAddress: ADDRESSES.ETH, ...body },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).data as Order;
}

async function orderOf(request: APIRequestContext, order: Pick<Order, 'id' | 'token'>) {
  const response = await request.get(`/api/order-details/${order.id}?token=${order.token}`);
  return (await response.json()).data as Order;
}

async function until(request: APIRequestContext, order: Order, status: string) {
  await expect
    .poll(async () => (await orderOf(request, order)).status, { timeout: 25_000 })
    .toBe(status);
}

/** Opens the header's menu on a phone; on a desktop the links are in the header itself. */
async function mainMenu(page: Page, phone: boolean) {
  if (phone) await clickWhenLive(page.getByRole('button', { name: 'Open menu' }));
  return page.getByRole('navigation', { name: 'Main navigation' }).locator('visible=true');
}

/** Visible controls smaller than 44 × 44 px; links inside running text are exempt (WCAG 2.5.5). */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=menuitem]';
    const small: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let target: HTMLElement = element;
      // A radio or checkbox is tapped through its label.
      if (element instanceof HTMLInputElement && ['radio', 'checkbox'].includes(element.type)) {
        target = element.closest('label') ?? element;
      }
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // A link in a sentence: the text around it is the target's size (an inline exception).
      if (element.tagName === 'A' && style.display === 'inline') {
        const text = element.parentElement?.textContent?.trim() ?? '';
        if (text.length > (element.textContent?.trim().length ?? 0) + 10) continue;
      }
      // Skip-links are off screen until focused.
      if (box.right <= 0 || box.bottom <= 0 || element.classList.contains('sr-only')) continue;
      if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
        const name =
          element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
        small.push(`${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  });
}

async function contrastViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`));
}

for (const [device, use] of Object.entries(VIEWPORTS)) {
  const phone = device === 'phone';

  test.describe(`on a ${device}`, () => {
    test.use(use);

    test("the order's own link: the address bar moves to it, reload and back keep the order", async ({
      page,
    }) => {
      await page.goto('/exchange/btc-eth');
      await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
      await page.getByRole('button', { name: 'Exchange now' }).click();
      await expect(page).toHaveURL(/\/order\/[A-Z2-9]{16}\?token=[^&]+$/);
      await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
      const orderId = (await page.getByTestId('order-id').textContent())!.trim();
      const deposit = (await page.getByTestId('deposit-address').textContent())!.trim();
      // The link is offered in full, with a copy button, before anything else is done.
      await expect(page.getByTestId('order-link')).toHaveValue(page.url());
      await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();

      await page.reload();
      await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
      await expect(page.getByTestId('order-id')).toHaveText(orderId);
      await expect(page.getByTestId('deposit-address')).toHaveText(deposit);

      await page.goBack();
      await expect(page).toHaveURL(/\/exchange\/btc-eth$/);
      await expect(page.getByRole('button', { name: 'Exchange now' })).toBeVisible();
      await page.goForward();
      await expect(page.getByTestId('order-id')).toHaveText(orderId);

      // 'New Exchange' starts the pair over with the form reset (spec/exchange.md §4).
      await page.getByRole('button', { name: 'New Exchange' }).click();
      await expect(page).toHaveURL(/\/exchange\/btc-eth$/);
      await expect(page.getByLabel('You send', { exact: true })).toHaveValue('0.01');
      await expect(page.getByLabel('Destination address')).toHaveValue('');
    });

    test('status updates can be e-mailed, never required, and the link is the customer\'s to keep', async ({
      page,
      request,
    }) => {
      const order = await createOrder(request);
      await page.goto(`/order/${order.id}?token=${order.token}`);
      // The link can redirect a refund: the page says so, and the mail never carries it.
      await expect(page.getByText(/Anyone who has it can change where a refund goes/)).toBeVisible();
      await page.getByRole('button', { name: 'E-mail me status updates' }).click();
      await expect(page.getByText(/The e-mail does not carry this link/)).toBeVisible();
      await page.getByLabel('Your e-mail address').fill('not-an-address');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const card = page.getByRole('region', { name: "Your order's link" });
      await expect(card.getByRole('alert')).toBeVisible();
      await expect(card.getByLabel('Your e-mail address')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('[data-toast]')).toHaveCount(0);
      await page.getByLabel('Your e-mail address').fill(`guest-${Date.now()}@example.com`);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByText(/We will e-mail this order's status updates to guest-/)).toBeVisible();
    });

    test('a guest tracks an order by its id, from the menu', async ({ request, browser }) => {
      const order = await createOrder(request);
      // A browser that never saw the order: no token, no account.
      const guest = await browser.newPage({ ...use, baseURL: test.info().project.use.baseURL });
      await guest.goto('/');
      await (await mainMenu(guest, phone)).getByRole('link', { name: 'Track order' }).click();
      await expect(guest).toHaveURL(/\/track$/);
      await guest.getByLabel('Order ID').fill(order.id.toLowerCase());
      await guest.getByRole('button', { name: 'Track', exact: true }).click();
      const status = guest.getByTestId('public-status');
      await expect(status.getByTestId('order-status')).toHaveText('Awaiting Deposit');
      await expect(status).toContainText('0.01 BTC →');
      await expect(guest.getByText(ADDRESSES.ETH)).toHaveCount(0);
      await expect(guest.getByText('No order was created or opened in this browser yet.')).toBeVisible();

      // An id nobody knows: an answer that helps, said once.
      await guest.getByLabel('Order ID').fill('ZZZZZZZZZZZZZZZZ');
      await guest.getByRole('button', { name: 'Track', exact: true }).click();
      await expect(guest.getByTestId('unknown-order')).toContainText('We found no order ZZZZZZZZZZZZZZZZ');
      await expect(guest.locator('[data-toast]')).toHaveCount(0);
      await guest.close();
    });

    test('recent orders on this device open with their links', async ({ page }) => {
      await page.goto('/exchange/btc-eth');
      await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
      await page.getByRole('button', { name: 'Exchange now' }).click();
      await expect(page).toHaveURL(/\/order\//);
      const orderId = (await page.getByTestId('order-id').textContent())!.trim();
      await page.goto('/track');
      const recent = page.getByRole('region', { name: 'Recent orders on this device' });
      const entry = recent.getByRole('link').filter({ hasText: orderId });
      await expect(entry).toContainText(/0\.01 BTC → [\d.,]+ ETH/);
      await entry.click();
      await expect(page).toHaveURL(new RegExp(`/order/${orderId}\\?token=`));
      await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
      // Taken off this device on request: gone from the list and from storage.
      await page.goto('/track');
      await recent.getByRole('button', { name: `Forget on this device: ${orderId}` }).click();
      await expect(recent.getByText('Removed from this device.')).toBeVisible();
      await expect(recent.getByRole('link').filter({ hasText: orderId })).toHaveCount(0);
      const stored = await page.evaluate(() => localStorage.getItem('orderTokens') ?? '');
      expect(stored).not.toContain(orderId);
    });

    test('a fixed amount that changed before the order is shown and confirmed first', async ({ page, request }) => {
      await page.goto('/exchange/btc-eth');
      await page.getByLabel('Fixed rate (1.0%)').check();
      await expect(page.getByTestId('fixed-hold')).toHaveText(/^Amount held 0:[0-3]\d/);
      const shown = await page.getByLabel('You get', { exact: true }).inputValue();
      expect(Number(shown)).toBeGreaterThan(0);
      // The market moves between the quote and the order: the first request says it was shown
      // more than the order gives now, so the server refuses it (409) with the amount of now.
      let first = true;
      const sent: string[] = [];
      await page.route('**/api/create-order', async (route) => {
        const body = route.request().postDataJSON() as { expectedToAmount?: string };
        sent.push(body.expectedToAmount ?? '');
        if (!first) return route.continue();
        first = false;
        return route.continue({
          postData: JSON.stringify({ ...body, expectedToAmount: String(Number(shown) + 1) }),
        });
      });
      await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
      await page.getByRole('button', { name: 'Exchange now' }).click();
      const dialog = page.getByRole('dialog', { name: 'The amount changed' });
      await expect(dialog).toBeVisible();
      let now = (await dialog.getByTestId('new-receive-amount').textContent())!.replace(/ ETH$/, '').replace(/,/g, '');
      expect(Number(now)).toBeGreaterThan(0);
      // No order yet: the customer confirms the new amount first.
      await expect(page).toHaveURL(/\/exchange\/btc-eth$/);
      const confirmed = [shown];
      // The sandbox's market keeps moving: should it fall again before the click lands, the
      // customer is asked again, with the newer amount (never an order below what they saw).
      for (let attempt = 0; attempt < 3; attempt += 1) {
        confirmed.push(now);
        const answer = page.waitForResponse((r) => r.url().endsWith('/api/create-order'));
        await dialog.getByRole('button', { name: /^Create the order for / }).click();
        const response = await answer;
        if (response.status() !== 409) break;
        now = ((await response.json()) as { data: { to_amount: string } }).data.to_amount;
        await expect(dialog.getByTestId('new-receive-amount')).toContainText(now.replace(/0+$/, ''));
      }
      await expect(page).toHaveURL(/\/order\/[A-Z2-9]{16}\?token=/);
      expect(sent).toEqual(confirmed);
      const url = new URL(page.url());
      const order = await orderOf(request, {
        id: url.pathname.split('/').pop()!,
        token: url.searchParams.get('token')!,
      });
      expect(Number(order.to.amount)).toBeGreaterThanOrEqual(Number(now));
      // The order page names its two windows: the rate's lock and the deposit's.
      await expect(page.getByTestId('rate-window')).toContainText('Fixed rate locked for');
      await expect(page.getByTestId('deposit-window')).toContainText('Send the deposit within');
    });

    test('the emergency panel explains both outcomes with their amounts, then the refund', async ({
      page,
      request,
    }) => {
      const order = await createOrder(request, { type: 'fixed' });
      await simulateDeposit(request, order.id, '0.005');
      await until(request, order, 'EMERGENCY');
      // What the server told the page each choice brings (the market moves every few seconds,
      // so a second look of the test's own could see another figure).
      const told: Order[] = [];
      page.on('response', async (response) => {
        if (response.url().includes(`/api/order-details/${order.id}`) && response.ok()) {
          told.push((await response.json()).data as Order);
        }
      });
      await page.goto(`/order/${order.id}?token=${order.token}`);
      const continuing = page.getByRole('radio', { name: 'Continue the exchange' });
      const refund = page.getByRole('radio', { name: 'Refund me' });
      await expect(page.getByTestId('emergency-received')).toHaveText('We received 0.005 BTC.');
      await expect.poll(() => told.length).toBeGreaterThan(0);
      const description = async (option: typeof continuing) => {
        const id = await option.getAttribute('aria-describedby');
        return ((await page.locator(`[id="${id}"]`).textContent()) ?? '').replace(/\s+/g, ' ').trim();
      };
      // On the page as the server said it, in its latest answer to the page.
      const latest = () => told[told.length - 1].emergency?.outcomes;
      await expect
        .poll(async () => {
          const amount = latest()?.exchange?.amount;
          const shown = await description(continuing);
          return amount ? shown === `You receive about ${amount} ETH at today's rate.` : /^You receive about [\d.]+ ETH at today's rate\.$/.test(shown);
        })
        .toBe(true);
      await expect
        .poll(async () => {
          const amount = latest()?.refund?.amount;
          const shown = await description(refund);
          return amount
            ? shown === `${amount} BTC comes back to your address, after the network fee.`
            : shown === 'Your 0.005 BTC comes back to your address, less the BTC network fee.';
        })
        .toBe(true);
      // Two large, separate targets; the address only for a refund.
      for (const option of [continuing, refund]) {
        const box = (await option.locator('xpath=ancestor::label').boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      const [a, b] = [
        (await continuing.locator('xpath=ancestor::label').boundingBox())!,
        (await refund.locator('xpath=ancestor::label').boundingBox())!,
      ];
      expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
      await expect(page.getByLabel('Refund address (BTC)')).toHaveCount(0);
      await refund.check();
      await page.getByLabel('Refund address (BTC)').fill('not-an-address');
      await page.getByRole('button', { name: 'Refund me' }).click();
      // Refused once, inline: not again in a toast.
      await expect(page.getByRole('alert')).toHaveCount(1);
      await expect(page.locator('[data-toast]')).toHaveCount(0);
      await page.getByLabel('Refund address (BTC)').fill(ADDRESSES.BTC_LEGACY);
      await page.getByRole('button', { name: 'Refund me' }).click();
      await expect(page.getByTestId('order-status').first()).toHaveText('Refunded', { timeout: 20_000 });
      // After the refund: what came back, where to, and its transaction — not "You Receive".
      await expect(page.getByTestId('refund-address')).toHaveText(ADDRESSES.BTC_LEGACY);
      await expect(page.getByText('You Receive')).toHaveCount(0);
      const done = await orderOf(request, order);
      expect(done.refund.amount).toBeTruthy();
      await expect(page.getByTestId('refund-amount')).toHaveText(`${done.refund.amount} BTC`);
      // Its transaction, linked where the network has a public explorer (the sandbox's have none).
      const refundTx = (done as unknown as Transactions).transactions.refund!;
      await expect(page.getByRole('region', { name: 'Transactions' })).toContainText(refundTx.id.slice(0, 10));
      await expect(page.getByRole('link', { name: 'Refund: view on a block explorer' })).toHaveCount(refundTx.explorer ? 1 : 0);
    });

    test("a completed order's receipt adds up: its rate is amount ÷ amount, with its transactions", async ({
      page,
      request,
    }) => {
      const order = await createOrder(request);
      await simulateDeposit(request, order.id);
      await until(request, order, 'COMPLETED');
      await page.goto(`/order/${order.id}?token=${order.token}`);
      const sent = Number(await page.getByTestId('amount-sent').getAttribute('data-amount'));
      const received = Number(await page.getByTestId('amount-received').getAttribute('data-amount'));
      const done = await orderOf(request, order);
      expect(sent).toBe(Number(done.from.received ?? done.from.amount));
      expect(received).toBe(Number(done.to.sent ?? done.to.amount));
      const rate = page.getByTestId('order-rate');
      const text = (await rate.textContent())!;
      const shown = Number(/^1 BTC = ([\d,.]+) ETH$/.exec(text)![1]!.replace(/,/g, ''));
      // Six significant digits of received ÷ sent.
      expect(Math.abs(shown - received / sent) / (received / sent)).toBeLessThan(5e-6);
      // No deadline on a finished order; the same pair again; transactions with explorer links.
      await expect(page.getByText('Send the deposit by')).toHaveCount(0);
      await expect(page.getByText('Expires')).toHaveCount(0);
      await expect(page.getByTestId('deposit-window')).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Swap BTC to ETH again' })).toHaveAttribute('href', '/exchange/btc-eth');
      // Both transactions, each linked to its explorer where the network has one (the sandbox's
      // are simulated: none).
      const { deposit, payout } = (done as unknown as Transactions).transactions;
      const listed = page.getByRole('region', { name: 'Transactions' });
      for (const tx of [deposit!, payout!]) await expect(listed).toContainText(tx.id.slice(0, 10));
      const explorers = page.getByRole('link', { name: /view on a block explorer$/ });
      await expect(explorers).toHaveCount([deposit, payout].filter((tx) => tx?.explorer).length);
      for (const link of await explorers.all()) {
        expect(await link.getAttribute('href')).toMatch(/^https:\/\//);
      }
    });

    test('toasts stay clear of the header, and go when their cause is gone', async ({ page }) => {
      await page.goto('/exchange/btc-eth');
      await page.getByRole('button', { name: 'Exchange now' }).click();
      const toast = page.locator('[data-toast]');
      await expect(toast).toContainText('Missing information');
      const header = (await page.getByRole('banner').boundingBox())!;
      const box = (await toast.boundingBox())!;
      const overlaps = box.y < header.y + header.height && box.y + box.height > header.y;
      expect(overlaps).toBe(false);
      await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
      await expect(toast).toHaveCount(0, { timeout: 2_000 });
    });
  });
}

test.describe('on a phone', () => {
  test.use(VIEWPORTS.phone);

  test('the amounts and "Exchange now" are on the first screen of /, nothing cut off', async ({ page }) => {
    await page.goto('/');
    for (const control of [
      page.getByLabel('You send', { exact: true }),
      page.getByLabel('You get', { exact: true }),
      page.getByRole('button', { name: 'Exchange now' }),
    ]) {
      await expect(control).toBeInViewport({ ratio: 1 });
    }
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // A long amount shows every digit, in both fields.
    await page.getByLabel('You send', { exact: true }).fill('1234.56789012');
    await expect(page.getByText('Getting the best rate…')).toHaveCount(0);
    for (const label of ['You send', 'You get']) {
      const clipped = await page
        .getByLabel(label, { exact: true })
        .evaluate((input: HTMLInputElement) => input.scrollWidth - input.clientWidth);
      expect(clipped, label).toBeLessThanOrEqual(0);
    }
  });

  test('every control of the main pages is a 44 px tap target', async ({ page, request }) => {
    const order = await createOrder(request);
    const pages = ['/', '/exchange/btc-eth', '/track', `/order/${order.id}?token=${order.token}`, '/help', '/contact', '/faq'];
    for (const path of pages) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await smallTapTargets(page), path).toEqual([]);
    }
    await page.goto('/');
    await clickWhenLive(page.getByRole('button', { name: 'Open menu' }));
    await expect(page.locator('#mobile-menu')).toBeVisible();
    expect(await smallTapTargets(page), 'phone menu').toEqual([]);
    await clickWhenLive(page.getByRole('button', { name: /^Theme/ }));
    expect(await smallTapTargets(page), 'theme menu').toEqual([]);
  });
});

test.describe('dark mode', () => {
  /** The page's background as the screen shows it: 'dark' or 'light', by its luminance. */
  const background = (page: Page) =>
    page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const context = canvas.getContext('2d')!;
      context.fillStyle = getComputedStyle(document.body).backgroundColor;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
      return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
    });
  const LIGHT = 'light';
  const DARK = 'dark';

  test('follows the system from the first paint of the prerendered page', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const release = await withoutTheApp(page);
    // Module scripts hold DOMContentLoaded back: the page is taken as soon as it arrives.
    await page.goto('/', { waitUntil: 'commit' });
    // The server's first screen is there, the app has not run, and it is already dark.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.getElementById('root')?.dataset.prerendered)).toBe('en');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await background(page)).toBe(DARK);
    release();
    await expect(page.getByRole('button', { name: 'Theme: System' })).toBeVisible();
  });

  test('a chosen theme is remembered and painted before the app runs', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/markets');
    expect(await background(page)).toBe(LIGHT);
    await clickWhenLive(page.getByRole('button', { name: /^Theme/ }));
    await page.getByRole('menuitem', { name: 'Dark' }).click();
    expect(await background(page)).toBe(DARK);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    const release = await withoutTheApp(page);
    for (const path of ['/help', '/exchange/btc-eth']) {
      await page.goto(path, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.getElementById('root')?.dataset.prerendered)).toBe('en');
      expect(await background(page), path).toBe(DARK);
    }
    release();
    await page.unroute(/\/assets\/index-[^/]+\.js$/);
    await page.goto('/');
    await clickWhenLive(page.getByRole('button', { name: 'Theme: Dark' }));
    await page.getByRole('menuitem', { name: 'Light' }).click();
    await page.reload();
    expect(await background(page)).toBe(LIGHT);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe finds no contrast violation in the ${scheme} theme`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const order = await createOrder(request);
      const pages = ['/', '/exchange/btc-eth', '/track', `/order/${order.id}?token=${order.token}`, '/help', '/contact', '/markets', '/faq', '/status'];
      for (const path of pages) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
        expect(await contrastViolations(page), `${scheme} ${path}`).toEqual([]);
      }
    });
  }
});

test('numbers follow the page language: percent, grouping and decimals', async ({ page }) => {
  await page.goto('/exchange/btc-usdttrc?lang=de');
  await expect(page.getByLabel('Variabler Kurs (0,5 %)')).toBeVisible();
  const rate = page.getByTestId('quote-rate');
  await expect(rate).toHaveText(/^1 BTC ≈ \d{1,3}(\.\d{3})*(,\d+)? USDT$/);
});

test('an address of another network says which one it looks like, in the page language', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  const address = page.getByLabel('Destination address');
  await address.fill(ADDRESSES.BTC);
  const verdict = page.waitForResponse((r) => r.url().endsWith('/api/validate-address'));
  await address.blur();
  expect((await (await verdict).json()).data.looks_like).toMatchObject({ coin: 'BTC', networkName: 'Bitcoin' });
  await expect(page.getByRole('alert')).toHaveText('This address looks like one for Bitcoin (BTC), not for ETH (ERC20)');
  // A language switch speaks the message again in the new language.
  await clickWhenLive(page.getByRole('button', { name: /Language/ }));
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.getByRole('alert')).toHaveText('Diese Adresse sieht nach Bitcoin (BTC) aus, nicht nach ETH (ERC20)');
});

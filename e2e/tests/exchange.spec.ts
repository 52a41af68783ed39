// The swap widget, the order-created view and the live order page (spec/exchange.md §2–§9).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

import { ADDRESSES, exchangeNowAtFixedRate, expireOrder, pickCoin, setCurrencySwitch, simulateDeposit } from './support';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Opens `path` and expects the toast `title` of its first render. A toast stays five seconds,
 * and a page under load may finish loading after that: the wait starts before the navigation.
 */
async function gotoExpectingToast(page: Page, path: string, title: string) {
  const shown = expect(page.getByText(title)).toBeVisible({ timeout: 15_000 });
  await page.goto(path);
  await shown;
}

const receiveAmount = (page: Page) => page.getByLabel('You get', { exact: true });
const sendAmount = (page: Page) => page.getByLabel('You send', { exact: true });

/** What the widget shows of the quote for what is on screen, once it has answered. */
async function quoted(page: Page) {
  await expect(page.getByText('Getting the best rate…')).toHaveCount(0);
  // The line shows the rate with six significant digits; its exact figure is on the element.
  const rates = page.getByTestId('quote-rate');
  const exact = (await rates.count()) > 0 ? await rates.first().getAttribute('data-rate') : null;
  const dollars = await page.getByText(/^≈ \$[\d,.]+$/).allTextContents();
  const usd = (text: string | undefined) => Number((text ?? '').replace(/[^\d.]/g, ''));
  return {
    rate: Number(exact),
    send: Number(await sendAmount(page).inputValue()),
    receive: Number(await receiveAmount(page).inputValue()),
    sendUsd: usd(dollars[0]),
    receiveUsd: usd(dollars[1]),
  };
}

/**
 * The receive amount is the quote for exactly `send` (≈ send × the quoted rate), and that rate
 * is within the fee of the market: what is received is worth at most the fee (plus a little
 * network fee) less than what is sent.
 */
async function expectReceiveQuotedFor(page: Page, send: number, feePercent = 0.5) {
  await expect(sendAmount(page)).toHaveValue(String(send));
  await expect
    .poll(async () => {
      const q = await quoted(page);
      // The rate has 10 decimals and the amount the coin's precision: no more slack than that.
      return q.send === send && q.rate > 0 && Math.abs(q.receive - send * q.rate) <= send * 1e-10 + 1e-6;
    })
    .toBe(true);
  const { sendUsd, receiveUsd } = await quoted(page);
  expect(sendUsd).toBeGreaterThan(0);
  expect(receiveUsd / sendUsd).toBeLessThanOrEqual(1);
  expect(receiveUsd / sendUsd).toBeGreaterThanOrEqual(1 - feePercent / 100 - 0.02);
}

test('happy path: pick coins by typing, quote, create, deposit, and watch the order complete live', async ({
  page,
  context,
  request,
}) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^You send: BTC/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^You get: USDT BEP20/ })).toBeVisible();

  await pickCoin(page, 'You get', 'ethereum');
  await expect(page.getByRole('button', { name: /^You get: ETH ERC20/ })).toBeVisible();
  await sendAmount(page).fill('0.02');
  await expectReceiveQuotedFor(page, 0.02);
  await expect(page.getByRole('button', { name: /^Min: / })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Max: / })).toBeVisible();
  // The rate as a person reads it: grouped as the locale groups digits, six significant ones
  // at most (not ten decimals), and the quote's exact rate to that precision.
  const rateLine = page.getByTestId('quote-rate');
  await expect(rateLine).toHaveText(/^1 BTC ≈ \d{1,3}(,\d{3})*(\.\d+)? ETH$/);
  const shown = /≈ ([\d,.]+) ETH/.exec((await rateLine.textContent())!)![1]!.replace(/,/g, '');
  expect(shown.replace('.', '').replace(/^0+/, '').length).toBeLessThanOrEqual(6);
  const exact = Number(await rateLine.getAttribute('data-rate'));
  expect(Math.abs(Number(shown) - exact) / exact).toBeLessThan(1e-5);

  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();

  // The order's own page is the created view: its link, with the token, is in the address bar.
  await expect(page).toHaveURL(/\/order\/[A-Z0-9]{16}\?token=/);
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  await expect(page.getByTestId('order-status').first()).toHaveText('Awaiting Deposit');
  await expect(page.getByRole('img', { name: 'QR code of the deposit address' })).toBeVisible();
  await expect(page.getByText('Send only BTC on the BTC network to this address.', { exact: false })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Order progress' })).toHaveAttribute('aria-valuenow', '20');
  expect(await seriousViolations(page)).toEqual([]);

  const orderId = (await page.getByTestId('order-id').textContent())!.trim();
  const deposit = (await page.getByTestId('deposit-address').textContent())!.trim();
  expect(deposit).toMatch(/^bc1q/);

  // The link it offers opens the same order elsewhere: here in a second tab.
  expect(page.url()).toContain(`/order/${orderId}?token=`);
  const link = await page.getByTestId('order-link').inputValue();
  expect(link).toBe(page.url());
  const orderPage = await context.newPage();
  await orderPage.goto(link);
  await expect(orderPage.getByRole('heading', { name: `Order ${orderId}` })).toBeVisible();
  await expect(orderPage.getByTestId('order-status').first()).toHaveText('Awaiting Deposit');

  await simulateDeposit(request, orderId);
  // No reload: the page follows the server's event stream.
  await expect(orderPage.getByRole('progressbar', { name: 'Order progress' })).toHaveAttribute('aria-valuenow', '100', {
    timeout: 20_000,
  });
  await expect(orderPage.getByTestId('order-status').first()).toHaveText('Completed');
  const timeline = orderPage.getByRole('region', { name: 'Timeline' }).or(orderPage.locator('section', { hasText: 'Timeline' }).last());
  for (const label of ['Awaiting Deposit', 'Confirming', 'Exchanging', 'Sending', 'Completed']) {
    await expect(timeline.getByText(label, { exact: true }).first()).toBeVisible();
  }
  expect(await seriousViolations(orderPage)).toEqual([]);

  // A finished order offers the same pair again, with the form fresh: amount 0.01, no address.
  await expect(page.getByTestId('order-status').first()).toHaveText('Completed', { timeout: 20_000 });
  await page.getByRole('link', { name: 'Swap BTC to ETH again' }).click();
  await expect(page).toHaveURL(/\/exchange\/btc-eth$/);
  await expect(page.getByRole('button', { name: /^You get: ETH/ })).toBeVisible();
  await expect(sendAmount(page)).toHaveValue('0.01');
  await expect(page.getByLabel('Destination address')).toHaveValue('');
});

test('the widget has no serious accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expectReceiveQuotedFor(page, 0.01);
  expect(await seriousViolations(page)).toEqual([]);
});

test('address validation shows the spec messages, and the server catches a checksum typo', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  await expectReceiveQuotedFor(page, 0.01);

  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByText('Missing information')).toBeVisible();
  await expect(page.getByText('Please fill in all required fields to create an exchange')).toBeVisible();
  await expect(page.getByText('Enter your ETH (ERC20) address')).toBeVisible();

  const address = page.getByLabel('Destination address');
  await address.fill('0x1234');
  await address.blur();
  await expect(page.getByText('Invalid ETH (ERC20) address format')).toBeVisible();

  // The server's verdict: asserted once it has answered, so a check that never ran cannot pass.
  const verdictOn = (address: string) =>
    page.waitForResponse(
      (r) => r.url().endsWith('/api/validate-address') && r.request().postDataJSON().address === address,
    );
  await address.fill(ADDRESSES.ETH_TYPO);
  const typo = verdictOn(ADDRESSES.ETH_TYPO);
  await address.blur();
  expect((await (await typo).json()).data.reason).toBe('checksum');
  await expect(page.getByText('This ETH address has a typo: its checksum does not match')).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');

  await address.fill(ADDRESSES.ETH);
  const good = verdictOn(ADDRESSES.ETH);
  await address.blur();
  expect((await (await good).json()).data.valid).toBe(true);
  await expect(address).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByRole('alert').filter({ hasText: 'address' })).toHaveCount(0);
});

test('XLM, ATOM, EOS and TWTBSC ask for a destination address', async ({ page }) => {
  await page.goto('/exchange/btc-xlm');
  await expectReceiveQuotedFor(page, 0.01);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  // The network's name where its code would only repeat the coin's: not "XLM (XLM)".
  await expect(page.getByText('Enter destination address for XLM (Stellar)')).toBeVisible();
});

test('a missing memo warns but lets the order through', async ({ page }) => {
  await page.goto('/exchange/btc-xrp');
  await expectReceiveQuotedFor(page, 0.01);
  await expect(page.getByLabel('Destination tag')).toBeVisible();
  await page.getByLabel('Destination address').fill(ADDRESSES.XRP);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByText('Missing Memo/Tag')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
});

test('an amount over the maximum is said once, inline, and goes when it is fixed', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  await sendAmount(page).fill('50');
  const limit = page.getByText(/^You exceeded the limit of [\d.]+ BTC$/);
  await expect(limit).toBeVisible();
  // The server's quote said so too: its answer is in, and no toast repeats the inline message.
  await expect(page.getByText('Getting the best rate…')).toHaveCount(0);
  await expect(page.locator('[data-toast]')).toHaveCount(0);
  await sendAmount(page).fill('0.02');
  await expect(limit).toHaveCount(0);
});

test('amount inputs take digits and one decimal point only', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  const amount = sendAmount(page);
  await amount.fill('');
  await amount.pressSequentially('1a.2.3');
  await expect(amount).toHaveValue('1.23');
});

test('the receive amount is editable only for a fixed rate', async ({ page }) => {
  await page.goto('/exchange/btc-eth');
  await expect(receiveAmount(page)).toHaveAttribute('readonly', '');
  await page.getByLabel('Fixed rate (1.0%)').check();
  await expect(receiveAmount(page)).not.toHaveAttribute('readonly', '');
  await receiveAmount(page).fill('1');
  // The send amount is quoted for 1 ETH: 1 ÷ the quoted rate, for what was typed.
  await expect
    .poll(async () => {
      const q = await quoted(page);
      return q.receive === 1 && q.rate > 0 && Math.abs(q.send * q.rate - 1) < 1e-6;
    })
    .toBe(true);
  await page.getByRole('button', { name: "What's the difference?" }).click();
  await expect(page.getByRole('dialog', { name: 'Float or fixed rate?' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
});

test('the swap button exchanges the coins, clears the amounts, then sets the default amount', async ({ page }) => {
  await page.goto('/');
  await expectReceiveQuotedFor(page, 0.01);
  await page.getByRole('button', { name: 'Swap currencies' }).click();
  await expect(page.getByRole('button', { name: /^You send: USDT BEP20/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^You get: BTC BTC/ })).toBeVisible();
  await expect(sendAmount(page)).toHaveValue('1000');
  await expectReceiveQuotedFor(page, 1000);
});

test('while rate-limited the widget shows local estimates', async ({ page }) => {
  const until = Math.floor(Date.now() / 1000) + 120;
  await page.route('**/api/exchange-rate', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({ code: 429, msg: `Too many requests: quotes are paused until ${until}`, data: null }),
    }),
  );
  await page.goto('/exchange/btc-eth');
  await expect(page.getByText('Estimated rate: the exact rate is set when the order is created')).toBeVisible();
  // 0.01 BTC at the fallback prices (60000 / 3000) less 0.5 %.
  await expect(receiveAmount(page)).toHaveValue('0.199');
});

test('PAIR_UNAVAILABLE switches the receive coin to a fallback', async ({ page }) => {
  await page.route('**/api/exchange-rate', async (route) => {
    const body = route.request().postDataJSON() as { to_currency: string };
    if (body.to_currency !== 'XMR') return route.continue();
    const upstream = await route.fetch();
    const json = await upstream.json();
    json.data.errors = ['PAIR_UNAVAILABLE'];
    return route.fulfill({ response: upstream, json });
  });
  await page.goto('/exchange/btc-xmr');
  await expect(page.getByRole('button', { name: /^You get: USDT ERC20/ })).toBeVisible();
  await expect(page.getByText(/That pair is unavailable: switched to USDT/)).toBeVisible();
});

test('a suspended network blocks creation', async ({ page, request }) => {
  await setCurrencySwitch(request, 'LTC', { send: false });
  try {
    await page.goto('/exchange/ltc-btc');
    await page.getByLabel('Destination address').fill(ADDRESSES.BTC);
    await page.getByRole('button', { name: 'Exchange now' }).click();
    await expect(page.getByText('Network temporarily suspended', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Send your deposit' })).toHaveCount(0);
  } finally {
    await setCurrencySwitch(request, 'LTC', { send: null });
  }
});

test("an operator's maintenance shows their message under the coin", async ({ page, request }) => {
  const message = 'Node upgrade until 14:00 UTC';
  await setCurrencySwitch(request, 'BCH', { maintenance: message });
  try {
    await page.goto('/exchange/btc-bch');
    await expect(page.getByText('BCH is under maintenance')).toBeVisible();
    await expect(page.getByText(message)).toBeVisible();
  } finally {
    await setCurrencySwitch(request, 'BCH', {});
  }
  await page.reload();
  await expect(page.getByRole('button', { name: /^You get: BCH/ })).toBeVisible();
  await expect(page.getByText(message)).toHaveCount(0);
});

test('when the currency list fails, the shipped catalogue takes over', async ({ page }) => {
  await page.route('**/api/available-currencies', (route) => route.abort());
  await gotoExpectingToast(page, '/', 'Failed to load currencies');
  await pickCoin(page, 'You get', 'monero');
  await expect(page.getByRole('button', { name: /^You get: XMR XMR/ })).toBeVisible();
});

test('the currency picker says when nothing matches and works by keyboard', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /^You send:/ }).click();
  const search = page.getByPlaceholder('Search by name or ticker');
  await expect(search).toBeFocused();
  await expect(page.getByRole('group', { name: 'Popular' }).getByRole('option')).toHaveCount(7);
  await search.fill('qqqqqq');
  await expect(page.getByText('No cryptocurrency found.')).toBeVisible();
  await search.fill('tron');
  await page.keyboard.press('Escape');
  await expect(search).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^You send:/ })).toBeFocused();
});

test('a failed order creation shows the server message', async ({ page }) => {
  await page.route('**/api/create-order', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 400, msg: 'The minimum amount is 1 BTC', error: 'The minimum amount is 1 BTC' }) }),
  );
  await page.goto('/exchange/btc-eth');
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByText('Failed to create order')).toBeVisible();
  await expect(page.getByText('The minimum amount is 1 BTC')).toBeVisible();
});

test('an unknown pair page says so and offers the default pair', async ({ page }) => {
  await page.goto('/exchange/nope-eth');
  await expect(page.getByText("We don't list NOPE.", { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: /^You send: BTC/ })).toBeVisible();
});

test('an unknown order gets a useful answer, once, after trying the details and the tracking', async ({ page }) => {
  const details = page.waitForResponse((r) => r.url().includes('/api/order-details/NXSUCHXRDER23456'));
  const tracked = page.waitForResponse((r) => r.url().endsWith('/api/track-order'));
  await page.goto('/order/NXSUCHXRDER23456');
  expect((await details).status()).toBe(404);
  expect((await tracked).status()).toBe(404);
  const answer = page.getByTestId('unknown-order');
  await expect(answer).toContainText('We found no order NXSUCHXRDER23456');
  await expect(answer.getByRole('link', { name: 'Recent orders on this device' })).toHaveAttribute('href', '/track');
  await expect(answer.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
  await expect(page.locator('[data-toast]')).toHaveCount(0);
});

test("a link's text that is no order id is never shown as the page's words", async ({ page }) => {
  await page.goto('/order/PAY-HALF-A-BTC-TO-SCAMMER-NOW');
  await expect(page.getByTestId('unknown-order')).toBeVisible();
  await expect(page.getByText(/PAY-HALF/)).toHaveCount(0);
  await page.goto('/track?id=SEND-FUNDS-HERE');
  await expect(page.getByTestId('unknown-order')).toBeVisible();
  await expect(page.getByRole('heading', { name: /SEND-FUNDS-HERE/ })).toHaveCount(0);
});

test('without its private link an order shows only its public status', async ({ page, browser }) => {
  await page.goto('/exchange/btc-eth');
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  const orderId = (await page.getByTestId('order-id').textContent())!.trim();

  const stranger = await browser.newPage({ baseURL: new URL(page.url()).origin });
  // The link in the status mails is the public one: it shows the public status, and no
  // "Order not found" above it.
  await stranger.goto(`/order-details/${orderId}`);
  await expect(stranger.getByText('only its public status is shown', { exact: false })).toBeVisible();
  await expect(stranger.getByText('Order not found')).toHaveCount(0);
  await expect(stranger.getByText('Failed to fetch order details')).toHaveCount(0);
  await expect(stranger.locator('[data-toast]')).toHaveCount(0);
  await expect(stranger.getByTestId('order-status')).toHaveText('Awaiting Deposit');
  await expect(stranger.getByText(ADDRESSES.ETH)).toHaveCount(0);
  await stranger.close();

  // The browser that created it remembers the token: the full page opens without the link.
  await page.goto(`/order/${orderId}`);
  await expect(page.getByRole('heading', { name: 'Payment information' })).toBeVisible();
});

test('a short deposit, simulated on the sandbox order page, asks the customer, who can choose a refund', async ({
  page,
}) => {
  await page.goto('/exchange/btc-eth');
  await page.getByLabel('Fixed rate (1.0%)').check();
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await exchangeNowAtFixedRate(page);
  await expect(page.getByTestId('order-id')).toBeVisible();
  await page.reload();
  // The sandbox lets the visitor pretend to send the deposit: here half of what was ordered.
  const simulator = page.getByRole('region', { name: 'Try it: simulate your deposit' });
  await expect(simulator.getByLabel('Amount sent (BTC)')).toHaveValue('0.01');
  expect(await seriousViolations(page)).toEqual([]);
  await simulator.getByLabel('Amount sent (BTC)').fill('0.005');
  await simulator.getByRole('button', { name: 'Simulate deposit' }).click();
  await expect(page.getByText('Deposit simulated')).toBeVisible();
  await expect(simulator).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Your decision is needed' })).toBeVisible();
  await expect(page.getByText('We received less than the order asked for.')).toBeVisible();
  await expect(page.getByLabel('Refund address (BTC)')).toHaveCount(0);
  await page.getByRole('radio', { name: 'Refund me' }).check();
  await page.getByLabel('Refund address (BTC)').fill(ADDRESSES.BTC_LEGACY);
  await page.getByRole('button', { name: 'Refund me' }).click();
  await expect(page.getByTestId('order-status').first()).toHaveText('Refunded', { timeout: 15_000 });
  await expect(page.getByTestId('refund-address')).toHaveText(ADDRESSES.BTC_LEGACY);
});

test('a deposit after the order expired reaches the open order page, which asks the customer', async ({
  page,
  request,
}) => {
  const created = await request.post('/api/create-order', {
    data: { fromCcy: 'BTC', toCcy: 'ETH', amount: '0.01', toAddress: ADDRESSES.ETH, type: 'float' },
  });
  expect(created.status()).toBe(200);
  const order = (await created.json()).data as { id: string; token: string };
  await page.goto(`/order/${order.id}?token=${order.token}`);
  await expect(page.getByTestId('order-status').first()).toHaveText('Awaiting Deposit');

  // The window closes; the page, still open, follows.
  await expireOrder(request, order.id);
  await expect(page.getByTestId('order-status').first()).toHaveText('Expired', { timeout: 15_000 });
  // The coins arrive after all: the same page, without a reload, asks what to do.
  await simulateDeposit(request, order.id);
  await expect(page.getByRole('heading', { name: 'Your decision is needed' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('The deposit arrived after the order expired.')).toBeVisible();
  await page.getByRole('radio', { name: 'Continue the exchange' }).check();
  await page.getByRole('button', { name: 'Continue the exchange' }).click();
  await expect(page.getByTestId('order-status').first()).toHaveText('Completed', { timeout: 20_000 });
});

test('without a camera, the sandbox scanner offers a sample address of the receive coin', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  await page.goto('/exchange/btc-eth');
  await page.getByRole('button', { name: 'Scan QR code' }).click();
  const sample = page.getByRole('dialog', { name: 'Scan QR Code' }).getByRole('region', { name: 'Sample address' });
  await expect(sample).toContainText('No ETH wallet at hand?');
  await expect(sample).toContainText(ADDRESSES.ETH);
  expect(await seriousViolations(page)).toEqual([]);
  await sample.getByRole('button', { name: 'Use this address' }).click();
  await expect(page.getByRole('dialog', { name: 'Scan QR Code' })).toHaveCount(0);
  await expect(page.getByLabel('Destination address')).toHaveValue(ADDRESSES.ETH);
});

test('a denied camera says so in the scanner', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  await page.goto('/exchange/btc-eth');
  await page.getByRole('button', { name: 'Scan QR code' }).click();
  await expect(page.getByText('Camera access denied or not available. Please check permissions.')).toBeVisible();
  await page.getByRole('dialog', { name: 'Scan QR Code' }).getByRole('button', { name: 'Cancel' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Scan QR Code' })).toHaveCount(0);
});

test('paste fills the address, and a refused clipboard says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/exchange/btc-eth');
  await page.evaluate((text) => navigator.clipboard.writeText(text), ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Paste address' }).click();
  await expect(page.getByLabel('Destination address')).toHaveValue(ADDRESSES.ETH);
  await expect(page.getByText('Address pasted')).toBeVisible();

  await page.evaluate(() => {
    navigator.clipboard.readText = () => Promise.reject(new DOMException('no', 'NotAllowedError'));
  });
  await page.getByRole('button', { name: 'Paste address' }).click();
  await expect(page.getByText('Paste failed')).toBeVisible();
  await expect(page.getByText('Unable to access clipboard. Please check browser permissions.')).toBeVisible();
});

test('copy buttons confirm for two seconds with their toasts', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/exchange/btc-xrp');
  await page.getByLabel('Destination address').fill(ADDRESSES.XRP);
  await page.getByLabel('Destination tag').fill('12345');
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  const orderId = (await page.getByTestId('order-id').textContent())!.trim();
  await page.getByRole('button', { name: 'Copy Order ID' }).click();
  await expect(page.getByText('Order ID copied')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(orderId);
  await expect(page.getByRole('button', { name: 'Copy Order ID' })).toBeVisible({ timeout: 3_000 });
});

test('a deposit tag is shown as required', async ({ page }) => {
  await page.goto('/exchange/xrp-btc');
  await page.getByLabel('Destination address').fill(ADDRESSES.BTC);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByText('Required', { exact: true })).toBeVisible();
  await expect(page.getByText('Include this destination tag with your deposit or it cannot be credited.')).toBeVisible();
  await page.getByRole('button', { name: 'Copy Destination tag' }).click();
  await expect(page.getByText('Tag copied')).toBeVisible();
});

test('all pairs are listed, searchable, and link to their pair pages', async ({ page }) => {
  await page.goto('/exchange/all-pairs');
  await expect(page.getByRole('heading', { name: 'All exchange pairs' })).toBeVisible();
  await page.getByLabel('Search pairs').fill('monero tether tron');
  await expect(page.getByText(/^\d+ pairs$/)).toHaveText(/^[12] pairs$/);
  await page.getByRole('link', { name: 'XMR (XMR) to USDT (TRC20)' }).click();
  await expect(page).toHaveURL(/\/exchange\/xmr-usdttrc$/);
  await expect(page.getByRole('heading', { name: 'Exchange XMR (XMR) to USDT (TRX)' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^You send: XMR/ })).toBeVisible();
});

test('the converter shows a live conversion and links to the exchange', async ({ page }) => {
  await page.goto('/convert');
  await expect(page.getByRole('heading', { name: 'Crypto converter' })).toBeVisible();
  await expect(page.getByTestId('converted')).toHaveText(/^[\d.]+ USDT$/);
  await page.getByLabel('Amount').fill('2');
  await expect(page.getByTestId('converted')).toHaveText(/^[\d.]+ USDT$/);
  await page.getByRole('link', { name: 'Exchange BTC to USDT' }).click();
  await expect(page).toHaveURL(/\/exchange\/btc-usdttrc$/);
});

test('the widget fits a 360 px wide phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/');
  await expectReceiveQuotedFor(page, 0.01);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const exchange = page.getByRole('button', { name: 'Exchange now' });
  await exchange.scrollIntoViewIfNeeded();
  await expect(exchange).toBeInViewport({ ratio: 1 });
  const box = await exchange.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
});

test('creating an order counts its steps with the inputs disabled', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/create-order', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/exchange/btc-eth');
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  const button = page.getByRole('button', { name: /Creating Order\.\.\./ });
  await expect(button).toContainText('Step 1 of 3');
  await expect(page.getByLabel('Destination address')).toBeDisabled();
  await expect(button).toContainText('Step 2 of 3');
  await expect(button).toContainText('Step 3 of 3');
  release();
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
});

test('a quote the server refuses shows the exchange-rate error toast', async ({ page }) => {
  await page.route('**/api/exchange-rate', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 400, msg: 'Unknown currency BTC', error: 'Unknown currency BTC' }) }),
  );
  await gotoExpectingToast(page, '/exchange/btc-eth', 'Exchange rate error');
  await expect(page.getByText('Unknown currency BTC')).toBeVisible();
});

test('maintenance on a network is shown inline, not repeated in a toast', async ({ page }) => {
  // The currency list comes after the quote, as on a slow network: the toast still shows.
  await page.route('**/api/available-currencies', async (route) => {
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return route.fulfill({ response });
  });
  await page.route('**/api/exchange-rate', async (route) => {
    const upstream = await route.fetch();
    const json = await upstream.json();
    json.data.errors = ['MAINTENANCE_TO'];
    return route.fulfill({ response: upstream, json });
  });
  const quotedAnswer = page.waitForResponse((r) => r.url().endsWith('/api/exchange-rate'));
  await page.goto('/exchange/btc-eth');
  await quotedAnswer;
  await expect(page.getByText('ETH is under maintenance')).toBeVisible();
  await expect(page.getByText('Network temporarily suspended for maintenance')).toHaveCount(0);
});

test('a double click on Exchange now creates exactly one order', async ({ page }) => {
  // The address check answers slowly, as on a busy network: the window for a second order.
  await page.route('**/api/validate-address', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  const created = new Set<string>();
  let requests = 0;
  page.on('response', async (response) => {
    if (!response.url().endsWith('/api/create-order') || response.request().method() !== 'POST') return;
    requests += 1;
    const body = (await response.json()) as { code: number; data?: { id: string } };
    if (response.ok() && body.code === 0 && body.data) created.add(body.data.id);
  });
  await page.goto('/exchange/btc-eth');
  await expectReceiveQuotedFor(page, 0.01);
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).dblclick();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  const orderId = (await page.getByTestId('order-id').textContent())!.trim();
  // Give any second request time to land.
  await page.waitForTimeout(1500);
  expect(requests).toBeGreaterThanOrEqual(1);
  expect([...created]).toEqual([orderId]);
});

test('a new amount is never shown with the previous quote as if it were its own', async ({ page }) => {
  let holdNext = false;
  const held: (() => void)[] = [];
  const release = () => held.splice(0).forEach((resume) => resume());
  await page.route('**/api/exchange-rate', async (route) => {
    if (holdNext) await new Promise<void>((resolve) => held.push(resolve));
    await route.continue();
  });
  await page.goto('/exchange/btc-eth');
  await page.getByLabel('Fixed rate (1.0%)').check();
  await expectReceiveQuotedFor(page, 0.01, 1);
  const before = await quoted(page);
  holdNext = true;
  // A receive amount at a fixed rate is never answered from the five-minute cache.
  await receiveAmount(page).fill('3');
  await expect(sendAmount(page)).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByText('Getting the best rate…')).toBeVisible();
  await expect(page.getByText(/^1 BTC ≈/)).toHaveCount(0);
  holdNext = false;
  release();
  await expect(sendAmount(page)).toHaveAttribute('aria-busy', 'false');
  const after = await quoted(page);
  expect(after.receive).toBe(3);
  expect(Math.abs(after.send * after.rate - 3)).toBeLessThan(1e-6);
  expect(after.send).not.toBe(before.send);
});

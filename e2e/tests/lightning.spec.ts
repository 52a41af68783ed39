// Bitcoin over Lightning (BTCLN): paid out to the customer's BOLT 11 invoice, which sets the
// amount and the fixed rate; paid in by an invoice the exchange signs for the amount to send.
import { createHash, randomBytes } from 'node:crypto';

import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import bolt11 from 'bolt11';

import { ADDRESSES, simulateDeposit } from './support';
import { texts } from './texts';

const en = texts('en');

/** A key of no one's node: the server checks that an invoice is signed, not by whom. */
const PAYEE_KEY = 'e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734';
const TESTNET = { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };

/** A signed invoice, as a customer's wallet makes one to be paid. */
function invoice({
  sats,
  expire = 7200,
  issuedSecondsAgo = 0,
  testnet = false,
}: {
  sats: number | null;
  expire?: number;
  issuedSecondsAgo?: number;
  testnet?: boolean;
}): string {
  const encoded = bolt11.encode({
    ...(testnet ? { network: TESTNET } : {}),
    ...(sats === null ? {} : { satoshis: sats }),
    timestamp: Math.floor(Date.now() / 1000) - issuedSecondsAgo,
    tags: [
      { tagName: 'payment_hash', data: createHash('sha256').update(randomBytes(32)).digest('hex') },
      { tagName: 'payment_secret', data: randomBytes(32).toString('hex') },
      { tagName: 'description', data: 'e2e payout' },
      { tagName: 'expire_time', data: expire },
      {
        tagName: 'feature_bits',
        data: { word_length: 4, var_onion_optin: { required: true }, payment_secret: { required: true } },
      },
    ],
  });
  return bolt11.sign(encoded, PAYEE_KEY).paymentRequest!;
}

/** A BTC amount ("0.001") in millisatoshis, exactly. */
function msatOf(btc: string): bigint {
  const [whole = '0', fraction = ''] = btc.split('.');
  return BigInt(whole) * 100_000_000_000n + BigInt(fraction.padEnd(11, '0').slice(0, 11));
}

const receiveAmount = (page: Page) => page.getByLabel('You get', { exact: true });
const invoiceField = (page: Page) => page.getByLabel(en('exchange.lightning.invoiceLabel'));

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function orderOf(request: APIRequestContext, url: string) {
  const { pathname, searchParams } = new URL(url);
  const id = pathname.split('/').pop()!;
  const response = await request.get(`/api/order-details/${id}?token=${searchParams.get('token')}`);
  expect(response.status()).toBe(200);
  return (await response.json()).data as {
    id: string;
    type: string;
    direction: string;
    from: { amount: string; address: string; code: string };
    to: { amount: string; address: string; code: string };
  };
}

/** Counts the orders the page asks for from now on. */
function countOrders(page: Page) {
  let asked = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/create-order') asked += 1;
  });
  return () => asked;
}

test('USDT to Lightning: the invoice sets the amount and the fixed rate, and is paid', async ({ page, request }) => {
  await page.goto('/exchange/usdttrc-btcln');
  await expect(page.getByRole('button', { name: /^You get: BTC LN/ })).toBeVisible();
  await expect(invoiceField(page)).toBeVisible();
  // Paid out over Lightning, the order is at a fixed rate, and the widget says why.
  await expect(page.getByRole('radio', { name: /^Fixed rate/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /^Float rate/ })).toBeDisabled();
  await expect(page.getByText(en('exchange.lightning.fixedOnly'))).toBeVisible();

  const payout = invoice({ sats: 50_000 });
  await invoiceField(page).fill(payout);
  // Pasted is enough: the amount comes without leaving the field.
  await expect(receiveAmount(page)).toHaveValue('0.0005');
  await expect(receiveAmount(page)).toHaveAttribute('readonly', '');
  await expect(page.getByText(/^Your invoice sets what you get: 0\.0005 BTC, payable until /)).toBeVisible();
  // The quote is for exactly that amount: what to send is worked out from it.
  await expect(page.getByText('Getting the best rate…')).toHaveCount(0);
  const send = Number(await page.getByLabel('You send', { exact: true }).inputValue());
  expect(send).toBeGreaterThan(0);
  const rate = Number(await page.getByTestId('quote-rate').getAttribute('data-rate'));
  expect(Math.abs(send * rate - 0.0005)).toBeLessThan(0.0005 * 0.001);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page).toHaveURL(/\/order\/[A-Z0-9]{16}\?token=/);
  await expect(page.getByTestId('amount-received')).toHaveAttribute('data-amount', '0.0005');
  await expect(page.getByTestId('amount-received')).toHaveText('0.0005 BTC');
  await expect(page.getByTestId('destination')).toHaveAttribute('title', payout);
  const order = await orderOf(request, page.url());
  expect(order).toMatchObject({ type: 'fixed', direction: 'to', to: { amount: '0.0005', code: 'BTCLN', address: payout } });
  // Quoted again when the order is made: within what the market moves meanwhile.
  expect(Math.abs(Number(order.from.amount) - send) / send).toBeLessThan(0.01);

  await simulateDeposit(request, order.id);
  await expect(page.getByTestId('order-status').first()).toHaveText('Completed', { timeout: 20_000 });
  const payoutRow = page.getByRole('listitem').filter({ hasText: 'Payout to you' });
  await expect(payoutRow).toContainText('0.0005 BTC');
});

test('expired, test-network and amount-less invoices are refused, each saying why, and no order is made', async ({ page }) => {
  const ordersAsked = countOrders(page);
  await page.goto('/exchange/usdttrc-btcln');
  const cases = [
    [invoice({ sats: 50_000, expire: 3600, issuedSecondsAgo: 7200 }), 'invoice_expired'],
    [invoice({ sats: 50_000, testnet: true }), 'invoice_network'],
    [invoice({ sats: null }), 'invoice_no_amount'],
  ] as const;
  for (const [text, reason] of cases) {
    const why = en(`exchange.lightning.reasons.${reason}`);
    await invoiceField(page).fill(text);
    await expect(invoiceField(page)).toHaveAccessibleDescription(why);
    await expect(invoiceField(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert').filter({ hasText: why })).toBeVisible();
    await expect(receiveAmount(page)).not.toHaveAttribute('readonly');
    await page.getByRole('button', { name: 'Exchange now' }).click();
    await expect(invoiceField(page)).toHaveAccessibleDescription(why);
  }
  // The English texts, as the customer reads them.
  expect(en('exchange.lightning.reasons.invoice_expired')).toBe('This invoice has expired: make a new one.');
  expect(en('exchange.lightning.reasons.invoice_network')).toBe(
    "This invoice is for a test network: make one on Bitcoin's main network (lnbc…).",
  );
  expect(en('exchange.lightning.reasons.invoice_no_amount')).toBe(
    'This invoice has no amount: make one for the amount you want to receive.',
  );
  await expect(page).toHaveURL(/\/exchange\/usdttrc-btcln$/);
  expect(ordersAsked()).toBe(0);
});

test('an invoice already given for an order is refused for another', async ({ page, request }) => {
  const payout = invoice({ sats: 20_000 });
  const first = await request.post('/api/create-order', {
    data: { fromCcy: 'USDTTRC', toCcy: 'BTCLN', amount: '1', direction: 'to', type: 'fixed', toAddress: payout },
  });
  expect(first.status()).toBe(200);

  const ordersAsked = countOrders(page);
  await page.goto('/exchange/usdttrc-btcln');
  await invoiceField(page).fill(payout);
  const used = en('exchange.lightning.reasons.invoice_used');
  expect(used).toBe('This invoice was given for another order: make a new one.');
  await expect(invoiceField(page)).toHaveAccessibleDescription(used);
  await expect(page.getByRole('alert').filter({ hasText: used })).toBeVisible();
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(invoiceField(page)).toHaveAccessibleDescription(used);
  expect(ordersAsked()).toBe(0);
});

test('Lightning to ETH: the order asks to pay its invoice, which is for the amount to send', async ({ page, request }) => {
  await page.goto('/exchange/btcln-eth');
  await expect(page.getByRole('button', { name: /^You send: BTC LN/ })).toBeVisible();
  await page.getByLabel('You send', { exact: true }).fill('0.001');
  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page).toHaveURL(/\/order\/[A-Z0-9]{16}\?token=/);

  await expect(page.getByRole('heading', { name: en('exchange.lightning.payTitle') })).toBeVisible();
  await expect(page.getByRole('img', { name: en('exchange.lightning.invoiceQr') })).toBeVisible();
  const qr = await page.getByTestId('deposit-qr').getAttribute('data-qr-value');
  expect(qr).toMatch(/^lightning:lnbc/);
  const shown = (await page.getByTestId('deposit-address').textContent())!.trim();
  expect(qr).toBe(`lightning:${shown}`);
  await expect(page.getByRole('link', { name: en('exchange.lightning.openWallet') })).toHaveAttribute('href', qr!);
  await expect(page.getByRole('button', { name: 'Copy Lightning invoice' })).toBeVisible();
  // No network or memo warnings of an on-chain deposit.
  await expect(page.getByText(/Send only BTC/)).toHaveCount(0);
  await expect(page.getByText(/memo/i)).toHaveCount(0);

  const order = await orderOf(request, page.url());
  expect(order.from.address).toBe(shown);
  const decoded = bolt11.decode(shown);
  expect(decoded.network?.bech32).toBe('bc');
  expect(BigInt(decoded.millisatoshis!)).toBe(msatOf(order.from.amount));
  expect(order.from.amount).toBe('0.001');
  expect(await seriousViolations(page)).toEqual([]);

  await simulateDeposit(request, order.id);
  await expect(page.getByTestId('order-status').first()).toHaveText('Completed', { timeout: 20_000 });
});

test('a short Lightning deposit is refunded to an invoice made for the refund, and no more', async ({
  page,
  request,
}) => {
  const created = await request.post('/api/create-order', {
    data: { fromCcy: 'BTCLN', toCcy: 'ETH', amount: '0.002', type: 'fixed', toAddress: ADDRESSES.ETH },
  });
  expect(created.status()).toBe(200);
  const { id, token } = (await created.json()).data as { id: string; token: string };
  await page.goto(`/order/${id}?token=${token}`);
  await simulateDeposit(request, id, '0.001');
  await expect(page.getByRole('heading', { name: 'Your decision is needed' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('radio', { name: 'Refund me' }).check();

  const details = await (await request.get(`/api/order-details/${id}?token=${token}`)).json();
  const refund = details.data.emergency.outcomes.refund.amount as string;
  // The field asks for an invoice, for at most the refund, and says how it is paid.
  const field = page.getByLabel(en('order.lightningRefund').replace('{{amount}}', `${refund.replace(/0+$/, '')} BTC`));
  await expect(field).toBeVisible();
  await expect(page.getByText(/the refund pays the invoice its own amount/)).toBeVisible();

  // More than arrived could never be paid: refused, the choice stays open.
  await field.fill(invoice({ sats: 1_000_000 }));
  await page.getByRole('button', { name: 'Refund me' }).click();
  await expect(page.getByText(/The refund invoice may ask for at most 0.001 BTC/)).toBeVisible();

  const sats = Number(msatOf(refund) / 1000n);
  const refundInvoice = invoice({ sats });
  await field.fill(refundInvoice);
  await page.getByRole('button', { name: 'Refund me' }).click();
  await expect(page.getByTestId('order-status').first()).toHaveText('Refunded', { timeout: 15_000 });
  await expect(page.getByTestId('refund-address')).toContainText(refundInvoice.slice(0, 12));
});

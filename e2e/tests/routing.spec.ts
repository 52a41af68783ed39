// Routing by payout in the browser: a second Ferry fills its orders at three fake upstreams
// (servers/fake-upstreams.mjs: two speaking ChangeNOW's API, one SideShift's, SideShift paying
// most). A customer orders on its site; the order goes to the upstream that pays most, the
// customer never sees which, and the order is followed there to completion.
import { expect, test } from '@playwright/test';

import { ADDRESSES, ADMIN_TOKEN } from './support';

const routed = `http://127.0.0.1:${process.env.E2E_ROUTED_PORT}`;
const sideshift = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAMS_PORT) + 2}`;

test('an order made on the site goes to the upstream paying most and is followed to completion', async ({
  page,
  request,
}) => {
  await page.goto(`${routed}/exchange/btc-eth`);
  await expect(page.getByRole('button', { name: /^You get: ETH/ })).toBeVisible();
  // The quote is SideShift's figure for 0.01 BTC: 0.01 × 20 × 0.995 × (1 − 0.5 %) − its fee.
  const expected = 0.01 * 20 * 0.995 * 0.995 - 2 / 3000;
  await expect
    .poll(async () => Number(await page.getByLabel('You get', { exact: true }).inputValue()))
    .toBeCloseTo(expected, 5);

  await page.getByLabel('Destination address').fill(ADDRESSES.ETH);
  await page.getByRole('button', { name: 'Exchange now' }).click();
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  const orderId = (await page.getByTestId('order-id').first().textContent())!.trim();
  await expect(page.getByTestId('deposit-address').first()).toContainText('bc1qupstreamsx');
  await expect(page.getByText(/sideshift|cheapnow|dearnow/i)).toHaveCount(0);

  // The operator sees where it went.
  const seen = await request.get(`${routed}/api/admin/orders/${orderId}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(seen.status()).toBe(200);
  const order = (await seen.json()) as { order: { provider: string; provider_order_id: string } };
  expect(order.order.provider).toBe('sideshift');

  // SideShift takes the deposit and pays out: the customer's page follows.
  const move = (fields: Record<string, string>) =>
    request.post(`${sideshift}/control/status`, { data: { id: order.order.provider_order_id, ...fields } });
  await move({ status: 'pending', depositHash: 'e2ed0d0', depositAmount: '0.01', depositReceivedAt: new Date().toISOString() });
  await expect(page.getByTestId('order-status').first()).toHaveText('Confirming', { timeout: 15_000 });
  await move({ status: 'settled', settleAmount: expected.toFixed(8), settleHash: '0xe2efeed' });
  await expect(page.getByTestId('order-status').first()).toHaveText('Completed', { timeout: 15_000 });
});

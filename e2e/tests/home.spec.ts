// The home page below the swap form (spec/accounts-and-pages.md §2.2).
import { expect, test } from '@playwright/test';

import { ADDRESSES, simulateDeposit } from './support';

test('home shows the trust cards, popular pairs, the app teaser and the FAQ teaser', async ({ page }) => {
  // Figures come from the server's count: none on an exchange with nothing completed.
  await page.route('**/api/site-stats', (route) =>
    route.fulfill({ json: { completed_orders: 0, volume_usd: '0' } }),
  );
  await page.goto('/');
  const trust = page.getByRole('region', { name: 'How Ferry keeps your swap safe' });
  // Support as the operator sets it (FERRY_SUPPORT_HOURS, default): hours, not "24/7".
  for (const card of ['Secure', 'Fast', 'Best rates', 'Help and support']) {
    await expect(trust.getByRole('heading', { name: card })).toBeVisible();
  }
  await expect(trust).toContainText('Our team answers Mon-Fri 9:00 AM-8:00 PM EST');
  await expect(trust).not.toContainText('24/7');
  await expect(page.getByText(/Trusted since/)).toHaveCount(0);
  await expect(page.getByTestId('site-stats')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Why choose Ferry' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mobile apps are coming soon' })).toBeVisible();

  const pairs = page.getByRole('region', { name: 'Popular pairs' });
  await expect(pairs.getByRole('listitem')).toHaveCount(8);
  await pairs.getByRole('link', { name: 'BTC → ETH' }).click();
  await expect(page).toHaveURL(/\/exchange\/btc-eth$/);

  await page.goto('/');
  await page.getByText('How long does an exchange take?').click();
  const claim = 'Most exchanges complete in 5 to 30 minutes';
  await expect(page.getByRole('region', { name: 'Frequently asked questions' }).getByText(claim, { exact: false })).toBeVisible();
  // One completion-time claim, the same on the trust card.
  await expect(trust.getByText(claim, { exact: false })).toBeVisible();
});

test('with completed exchanges, the trust section shows the server\'s figures', async ({ page }) => {
  await page.route('**/api/site-stats', (route) =>
    route.fulfill({ json: { completed_orders: 1234, volume_usd: '98765.4' } }),
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Trusted since 2024' })).toBeVisible();
  await expect(page.getByTestId('site-stats')).toHaveText('Exchanges completed: 1,234 · swapped in all: $98,765');
  await page.goto('/?lang=de');
  await expect(page.getByTestId('site-stats')).toHaveText(/^Abgeschlossene Tausche: 1\.234 · insgesamt getauscht: 98\.765\s\$$/);
});

test('a completed exchange appears in the recent transactions', async ({ page, request }) => {
  const created = await request.post('/api/create-order', {
    data: { fromCcy: 'BTC', toCcy: 'ETH', amount: '0.0123', toAddress: ADDRESSES.ETH },
  });
  const order = (await created.json()).data;
  await simulateDeposit(request, order.id);
  await expect
    .poll(async () => (await (await request.get(`/api/order-details/${order.id}?token=${order.token}`)).json()).data.status, {
      timeout: 20_000,
    })
    .toBe('COMPLETED');

  await page.goto('/');
  const recent = page.getByRole('region', { name: 'Recent transactions' });
  await expect(recent.getByText(/^0\.0123 BTC → [\d.]+ ETH$/)).toBeVisible();
  await expect(recent.getByText(/ago|now/).first()).toBeVisible();
  await expect(recent.getByText(/done in/).first()).toBeVisible();
});

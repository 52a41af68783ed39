// Currencies: every currency with what customers get now, the provider's maintenance and the
// operator's override; a filter by code, name or network kept in the address; and the edit
// dialog (operators and owners only), which checks the amounts, then sends the whole override
// with its Idempotency-Key, shows the server's refusal, and reads the list again.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { ConsoleCurrency, ConsoleMe } from '../types';
import { fakeConsole, fakeCurrency, operator, renderConsole } from '../test-support';

const CURRENCIES = 'GET /api/admin/currencies';
const PUT_BTC = 'PUT /api/admin/currency-overrides/BTC';

const USDT = fakeCurrency({
  code: 'USDTTRC20',
  coin: 'USDT',
  name: 'Tether',
  network: 'TRX',
  network_name: 'Tron',
  send: false,
  recv: false,
  provider: { deposit_maintenance: false, payout_maintenance: true },
  override: {
    send: false,
    recv: true,
    maintenance: 'Tron wallet upgrade until 14:00 UTC',
    min: '10',
    max: '50000',
    updated_at: 1_795_400_000,
  },
});

function currenciesApi(me: ConsoleMe = operator(), routes = {}) {
  let btc = fakeCurrency();
  const api = fakeConsole(me, {
    [CURRENCIES]: () => json(200, [btc, USDT]),
    [PUT_BTC]: (request) => {
      const body = request.body as Omit<ConsoleCurrency['override'], 'updated_at'>;
      btc = fakeCurrency({
        send: body.send !== false,
        recv: body.recv !== false,
        override: { ...body, updated_at: 1_795_401_000 },
      });
      return json(200, { ...btc, audit_id: 31 });
    },
    ...routes,
  });
  return api;
}

async function openEdit(code = 'BTC') {
  fireEvent.click(await screen.findByRole('button', { name: `Edit ${code}` }));
  return screen.findByRole('dialog', { name: `Edit Bitcoin (${code})` });
}

describe('the currencies page', () => {
  it("lists every currency with what customers get, the provider's maintenance and the override, read-only for support", async () => {
    const api = currenciesApi(operator({ role: 'support' }));
    await renderConsole('/admin/currencies');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Currencies' }),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getByRole('link', { name: 'Currencies' })).toHaveAttribute(
      'href',
      '/admin/currencies',
    );
    const table = await screen.findByRole('table', {
      name: "Currencies, in the catalogue's order",
    });
    const [header, btc, usdt] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Currency',
      'Network',
      'Customers now',
      'Provider',
      'Your switches',
      'Maintenance message',
      'Minimum',
      'Maximum',
      'Changed',
    ]);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(btc!)).toEqual([
      'BTCBitcoin',
      'BitcoinBTC',
      'Can sendCan receive',
      'No maintenance',
      'Send: Follow the providerReceive: Follow the provider',
      'None',
      "The provider's only",
      "The provider's only",
      'None',
    ]);
    const [currency, network, customers, provider, switches, message, min, max, changed] = cells(
      usdt!,
    );
    expect([currency, network, customers, provider, switches, message, min, max]).toEqual([
      'USDTTRC20Tether',
      'TronTRX',
      'Cannot sendCannot receive',
      'Payouts in maintenance',
      'Send: OffReceive: On',
      'Tron wallet upgrade until 14:00 UTC',
      '10 USDT',
      '50,000 USDT',
    ]);
    expect(changed).toMatch(/2026/);
    // Support reads; only an operator or owner edits.
    expect(within(table).queryByRole('button')).toBeNull();
    expect(api.callsTo(CURRENCIES)).toHaveLength(1);
  });

  it('filters by code, name or network as one types, and keeps the filter in the address', async () => {
    currenciesApi();
    const { router } = await renderConsole('/admin/currencies');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const filter = screen.getByLabelText('Filter');
    expect(filter).toHaveAccessibleDescription('By code, name or network');

    fireEvent.change(filter, { target: { value: 'tron' } });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('USDTTRC20')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=tron');

    fireEvent.change(filter, { target: { value: 'bitc' } });
    await waitFor(() => expect(within(table).queryByText('USDTTRC20')).toBeNull());
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByRole('button', { name: 'Edit BTC' })).toBeInTheDocument();

    fireEvent.change(filter, { target: { value: 'dogecoin' } });
    expect(await screen.findByText('No currency matches “dogecoin”.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();

    fireEvent.change(filter, { target: { value: '' } });
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('reads the filter from the address', async () => {
    currenciesApi();
    await renderConsole('/admin/currencies?q=TRX');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByLabelText('Filter')).toHaveValue('TRX');
  });

  it('saves the whole override with its Idempotency-Key, then reads the list again', async () => {
    const api = currenciesApi();
    await renderConsole('/admin/currencies');
    const dialog = await openEdit();
    expect(dialog).toHaveAccessibleDescription(
      /a currency the provider keeps in maintenance stays in maintenance/,
    );
    // As the override is now: follow the provider, nothing else set.
    expect(within(dialog).getByLabelText('Customers send BTC')).toHaveValue('provider');
    expect(within(dialog).getByLabelText('Customers receive BTC')).toHaveValue('provider');
    expect(within(dialog).getByLabelText('Maintenance message')).toHaveValue('');

    fireEvent.change(within(dialog).getByLabelText('Customers send BTC'), {
      target: { value: 'off' },
    });
    fireEvent.change(within(dialog).getByLabelText('Customers receive BTC'), {
      target: { value: 'on' },
    });
    fireEvent.change(within(dialog).getByLabelText('Maintenance message'), {
      target: { value: ' Node upgrade until 14:00 UTC ' },
    });
    fireEvent.change(within(dialog).getByLabelText('Minimum (BTC)'), {
      target: { value: ' 0.0005 ' },
    });
    fireEvent.change(within(dialog).getByLabelText('Maximum (BTC)'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), {
      target: { value: 'Node upgrade' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Currency saved')).toBeInTheDocument();
    expect(screen.getByText('The new settings of BTC apply now.')).toBeInTheDocument();
    const [call] = api.callsTo(PUT_BTC);
    expect(call?.body).toEqual({
      send: false,
      recv: true,
      maintenance: 'Node upgrade until 14:00 UTC',
      min: '0.0005',
      max: '2',
      reason: 'Node upgrade',
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit Bitcoin (BTC)' })).toBeNull(),
    );

    // Read again: the new override shows.
    expect(await screen.findByText('Node upgrade until 14:00 UTC')).toBeInTheDocument();
    expect(api.callsTo(CURRENCIES)).toHaveLength(2);
    const [, btc] = within(screen.getByRole('table')).getAllByRole('row');
    expect(btc).toHaveTextContent('Cannot send');
    expect(btc).toHaveTextContent('Send: OffReceive: On');
    expect(btc).toHaveTextContent('0.0005 BTC');
    expect(btc).toHaveTextContent('2 BTC');
  });

  it('sends null for what is left empty or follows the provider, and no reason when none is given', async () => {
    const api = currenciesApi(operator({ role: 'owner' }), {
      [CURRENCIES]: () =>
        json(200, [
          fakeCurrency({
            override: {
              send: true,
              recv: false,
              maintenance: 'Old message',
              min: '1',
              max: '5',
              updated_at: 1_795_400_000,
            },
          }),
        ]),
    });
    await renderConsole('/admin/currencies');
    const dialog = await openEdit();
    expect(within(dialog).getByLabelText('Customers send BTC')).toHaveValue('on');
    expect(within(dialog).getByLabelText('Customers receive BTC')).toHaveValue('off');
    expect(within(dialog).getByLabelText('Maintenance message')).toHaveValue('Old message');
    expect(within(dialog).getByLabelText('Minimum (BTC)')).toHaveValue('1');
    expect(within(dialog).getByLabelText('Maximum (BTC)')).toHaveValue('5');

    for (const label of ['Customers send BTC', 'Customers receive BTC']) {
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value: 'provider' } });
    }
    for (const label of ['Maintenance message', 'Minimum (BTC)', 'Maximum (BTC)']) {
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value: '  ' } });
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Currency saved')).toBeInTheDocument();
    expect(api.callsTo(PUT_BTC)[0]?.body).toEqual({
      send: null,
      recv: null,
      maintenance: null,
      min: null,
      max: null,
    });
  });

  it('checks the amounts and the message before sending, and shows the server refusal', async () => {
    const api = currenciesApi(operator(), {
      [PUT_BTC]: () => json(400, { error: 'max is above what the provider allows' }),
    });
    await renderConsole('/admin/currencies');
    const dialog = await openEdit();
    const min = within(dialog).getByLabelText('Minimum (BTC)');
    const max = within(dialog).getByLabelText('Maximum (BTC)');
    const message = within(dialog).getByLabelText('Maintenance message');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    const amountError =
      'Enter an amount above zero, with a point for decimals (such as 0.5), or leave it empty.';

    fireEvent.change(min, { target: { value: '0,5' } });
    fireEvent.change(max, { target: { value: '-1' } });
    fireEvent.change(message, { target: { value: 'x'.repeat(201) } });
    fireEvent.click(save);
    expect(await within(dialog).findAllByText(amountError)).toHaveLength(2);
    expect(min).toHaveAttribute('aria-invalid', 'true');
    expect(max).toHaveAttribute('aria-invalid', 'true');
    expect(message).toHaveAccessibleDescription(/Keep the message to 200 characters or fewer\.$/);

    fireEvent.change(min, { target: { value: '0' } });
    fireEvent.change(max, { target: { value: '1e3' } });
    fireEvent.change(message, { target: { value: 'x'.repeat(200) } });
    fireEvent.click(save);
    await waitFor(() => expect(message).not.toHaveAttribute('aria-invalid'));
    expect(within(dialog).getAllByText(amountError)).toHaveLength(2);

    // Compared digit by digit: 10.5 is above 9.99999999.
    fireEvent.change(min, { target: { value: '10.5' } });
    fireEvent.change(max, { target: { value: '9.99999999' } });
    fireEvent.click(save);
    expect(
      await within(dialog).findByText('The maximum must not be below the minimum.'),
    ).toBeInTheDocument();
    expect(min).not.toHaveAttribute('aria-invalid');
    expect(max).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(PUT_BTC)).toHaveLength(0);

    // Equal is allowed; the server's own refusal is shown in its words.
    fireEvent.change(max, { target: { value: '10.50' } });
    fireEvent.click(save);
    expect(
      await within(dialog).findByText('max is above what the provider allows'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('The currency was not saved.')).toBeInTheDocument();
    expect(api.callsTo(PUT_BTC).map((c) => c.body)).toEqual([
      { send: null, recv: null, maintenance: 'x'.repeat(200), min: '10.5', max: '10.50' },
    ]);
  });

  it('says when the currencies could not be loaded', async () => {
    currenciesApi(operator(), { [CURRENCIES]: () => json(500, { error: 'internal error' }) });
    await renderConsole('/admin/currencies');
    expect(await screen.findByText('The currencies could not be loaded.')).toBeInTheDocument();
  });
});

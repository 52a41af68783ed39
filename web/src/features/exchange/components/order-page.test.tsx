// The order page against a fake server: the mailed public link, the order's own link, the
// receipt of a finished order, the emergency choice and the refund that follows it.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { dismissToast, Toaster } from '@/components/ui/toaster';
import { initI18n, loadTexts } from '@/lib/i18n';
import { fakeApi, json } from '@/test/fake-api';
import { fakeOrder } from '@/test/orders';
import { renderRoutes } from '@/test/render';

import { resetQuoteClient } from '../api/get-quote';
import type { Order } from '../types';
import OrderPage from './order-page';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
  resetQuoteClient();
});

const tracked = {
  id: 'ABCDEFGHJKLMNPQR',
  status: 'CONFIRMING',
  type: 'float',
  progress: 40,
  from: { code: 'BTC', coin: 'BTC', network: 'BTC', amount: '0.01' },
  to: { code: 'ETH', coin: 'ETH', network: 'ETH', amount: '0.40334444' },
  time: { reg: 1_795_400_000, expiration: 1_795_401_800, finished: null },
};

function openOrder(path: string) {
  return renderRoutes(
    [
      {
        path: '/order/:orderId',
        element: (
          <>
            <OrderPage />
            <Toaster />
          </>
        ),
      },
      { path: '/order-details/:orderId', element: <OrderPage /> },
      { path: '/exchange/:pair', element: <p>pair page</p> },
    ],
    path,
  );
}

const details = (order: Order) => () => json(200, { code: 0, msg: 'OK', data: order });

describe('the link mailed with the status (no token)', () => {
  it('shows the public status, with no "not found" toast above it', async () => {
    fakeApi({
      'GET /api/order-details/ABCDEFGHJKLMNPQR': () =>
        json(404, { code: 404, msg: 'Order not found', error: 'Order not found' }),
      'POST /api/track-order': () => json(200, { code: 0, msg: 'OK', data: tracked }),
      'GET /api/config': () => json(404, {}),
    });
    await openOrder('/order/ABCDEFGHJKLMNPQR');
    expect(await screen.findByTestId('public-status')).toHaveTextContent('Confirming');
    expect(screen.queryByText('Order not found')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to fetch order details')).not.toBeInTheDocument();
    expect(document.querySelector('[data-toast]')).toBeNull();
  });

  it('answers an unknown id with what an id looks like and where to look', async () => {
    fakeApi({
      'GET /api/order-details/NOPE': () => json(404, { code: 404, error: 'Order not found' }),
      'POST /api/track-order': () => json(404, { code: 404, error: 'Order not found' }),
    });
    await openOrder('/order/NOPE');
    const answer = await screen.findByTestId('unknown-order');
    // Not an id's shape: what one looks like, and the link's text is not repeated as ours.
    expect(answer).toHaveTextContent('Order IDs are 16 letters and digits, like 7KQ2M9XHT4WZ3PNA');
    expect(answer).not.toHaveTextContent('NOPE');
    expect(within(answer).getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      '/contact',
    );
    // Said once, here: no toast repeats it.
    expect(document.querySelector('[data-toast]')).toBeNull();
  });
});

describe('a new order', () => {
  it('offers its own link with the token, and the fixed-rate and deposit windows by name', async () => {
    const now = Math.floor(Date.now() / 1000);
    const order = fakeOrder({
      type: 'fixed',
      time: {
        reg: now,
        expiration: now + 1800,
        left: 1800,
        rateExpiration: now + 600,
        update: now,
        finish: null,
      },
    });
    fakeApi({ 'GET /api/order-details/ABCDEFGHJKLMNPQR': details(order) });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    const link = await screen.findByTestId('order-link');
    expect(link).toHaveValue(`${window.location.origin}/order/ABCDEFGHJKLMNPQR?token=order-token`);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(screen.getByTestId('rate-window')).toHaveTextContent(
      /Fixed rate locked for\s*(9:5\d|10:00)/,
    );
    expect(screen.getByTestId('deposit-window')).toHaveTextContent(
      /Send the deposit within\s*(29:5\d|30:00)/,
    );
    // Opened with its link: this device remembers it for the Track page.
    expect(JSON.parse(localStorage.getItem('orderTokens') ?? '{}')).toHaveProperty(
      'ABCDEFGHJKLMNPQR',
    );
  });

  it('e-mails status updates on request, and says once why an address is refused', async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/order-details/ABCDEFGHJKLMNPQR': details(fakeOrder()),
      'POST /api/order-email': () =>
        (attempt += 1) === 1
          ? json(400, { code: 400, error: 'Enter a valid e-mail address' })
          : json(200, { code: 0 }),
    });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    fireEvent.click(await screen.findByRole('button', { name: 'E-mail me status updates' }));
    fireEvent.change(screen.getByLabelText('Your e-mail address'), { target: { value: 'ada@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid e-mail address');
    expect(screen.getAllByText('Enter a valid e-mail address')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Your e-mail address'), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText("We will e-mail this order's status updates to ada@example.com."),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/order-email').at(-1)?.body).toEqual({
      id: 'ABCDEFGHJKLMNPQR',
      token: 'order-token',
      email: 'ada@example.com',
    });
  });
});

describe('over Lightning', () => {
  const INVOICE = `lnbc1m1p4s0awzdpzgejhyuneypekzmnyvfhhsgryv4cx7umfwspp5${'x'.repeat(220)}`;

  it('asks to pay the invoice: its QR code is the lightning: URI, with no network warning', async () => {
    const order = fakeOrder({
      from: {
        ...fakeOrder().from,
        code: 'BTCLN',
        network: 'LN',
        amount: '0.001',
        address: INVOICE,
      },
    });
    fakeApi({ 'GET /api/order-details/ABCDEFGHJKLMNPQR': details(order) });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    expect(
      await screen.findByRole('heading', { name: 'Pay this Lightning invoice' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('deposit-qr')).toHaveAttribute(
      'data-qr-value',
      `lightning:${INVOICE}`,
    );
    expect(screen.getByTestId('deposit-address')).toHaveTextContent(INVOICE);
    expect(screen.getByRole('button', { name: 'Copy Lightning invoice' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute(
      'href',
      `lightning:${INVOICE}`,
    );
    expect(screen.getByText(/^Pay 0\.001 BTC with this invoice/)).toBeInTheDocument();
    expect(screen.queryByText(/^Send only/)).not.toBeInTheDocument();
    expect(screen.queryByText(/memo/i)).not.toBeInTheDocument();
    // Refunded, if need be, to an invoice asked for then: no refund address beforehand.
    expect(screen.queryByRole('heading', { name: /^Refund address/ })).not.toBeInTheDocument();
  });

  it('shows an invoice as the destination by its ends, whole to copy', async () => {
    const order = fakeOrder({
      to: { ...fakeOrder().to, code: 'BTCLN', coin: 'BTC', network: 'LN', address: INVOICE },
    });
    fakeApi({ 'GET /api/order-details/ABCDEFGHJKLMNPQR': details(order) });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    const destination = await screen.findByTestId('destination');
    expect(destination).toHaveTextContent(`${INVOICE.slice(0, 18)}…${INVOICE.slice(-10)}`);
    expect(destination).toHaveAttribute('title', INVOICE);
    expect(screen.getByText('Lightning invoice')).toBeInTheDocument();
    // The deposit of this order is an ordinary address, with a refund address to give.
    expect(screen.getByRole('heading', { name: 'Refund address (BTC)' })).toBeInTheDocument();
    expect(screen.getByTestId('deposit-qr')).toHaveAttribute(
      'data-qr-value',
      fakeOrder().from.address,
    );
  });
});

describe('the receipt of a completed order', () => {
  const completed = fakeOrder({
    status: 'COMPLETED',
    progress: 100,
    from: { ...fakeOrder().from, received: '0.01' },
    to: { ...fakeOrder().to, sent: '0.40334444' },
    time: { ...fakeOrder().time, finish: 1_795_400_900 },
    transactions: {
      deposit: {
        id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
        amount: '0.01',
        fee: null,
        confirmations: 2,
        at: 1_795_400_100,
        explorer: 'https://mempool.space/tx/a1b2c3d4',
      },
      payout: {
        id: '0xfeedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedface',
        amount: '0.40334444',
        fee: '0.0001',
        confirmations: null,
        at: 1_795_400_800,
        explorer: 'https://etherscan.io/tx/0xfeedface',
      },
      refund: null,
    },
  });

  it('shows the rate the amounts imply, the transactions and Swap again, and no expiry', async () => {
    fakeApi({ 'GET /api/order-details/ABCDEFGHJKLMNPQR': details(completed) });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    const rate = await screen.findByTestId('order-rate');
    // 0.40334444 ÷ 0.01, not the market rate of 40.790296.
    expect(rate).toHaveTextContent('1 BTC = 40.3344 ETH');
    expect(Number(rate.dataset.rate)).toBeCloseTo(40.334444, 6);
    expect(screen.queryByText('Send the deposit by')).not.toBeInTheDocument();
    expect(screen.queryByText('Expires')).not.toBeInTheDocument();
    expect(screen.getByText('Finished')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Your deposit: view on a block explorer' }),
    ).toHaveAttribute('href', 'https://mempool.space/tx/a1b2c3d4');
    expect(
      screen.getByRole('link', { name: 'Payout to you: view on a block explorer' }),
    ).toHaveAttribute('href', 'https://etherscan.io/tx/0xfeedface');
    expect(screen.getByRole('link', { name: 'Swap BTC to ETH again' })).toHaveAttribute(
      'href',
      '/exchange/btc-eth',
    );
  });

  it('after a refund, shows what came back, where to and its transaction, not the payout', async () => {
    const refunded = fakeOrder({
      status: 'REFUNDED',
      from: { ...fakeOrder().from, received: '0.005' },
      refund: { address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', tag: null, amount: '0.0049' },
      emergency: { reason: 'LESS', choice: 'REFUND' },
      transactions: {
        deposit: null,
        payout: null,
        refund: {
          id: 'refundtx0000000000000000000000000000000000000000000000000000000',
          amount: '0.0049',
          fee: '0.0001',
          confirmations: 1,
          at: 1_795_401_000,
          explorer: 'https://mempool.space/tx/refundtx',
        },
      },
    });
    fakeApi({ 'GET /api/order-details/ABCDEFGHJKLMNPQR': details(refunded) });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    expect(await screen.findByTestId('refund-amount')).toHaveTextContent('0.0049 BTC');
    expect(screen.getByTestId('refund-address')).toHaveTextContent(
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    );
    expect(screen.getByRole('link', { name: 'Refund: view on a block explorer' })).toHaveAttribute(
      'href',
      'https://mempool.space/tx/refundtx',
    );
    expect(screen.queryByText('You Receive')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-rate')).not.toBeInTheDocument();
  });
});

describe('the emergency choice', () => {
  const emergency = fakeOrder({
    status: 'EMERGENCY',
    type: 'fixed',
    from: { ...fakeOrder().from, received: '0.005' },
    emergency: {
      reason: 'LESS',
      choice: 'NONE',
      outcomes: {
        exchange: { amount: '0.1999' },
        refund: { amount: '0.0049', fee: '0.0001' },
      },
    },
  });

  it('shows both outcomes with their amounts, the address only for a refund, and one error', async () => {
    const api = fakeApi({
      'GET /api/order-details/ABCDEFGHJKLMNPQR': details(emergency),
      'POST /api/order-emergency': () =>
        json(400, { code: 400, error: 'Enter a valid BTC refund address' }),
    });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    const go = await screen.findByRole('radio', { name: 'Continue the exchange' });
    const back = screen.getByRole('radio', { name: 'Refund me' });
    expect(go).toHaveAccessibleDescription("You receive about 0.1999 ETH at today's rate.");
    expect(back).toHaveAccessibleDescription(
      '0.0049 BTC comes back to your address, after the network fee.',
    );
    expect(screen.getByTestId('emergency-received')).toHaveTextContent('We received 0.005 BTC.');
    // Until the choice, what is received is not the ordered amount, nor a rate from it.
    expect(screen.getByTestId('amount-received')).toHaveTextContent('—');
    expect(screen.queryByTestId('order-rate')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Refund address (BTC)')).not.toBeInTheDocument();
    fireEvent.click(back);
    fireEvent.change(screen.getByLabelText('Refund address (BTC)'), {
      target: { value: 'not-an-address' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Refund me' }));
    await waitFor(() =>
      expect(screen.getAllByText('Enter a valid BTC refund address')).toHaveLength(1),
    );
    expect(document.querySelector('[data-toast]')).toBeNull();
    expect(api.callsTo('POST /api/order-emergency')[0]?.body).toEqual({
      id: 'ABCDEFGHJKLMNPQR',
      token: 'order-token',
      choice: 'REFUND',
      address: 'not-an-address',
    });
    // Choosing to continue sends no address, and hides the field.
    fireEvent.click(go);
    expect(screen.queryByLabelText('Refund address (BTC)')).not.toBeInTheDocument();
  });

  it('asks what continuing gives when the server does not say', async () => {
    const api = fakeApi({
      'GET /api/order-details/ABCDEFGHJKLMNPQR': details({
        ...emergency,
        emergency: { reason: 'LESS', choice: 'NONE' },
      }),
      'POST /api/exchange-rate': () =>
        json(200, {
          code: 0,
          msg: '',
          data: {
            errors: [],
            from: {
              amount: '0.005',
              code: 'BTC',
              coin: 'BTC',
              network: 'BTC',
              min: '0.001',
              max: '1',
              precision: 8,
              rate: '40',
              usd: '300',
            },
            to: {
              amount: '0.19876',
              code: 'ETH',
              coin: 'ETH',
              network: 'ETH',
              min: '0.02',
              max: '40',
              precision: 8,
              rate: '0.025',
              usd: '298',
            },
          },
        }),
    });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    expect(await screen.findByRole('radio', { name: 'Continue the exchange' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.getByRole('radio', { name: 'Continue the exchange' }),
      ).toHaveAccessibleDescription("You receive about 0.19876 ETH at today's rate."),
    );
    expect(api.callsTo('POST /api/exchange-rate')[0]?.body).toMatchObject({
      from_currency: 'BTC',
      to_currency: 'ETH',
      amount: '0.005',
      type: 'fixed',
    });
    expect(screen.getByRole('radio', { name: 'Refund me' })).toHaveAccessibleDescription(
      'Your 0.005 BTC comes back to your address, less the BTC network fee.',
    );
  });

  it('says when continuing is refused, and leaves the refund', async () => {
    fakeApi({
      'GET /api/order-details/ABCDEFGHJKLMNPQR': details({
        ...emergency,
        emergency: {
          reason: 'LIMIT',
          choice: 'NONE',
          outcomes: {
            exchange: { refused: 'It is below the minimum of 0.001 BTC' },
            refund: { amount: '0.0049', fee: '0.0001' },
          },
        },
      }),
    });
    await openOrder('/order/ABCDEFGHJKLMNPQR?token=order-token');
    const go = await screen.findByRole('radio', { name: 'Continue the exchange' });
    expect(go).toBeDisabled();
    expect(go).toHaveAccessibleDescription(
      'Not possible: this deposit is outside what the pair can exchange.',
    );
    expect(screen.getByRole('radio', { name: 'Refund me' })).toBeEnabled();
  });
});

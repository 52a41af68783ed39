// The swap widget against a fake server, on fake timers: what it shows while quotes come and
// go, in whatever order they answer, and how it creates an order.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { dismissToast, Toaster } from '@/components/ui/toaster';
import { applyLanguage, initI18n, loadTexts } from '@/lib/i18n';
import { deferred, fakeApi, type FakeRequest, type Handler, json } from '@/test/fake-api';

// Loaded lazily by the widget; loaded here first so that they arrive on the first turn.
import '../api/create-order';
import '../api/validate-address';
import './amount-changed-dialog';
import './fixed-hold';
import './invoice-note';
import '../lib/order-input';
import '../lib/fallback-coin';
import { resetQuoteClient } from '../api/get-quote';
import { STARTING_CURRENCIES } from '../lib/starting-currencies';
import { ExchangeWidget } from './exchange-widget';

const RATE = 20; // ETH per BTC in these tests

interface QuoteBody {
  from_currency: string;
  to_currency: string;
  amount: string;
  direction: 'from' | 'to';
  type: string;
}

/** The server's quote for `body` at RATE, with the quote's `errors`. */
function quoteFor(body: QuoteBody, errors: string[] = []) {
  const amount = Number(body.amount);
  const send = body.direction === 'from' ? amount : amount / RATE;
  const side = (code: string, value: number, rate: number) => ({
    amount: String(Number(value.toFixed(8))),
    code,
    coin: code,
    network: code,
    min: '0.001',
    max: '1000',
    precision: 8,
    rate: String(rate),
    usd: (send * 60000).toFixed(2),
  });
  return json(200, {
    code: 0,
    msg: '',
    data: {
      errors,
      from: { ...side(body.from_currency, send, RATE), btc: String(send) },
      to: side(body.to_currency, send * RATE, 1 / RATE),
    },
  });
}

const currencies: Handler = () => json(200, STARTING_CURRENCIES);
const liveQuotes: Handler = (request) => quoteFor(request.body as QuoteBody);

function renderWidget() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let renders = 0;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Profiler id="widget" onRender={() => (renders += 1)}>
          <ExchangeWidget initialFrom="BTC" initialTo="ETH" />
        </Profiler>
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { renders: () => renders };
}

/** A turn of the real event loop: lazily imported modules resolve on it. */
const realTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Lets `ms` pass in steps: timers fire, answers and lazy modules arrive, React renders. */
async function wait(ms: number) {
  let passed = 0;
  do {
    const step = Math.min(50, ms - passed);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(step);
      await realTurn();
    });
    passed += step;
  } while (passed < ms);
}

const sendAmount = () => screen.getByLabelText<HTMLInputElement>('You send');
const receiveAmount = () => screen.getByLabelText<HTMLInputElement>('You get');
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

/** The widget on `/`, and where creating an order takes the browser. */
function renderWidgetInRouter(initialTo = 'ETH') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Where() {
    const location = useLocation();
    return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
  }
  const router = createMemoryRouter(
    [
      { path: '/', element: <ExchangeWidget initialFrom="BTC" initialTo={initialTo} /> },
      { path: '/order/:orderId', element: <Where /> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  // Timers only: the module loader's own scheduling (the quote client loads lazily) stays real.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  resetQuoteClient();
});

afterEach(() => {
  // Toasts are the page's, not a test's: none carries over.
  act(() => dismissToast());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the quote pipeline', () => {
  it('settles: with nothing happening, the widget does not render again', async () => {
    fakeApi({ 'GET /api/available-currencies': currencies, 'POST /api/exchange-rate': liveQuotes });
    const { renders } = renderWidget();
    await wait(1000);
    expect(receiveAmount()).toHaveValue('0.2');
    const settled = renders();
    await wait(5000);
    expect(renders()).toBe(settled);
  });

  it('asks once per settled amount, 200 ms after typing stops', async () => {
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
    });
    renderWidget();
    await wait(1000);
    // A receive amount at a fixed rate is never answered from the cache: every quote is asked.
    fireEvent.click(screen.getByLabelText('Fixed rate (1.0%)'));
    await wait(1000);
    type(receiveAmount(), '0.');
    await wait(100);
    type(receiveAmount(), '0.6');
    await wait(100);
    type(receiveAmount(), '0.68');
    await wait(1000);
    const asked = api
      .callsTo('POST /api/exchange-rate')
      .map((c) => [(c.body as QuoteBody).amount, (c.body as QuoteBody).direction]);
    expect(asked).toEqual([
      ['0.01', 'from'],
      ['0.01', 'from'],
      ['0.68', 'to'],
    ]);
    expect(sendAmount()).toHaveValue('0.034');
  });

  it('never shows the previous figure as the answer while a new amount is quoted', async () => {
    const held = deferred<Response>();
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': (request) =>
        (request.body as QuoteBody).amount === '40' ? held.promise : liveQuotes(request),
    });
    renderWidget();
    await wait(1000);
    fireEvent.click(screen.getByLabelText('Fixed rate (1.0%)'));
    await wait(1000);
    expect(screen.getByText('1 BTC ≈ 20 ETH')).toBeInTheDocument();
    type(receiveAmount(), '40');
    await wait(1000);
    // The old figure may stay, marked busy; the rate, limits and dollars of it do not.
    expect(sendAmount()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Getting the best rate…')).toBeInTheDocument();
    expect(screen.queryByText('1 BTC ≈ 20 ETH')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Min:/ })).not.toBeInTheDocument();
    held.resolve(quoteFor({ ...baseQuote, amount: '40', direction: 'to', type: 'fixed' }));
    await wait(10);
    expect(sendAmount()).toHaveValue('2');
    expect(sendAmount()).toHaveAttribute('aria-busy', 'false');
    expect(screen.getByText('1 BTC ≈ 20 ETH')).toBeInTheDocument();
  });

  it('drops a late answer for an amount no longer on screen', async () => {
    const slow = deferred<Response>();
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': (request) =>
        (request.body as QuoteBody).amount === '20' ? slow.promise : liveQuotes(request),
    });
    renderWidget();
    await wait(1000);
    fireEvent.click(screen.getByLabelText('Fixed rate (1.0%)'));
    await wait(1000);
    type(receiveAmount(), '20');
    await wait(500); // the quote for 20 ETH is on its way…
    type(receiveAmount(), '60');
    await wait(500); // …the one for 60 ETH answers first
    expect(sendAmount()).toHaveValue('3');
    // The answer for 20 arrives last, with a figure of its own: it must not show.
    slow.resolve(json(200, { code: 0, msg: '', data: stale(999, 20) }));
    await wait(500);
    expect(sendAmount()).toHaveValue('3');
    expect(receiveAmount()).toHaveValue('60');
  });

  it('after a 429, stops asking and shows marked local estimates until the pause ends', async () => {
    const until = Math.floor(Date.now() / 1000) + 120;
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': () =>
        json(429, { code: 429, msg: `Too many requests: paused until ${until}`, data: null }),
    });
    renderWidget();
    await wait(1000);
    expect(screen.getByText(/^Estimated rate/)).toBeInTheDocument();
    // 0.01 BTC at the fallback prices (60000 / 3000) less the 0.5 % adjustment.
    expect(receiveAmount()).toHaveValue('0.199');
    type(sendAmount(), '0.02');
    await wait(1000);
    expect(receiveAmount()).toHaveValue('0.398');
    expect(api.callsTo('POST /api/exchange-rate')).toHaveLength(1);
  });
});

describe('the swap button', () => {
  beforeEach(() => {
    fakeApi({ 'GET /api/available-currencies': currencies, 'POST /api/exchange-rate': liveQuotes });
  });

  it('swaps the coins, clears the amounts, then brings the default amount after 0.5 s', async () => {
    renderWidget();
    await wait(1000);
    fireEvent.click(screen.getByRole('button', { name: 'Swap currencies' }));
    expect(screen.getByRole('button', { name: /^You send: ETH/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^You get: BTC/ })).toBeInTheDocument();
    expect(sendAmount()).toHaveValue('');
    await wait(499);
    expect(sendAmount()).toHaveValue('');
    await wait(1);
    expect(sendAmount()).toHaveValue('0.5'); // ETH's default amount
  });

  it('keeps an amount typed within the 0.5 s', async () => {
    renderWidget();
    await wait(1000);
    fireEvent.click(screen.getByRole('button', { name: 'Swap currencies' }));
    await wait(300);
    type(sendAmount(), '3');
    await wait(1000);
    expect(sendAmount()).toHaveValue('3');
  });
});

describe('the destination address', () => {
  it('ignores a server verdict about an address the customer has since replaced', async () => {
    const verdict = deferred<Response>();
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () => verdict.promise,
    });
    renderWidget();
    await wait(1000);
    const address = screen.getByLabelText('Destination address');
    type(address, TYPO);
    fireEvent.blur(address);
    await wait(10);
    type(address, GOOD);
    verdict.resolve(checksumVerdict());
    await wait(10);
    expect(address).toHaveValue(GOOD);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows the verdict when it is about the address on screen', async () => {
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () => checksumVerdict(),
    });
    renderWidget();
    await wait(1000);
    const address = screen.getByLabelText('Destination address');
    type(address, TYPO);
    fireEvent.blur(address);
    await wait(10);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This ETH address has a typo: its checksum does not match',
    );
  });
});

describe('creating an order', () => {
  it('is busy from the first click, sends one order for two submits, with one key', async () => {
    const verdict = deferred<Response>();
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () => verdict.promise,
      'POST /api/create-order': (request) => createdOrder(request),
    });
    renderWidget();
    await wait(1000);
    type(screen.getByLabelText('Destination address'), GOOD);
    const form = screen.getByRole('form', { name: 'Exchange' });
    // A double submit: the second comes before anything has rendered.
    fireEvent.submit(form);
    fireEvent.submit(form);
    await wait(0);
    // Busy while the address check has not answered yet.
    expect(screen.getByRole('button', { name: /Creating Order\.\.\./ })).toBeDisabled();
    expect(screen.getByLabelText('Destination address')).toBeDisabled();
    verdict.resolve(json(200, { code: 0, msg: '', data: { valid: true, reason: null } }));
    await wait(100);
    expect(api.callsTo('POST /api/validate-address')).toHaveLength(1);
    expect(api.callsTo('POST /api/create-order')).toHaveLength(1);
  });

  it('retries the same order content with the same Idempotency-Key', async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        json(200, { code: 0, msg: '', data: { valid: true, reason: null } }),
      'POST /api/create-order': (request) =>
        (attempt += 1) === 1 ? json(503, { error: 'Try again later' }) : createdOrder(request),
    });
    renderWidget();
    await wait(1000);
    type(screen.getByLabelText('Destination address'), GOOD);
    const form = screen.getByRole('form', { name: 'Exchange' });
    fireEvent.submit(form);
    await wait(100);
    expect(screen.getByText('Try again later')).toBeInTheDocument();
    fireEvent.submit(form);
    await wait(100);
    const keys = api.callsTo('POST /api/create-order').map((c) => c.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('an unavailable pair', () => {
  const unavailable: Handler = (request) =>
    quoteFor(request.body as QuoteBody, ['PAIR_UNAVAILABLE']);
  const receiveCoin = () => screen.getByRole('button', { name: /^You get:/ }).textContent;

  it('keeps the receive coin when the send coin is the one suspended, and says so on submit', async () => {
    const suspended = STARTING_CURRENCIES.map((c) => (c.code === 'BTC' ? { ...c, send: 0 } : c));
    const api = fakeApi({
      'GET /api/available-currencies': () => json(200, suspended),
      'POST /api/exchange-rate': unavailable,
      'POST /api/validate-address': () =>
        json(200, { code: 0, msg: '', data: { valid: true, reason: null } }),
      'POST /api/create-order': (request) => createdOrder(request),
    });
    renderWidget();
    await wait(2000);
    expect(receiveCoin()).toMatch(/^ETH/);
    expect(screen.queryByText(/That pair is unavailable/)).not.toBeInTheDocument();
    type(screen.getByLabelText('Destination address'), GOOD);
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(100);
    expect(screen.getByText('Network temporarily suspended')).toBeInTheDocument();
    expect(api.callsTo('POST /api/create-order')).toHaveLength(0);
  });

  it('tries each fallback once: two unavailable fallbacks do not take turns', async () => {
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': unavailable,
    });
    renderWidget();
    await wait(3000);
    // ETH is unavailable: USDT (BSC) is the fallback for BTC, and it is unavailable too; the
    // only other coin is ETH, already tried, so the widget stays.
    expect(receiveCoin()).toMatch(/^USDT/);
    const asked = api.callsTo('POST /api/exchange-rate').length;
    await wait(3000);
    expect(receiveCoin()).toMatch(/^USDT/);
    expect(api.callsTo('POST /api/exchange-rate')).toHaveLength(asked);
  });
});

describe("the order's own link", () => {
  it('moves the address bar to the new order, with its token, and hands the order over', async () => {
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        json(200, { code: 0, msg: '', data: { valid: true, reason: null } }),
      'POST /api/create-order': (request) => createdOrder(request),
    });
    const router = renderWidgetInRouter();
    await wait(1000);
    type(screen.getByLabelText('Destination address'), GOOD);
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(200);
    expect(screen.getByTestId('location')).toHaveTextContent('/order/ORDER1?token=order-token');
    expect((router.state.location.state as { order: { id: string } }).order.id).toBe('ORDER1');
  });
});

describe('a fixed amount that moved before the order', () => {
  it('shows the new amount and creates the order only once the customer confirms it', async () => {
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        json(200, { code: 0, msg: '', data: { valid: true, reason: null } }),
      'POST /api/create-order': (request) => {
        const body = request.body as { expectedToAmount?: string };
        return body.expectedToAmount === '0.195'
          ? createdOrder(request)
          : json(409, {
              code: 409,
              msg: 'The amount changed: you would now receive 0.195 ETH',
              error: 'The amount changed: you would now receive 0.195 ETH',
              data: { to_amount: '0.195' },
            });
      },
    });
    renderWidgetInRouter();
    await wait(1000);
    fireEvent.click(screen.getByLabelText('Fixed rate (1.0%)'));
    await wait(1000);
    expect(screen.getByTestId('fixed-hold')).toHaveTextContent(/^Amount held 0:[23]\d/);
    type(screen.getByLabelText('Destination address'), GOOD);
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(200);
    const dialog = screen.getByRole('dialog', { name: 'The amount changed' });
    expect(dialog).toHaveTextContent('would now give you 0.195 ETH instead of 0.2 ETH');
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to create order')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create the order for 0.195 ETH' }));
    await wait(200);
    expect(screen.getByTestId('location')).toHaveTextContent('/order/ORDER1');
    const sent = api.callsTo('POST /api/create-order').map((c) => c.body as Record<string, string>);
    expect(sent.map((b) => b.expectedToAmount)).toEqual(['0.2', '0.195']);
    expect(sent.every((b) => b.type === 'fixed')).toBe(true);
  });

  it('refreshes a fixed quote before its hold ends, from the server', async () => {
    const api = fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
    });
    renderWidget();
    await wait(1000);
    fireEvent.click(screen.getByLabelText('Fixed rate (1.0%)'));
    await wait(1000);
    const asked = () => api.callsTo('POST /api/exchange-rate').length;
    const before = asked();
    await wait(30_500);
    expect(asked()).toBe(before + 1);
    expect(screen.getByTestId('fixed-hold')).toHaveTextContent(/^Amount held 0:[23]\d/);
  });
});

describe('address messages', () => {
  it('say which network an address belongs to when the server recognises it', async () => {
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        json(200, {
          code: 0,
          msg: '',
          data: {
            valid: false,
            reason: 'network',
            message: null,
            tag_error: null,
            looks_like: { code: 'BTC', coin: 'BTC', network: 'BTC', networkName: 'Bitcoin' },
          },
        }),
    });
    renderWidget();
    await wait(1000);
    const address = screen.getByLabelText('Destination address');
    type(address, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    fireEvent.blur(address);
    await wait(50);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This address looks like one for Bitcoin (BTC), not for ETH (ERC20)',
    );
  });

  it('follow a language switch', async () => {
    fakeApi({
      'GET /api/available-currencies': currencies,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        json(200, { code: 0, msg: '', data: { valid: false, reason: 'format' } }),
    });
    renderWidget();
    await wait(1000);
    const address = screen.getByLabelText('Destination address');
    type(address, '0x1234');
    fireEvent.blur(address);
    await wait(50);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid ETH (ERC20) address format');
    await act(async () => {
      await applyLanguage('de', { store: false });
    });
    await wait(50);
    expect(screen.getByRole('alert')).toHaveTextContent('Ungültiges Adressformat für ETH (ERC20)');
    await act(async () => {
      await applyLanguage('en', { store: false });
    });
  });
});

describe('paid out over Lightning', () => {
  const BTCLN = {
    code: 'BTCLN',
    coin: 'BTC',
    name: 'Bitcoin',
    network: 'LN',
    networkName: 'Lightning',
    tag: null,
    precision: 8,
    logo: 'btc',
    color: '#f7931a',
    priority: 99,
    send: 1,
    recv: 1,
  };
  const withLightning: Handler = () => json(200, [...STARTING_CURRENCIES, BTCLN]);
  const INVOICE = `lnbc500u1p4s0awzpp5${'q'.repeat(240)}`;
  const verdict = (data: Record<string, unknown>) =>
    json(200, { code: 0, msg: '', data: { tag_error: null, looks_like: null, ...data } });
  const payable = () =>
    verdict({
      valid: true,
      reason: null,
      message: null,
      invoice: { amount: '0.0005', expires_at: 1_795_690_978 },
      invoice_minutes: null,
    });

  function renderToLightning() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ExchangeWidget initialFrom="ETH" initialTo="BTCLN" />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  }
  const invoiceField = () => screen.getByLabelText('Lightning invoice (BOLT 11)');

  it('asks for an invoice, at the fixed rate only, and says why', async () => {
    fakeApi({
      'GET /api/available-currencies': withLightning,
      'POST /api/exchange-rate': liveQuotes,
    });
    renderToLightning();
    await wait(1000);
    expect(invoiceField()).toHaveAttribute('placeholder', 'lnbc…');
    expect(screen.getByLabelText('Fixed rate (1.0%)')).toBeChecked();
    expect(screen.getByLabelText('Float rate (0.5%)')).toBeDisabled();
    expect(screen.getByRole('radiogroup', { name: 'Order type' })).toHaveAccessibleDescription(
      'A Lightning invoice is paid exactly: fixed rate only.',
    );
  });

  it('takes the amount from a pasted invoice, read-only, quotes it and orders it', async () => {
    const api = fakeApi({
      'GET /api/available-currencies': withLightning,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': payable,
      'POST /api/create-order': (request) => createdOrder(request),
    });
    renderToLightning();
    await wait(1000);
    // Pasted, not left: the check needs no blur.
    type(invoiceField(), INVOICE);
    await wait(500);
    // Asked with the send coin: the invoice must outlast its deposit.
    expect(api.callsTo('POST /api/validate-address').map((c) => c.body)).toEqual([
      { currency: 'BTCLN', address: INVOICE, from_currency: 'ETH' },
    ]);
    expect(receiveAmount()).toHaveValue('0.0005');
    expect(receiveAmount()).toHaveAttribute('readonly');
    expect(sendAmount()).toHaveAttribute('readonly');
    // The limits are no choice then.
    expect(screen.queryByRole('button', { name: /^Min:/ })).not.toBeInTheDocument();
    expect(
      screen.getByText(/^Your invoice sets what you get: 0\.0005 BTC, payable until /),
    ).toHaveAttribute('role', 'status');
    const quotes = api.callsTo('POST /api/exchange-rate').map((c) => c.body as QuoteBody);
    expect(quotes.at(-1)).toEqual({
      from_currency: 'ETH',
      to_currency: 'BTCLN',
      amount: '0.0005',
      direction: 'to',
      type: 'fixed',
    });
    expect(sendAmount()).toHaveValue('0.000025');
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(200);
    const sent = api.callsTo('POST /api/create-order').map((c) => c.body as Record<string, string>);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      fromCcy: 'ETH',
      toCcy: 'BTCLN',
      toAddress: INVOICE,
      amount: '0.0005',
      direction: 'to',
      type: 'fixed',
    });
  });

  it("says why an invoice is refused, in the customer's words, and makes no order", async () => {
    const api = fakeApi({
      'GET /api/available-currencies': withLightning,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        verdict({
          valid: false,
          reason: 'invoice_expires_soon',
          message: 'This invoice expires in 10 minutes: make one valid for at least 45 minutes',
          invoice: null,
          invoice_minutes: { left: 10, needed: 45 },
        }),
      'POST /api/create-order': (request) => createdOrder(request),
    });
    renderToLightning();
    await wait(1000);
    type(invoiceField(), INVOICE);
    await wait(500);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This invoice expires in 10 min: make one valid for at least 45 min.',
    );
    expect(receiveAmount()).not.toHaveAttribute('readonly');
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(200);
    expect(api.callsTo('POST /api/create-order')).toHaveLength(0);
  });

  it('calls anything but an invoice not an invoice, without asking for a "format"', async () => {
    fakeApi({
      'GET /api/available-currencies': withLightning,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () =>
        verdict({ valid: false, reason: 'invoice_malformed', message: 'x', invoice: null }),
    });
    renderToLightning();
    await wait(1000);
    type(invoiceField(), 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    fireEvent.blur(invoiceField());
    await wait(50);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This is not a whole Lightning invoice (BOLT 11): copy all of it from your wallet.',
    );
  });

  it('shows the amount of an invoice submitted before its check, and orders only after', async () => {
    const held = deferred<Response>();
    const api = fakeApi({
      'GET /api/available-currencies': withLightning,
      'POST /api/exchange-rate': liveQuotes,
      'POST /api/validate-address': () => held.promise,
      'POST /api/create-order': (request) => createdOrder(request),
    });
    renderToLightning();
    await wait(1000);
    type(invoiceField(), INVOICE);
    fireEvent.submit(screen.getByRole('form', { name: 'Exchange' }));
    await wait(500);
    // One check for the submit and the paste together.
    expect(api.callsTo('POST /api/validate-address')).toHaveLength(1);
    held.resolve(payable());
    await wait(500);
    expect(receiveAmount()).toHaveValue('0.0005');
    expect(api.callsTo('POST /api/create-order')).toHaveLength(0);
  });
});

const GOOD = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TYPO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';

const baseQuote: QuoteBody = {
  from_currency: 'BTC',
  to_currency: 'ETH',
  amount: '0.01',
  direction: 'from',
  type: 'float',
};

/** A quote for `amount` BTC whose receive figure is `figure` (tells a stale answer apart). */
function stale(amount: number, figure: number) {
  const side = (code: string, value: number) => ({
    amount: String(value),
    code,
    coin: code,
    network: code,
    min: '0.001',
    max: '1000',
    precision: 8,
    rate: String(RATE),
    usd: '1.00',
  });
  return { errors: [], from: side('BTC', amount), to: side('ETH', figure) };
}

function checksumVerdict() {
  return json(200, {
    code: 0,
    msg: '',
    data: { valid: false, reason: 'checksum', message: null, tag_error: null },
  });
}

function createdOrder(request: FakeRequest) {
  const body = request.body as { toAddress: string; amount: string };
  return json(200, {
    code: 0,
    msg: '',
    data: {
      id: 'ORDER1',
      token: 'order-token',
      status: 'NEW',
      type: 'float',
      direction: 'from',
      progress: 20,
      rate: String(RATE),
      from: {
        amount: body.amount,
        code: 'BTC',
        coin: 'BTC',
        network: 'BTC',
        address: 'bc1qdeposit',
        tag: null,
        tagName: null,
        usd: '600',
      },
      to: {
        amount: '0.2',
        code: 'ETH',
        coin: 'ETH',
        network: 'ETH',
        address: body.toAddress,
        tag: null,
        tagName: null,
        usd: '600',
      },
      refund: { address: null, tag: null },
      emergency: null,
      time: { reg: 1, expiration: 2, left: 1, rateExpiration: null, update: 1, finish: null },
      metadata: null,
    },
  });
}

// Three upstream liquidity providers for the routing test, each on its own port, speaking the
// documented APIs as far as a downstream Ferry uses them (docs/upstreams/): two ChangeNOW v2
// ("cheapnow" pays less, "dearnow" less still) and one SideShift v2 that pays most. Each serves
// `POST /control/status {id, ...fields}` so that a test can move an order on, as the upstream
// would when the customer's deposit arrives.
import { createServer } from 'node:http';

const base = Number(process.env.E2E_UPSTREAMS_PORT);
const USD = { btc: 60000, eth: 3000, usdt: 1 };

function json(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function readBody(request) {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body ? JSON.parse(body) : {}));
  });
}

const round8 = (x) => Math.round(x * 1e8) / 1e8;

/** `to` per `from` after the upstream's spread, and its network fee in `to`. */
function priced(from, to, spread) {
  if (!(from in USD) || !(to in USD)) return null;
  return { rate: (USD[from] / USD[to]) * (1 - spread), fee: 2 / USD[to] };
}

function controlled(orders, request, response) {
  return readBody(request).then((body) => {
    const order = orders.get(body.id);
    if (!order) return json(response, 404, { error: 'unknown order' });
    Object.assign(order, body);
    return json(response, 200, order);
  });
}

/** A ChangeNOW v2 upstream whose rate is the market's less `spread`. */
function changenow(port, spread) {
  const orders = new Map();
  createServer(async (request, response) => {
    const url = new URL(request.url, `http://127.0.0.1:${port}`);
    const q = Object.fromEntries(url.searchParams);
    if (url.pathname === '/control/status') return controlled(orders, request, response);
    if (url.pathname === '/v2/exchange/currencies') {
      return json(
        response,
        200,
        ['btc', 'eth', 'usdt'].map((ticker) => ({
          ticker, network: ticker === 'usdt' ? 'eth' : ticker, name: ticker, isFiat: false, buy: true, sell: true,
          supportsFixedRate: true, hasExternalId: false,
        })),
      );
    }
    const pair = priced(q.fromCurrency, q.toCurrency, spread);
    if (url.pathname === '/v2/exchange/range') {
      if (!pair) return json(response, 400, { error: 'not_valid_params', message: 'Currency is not supported' });
      return json(response, 200, { minAmount: round8(20 / USD[q.fromCurrency]), maxAmount: null });
    }
    if (url.pathname === '/v2/exchange/estimated-amount') {
      if (!pair) return json(response, 400, { error: 'not_valid_params', message: 'Currency is not supported' });
      const from = Number(q.fromAmount);
      return json(response, 200, { fromAmount: from, toAmount: round8(from * pair.rate - pair.fee), rateId: null });
    }
    if (url.pathname === '/v2/exchange' && request.method === 'POST') {
      const body = await readBody(request);
      const order = priced(body.fromCurrency, body.toCurrency, spread);
      const from = Number(body.fromAmount);
      const id = `cn${port}${orders.size + 1}`;
      const created = {
        id, status: 'new', actionsAvailable: false, flow: body.flow, payinAddress: `bc1qupstream${port}x${orders.size + 1}`,
        payinExtraId: '', expectedAmountFrom: from, expectedAmountTo: round8(from * order.rate - order.fee),
        amountFrom: null, amountTo: null, payinHash: null, payoutHash: null, refundHash: null,
      };
      orders.set(id, created);
      return json(response, 200, { ...created, fromAmount: from, toAmount: created.expectedAmountTo });
    }
    if (url.pathname === '/v2/exchange/by-id') {
      const order = orders.get(q.id);
      return order ? json(response, 200, order) : json(response, 404, { error: 'not_found', message: 'Exchange not found' });
    }
    json(response, 404, { error: 'not_found', message: 'Not found' });
  }).listen(port, '127.0.0.1');
}

/** A SideShift v2 upstream whose rate is the market's less `spread` and its commission. */
function sideshift(port, spread) {
  const shifts = new Map();
  createServer(async (request, response) => {
    const url = new URL(request.url, `http://127.0.0.1:${port}`);
    if (url.pathname === '/control/status') return controlled(shifts, request, response);
    if (url.pathname === '/api/v2/coins') {
      return json(response, 200, [
        { coin: 'BTC', networks: ['bitcoin'], depositOffline: false, settleOffline: false },
        { coin: 'ETH', networks: ['ethereum'], depositOffline: false, settleOffline: false },
        { coin: 'USDT', networks: ['ethereum'], depositOffline: false, settleOffline: false },
      ]);
    }
    const pairPath = url.pathname.match(/^\/api\/v2\/pair\/([a-z]+)-[a-z]+\/([a-z]+)-[a-z]+$/);
    if (pairPath) {
      const commission = Number(url.searchParams.get('commissionRate') ?? '0.005');
      const pair = priced(pairPath[1], pairPath[2], spread);
      if (!pair) return json(response, 500, { error: { message: 'Invalid coin' } });
      const amount = Number(url.searchParams.get('amount') ?? '1');
      const rate = (amount * pair.rate * (1 - commission) - pair.fee) / amount;
      return json(response, 200, {
        min: (10 / USD[pairPath[1]]).toFixed(8), max: (30000 / USD[pairPath[1]]).toFixed(8), rate: rate.toFixed(8),
      });
    }
    if (url.pathname === '/api/v2/shifts/variable' && request.method === 'POST') {
      if (!request.headers['x-user-ip']) {
        return json(response, 400, { error: { message: 'The x-user-ip header must be set to the end-user IP address' } });
      }
      const body = await readBody(request);
      const id = `ss${shifts.size + 1}`;
      const shift = {
        id, type: 'variable', status: 'waiting', depositAddress: `bc1qupstreamsx${shifts.size + 1}`,
        settleAddress: body.settleAddress, depositCoin: body.depositCoin, settleCoin: body.settleCoin,
        expiresAt: new Date(Date.now() + 7 * 86400e3).toISOString(),
      };
      shifts.set(id, shift);
      return json(response, 200, shift);
    }
    const shiftPath = url.pathname.match(/^\/api\/v2\/shifts\/([a-z0-9]+)$/);
    if (shiftPath) {
      const shift = shifts.get(shiftPath[1]);
      return shift ? json(response, 200, shift) : json(response, 404, { error: { message: 'Order not found' } });
    }
    json(response, 404, { error: { message: 'Not found' } });
  }).listen(port, '127.0.0.1');
}

changenow(base, 0.02);
changenow(base + 1, 0.03);
sideshift(base + 2, 0.005);

// The Track page: an id typed by a guest, the orders this device holds links to.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { initI18n, loadTexts } from '@/lib/i18n';
import { fakeApi, json } from '@/test/fake-api';
import { renderRoutes } from '@/test/render';

import { rememberOrderToken } from '../lib/order-tokens';
import TrackPage from './track-page';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

afterEach(() => vi.unstubAllGlobals());

const status = (id: string, value: string) => ({
  id,
  status: value,
  type: 'float',
  progress: 20,
  from: { code: 'BTC', coin: 'BTC', network: 'BTC', amount: '0.01' },
  to: { code: 'ETH', coin: 'ETH', network: 'ETH', amount: '0.4' },
  time: { reg: 1_795_400_000, expiration: 1_795_401_800, finished: null },
});

function openTrack(path = '/track') {
  return renderRoutes(
    [
      { path: '/track', element: <TrackPage /> },
      { path: '/order/:orderId', element: <p>order page</p> },
    ],
    path,
  );
}

describe('the Track page', () => {
  it("shows a guest's order by its id, typed in any case and with spaces", async () => {
    const api = fakeApi({
      'POST /api/track-order': (r) =>
        json(200, {
          code: 0,
          msg: 'OK',
          data: status((r.body as { order_id: string }).order_id, 'EXCHANGE'),
        }),
    });
    await openTrack();
    fireEvent.change(screen.getByLabelText('Order ID'), {
      target: { value: ' abcd efgh jkmn pqrs ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    expect(await screen.findByTestId('public-status')).toHaveTextContent('Exchanging');
    expect(api.callsTo('POST /api/track-order')[0]?.body).toEqual({
      order_id: 'ABCDEFGHJKMNPQRS',
    });
  });

  it('answers an unknown id usefully', async () => {
    fakeApi({ 'POST /api/track-order': () => json(404, { code: 404, error: 'Order not found' }) });
    await openTrack('/track?id=ZZZZZZZZZZZZZZZZ');
    const answer = await screen.findByTestId('unknown-order');
    expect(answer).toHaveTextContent('We found no order ZZZZZZZZZZZZZZZZ');
    expect(answer).toHaveTextContent("Check the ID against your order's link or e-mail");
  });

  it('lists the orders of this device, newest first, each opening with its link', async () => {
    rememberOrderToken('OLDERORDER222222', 'tok-old', Date.now() - 60_000, {
      from: 'XMR',
      to: 'USDT',
      fromAmount: '2',
      toAmount: '1234.5',
    });
    rememberOrderToken('NEWERORDER333333', 'tok-new', Date.now(), {
      from: 'BTC',
      to: 'ETH',
      fromAmount: '0.01',
      toAmount: '0.4',
    });
    fakeApi({
      'POST /api/track-order': (r) =>
        json(200, {
          code: 0,
          msg: 'OK',
          data: status((r.body as { order_id: string }).order_id, 'COMPLETED'),
        }),
    });
    await openTrack();
    const region = screen.getByRole('region', { name: 'Recent orders on this device' });
    const links = within(region).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/order/NEWERORDER333333?token=tok-new',
      '/order/OLDERORDER222222?token=tok-old',
    ]);
    expect(links[1]).toHaveTextContent('2 XMR → 1,234.5 USDT');
    expect((await screen.findAllByText('Completed')).length).toBe(2);
  });

  it('opens the full order when this browser holds its link', async () => {
    rememberOrderToken('MINEMINEMINEMINE', 'tok-mine');
    fakeApi({});
    const { router } = await openTrack();
    fireEvent.change(screen.getByLabelText('Order ID'), { target: { value: 'minemineminemine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Track' }));
    expect(await screen.findByText('order page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?token=tok-mine');
  });
});

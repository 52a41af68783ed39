// The orders search: what is typed and the filters chosen go to the server and into the address;
// pages follow `next` with them; the server's reason for refusing a filter is shown.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakeOrder, operator, renderConsole } from '../test-support';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the orders page', () => {
  it('searches for what is typed, with the status chosen, and keeps both in the address', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': (request) =>
        json(200, {
          orders: query(request.url).q ? [fakeOrder({ status: 'CONFIRMING' })] : [],
          next: null,
        }),
    });
    const { router } = await renderConsole('/admin/orders');
    expect(await screen.findByText('There are no orders yet.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'CONFIRMING' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search orders' }), {
      target: { value: '  bc1qdeposit  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    const table = await screen.findByRole('table', { name: 'Orders found' });
    const searches = api.callsTo('GET /api/admin/orders').map((c) => query(c.url));
    expect(searches.at(-1)).toEqual({ q: 'bc1qdeposit', status: 'CONFIRMING', limit: '50' });
    expect(router.state.location.search).toBe('?q=bc1qdeposit&status=CONFIRMING');

    const link = within(table).getByRole('link', { name: 'ABCDEFGHJKLMNPQR' });
    expect(link).toHaveAttribute('href', '/admin/orders/ABCDEFGHJKLMNPQR');
    // The status in words, not in colour only; the whole deposit address for screen readers.
    expect(within(table).getByText('Confirming')).toBeInTheDocument();
    expect(within(table).getByText('bc1qdeposit00000000000000000000000000000')).toBeInTheDocument();
  });

  it('searches from the address, and pages on with `next`', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': (request) =>
        json(200, {
          orders: [
            fakeOrder({ id: query(request.url).before ? 'OLDER0000000000A' : 'NEWER0000000000A' }),
          ],
          next: query(request.url).before ? null : '1795400000:NEWER0000000000A',
        }),
    });
    const { router } = await renderConsole('/admin/orders?q=ada%40example.com');
    expect(await screen.findByRole('link', { name: 'NEWER0000000000A' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search orders' })).toHaveValue('ada@example.com');
    fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'OLDER0000000000A' })).toBeInTheDocument();
    expect(query(api.callsTo('GET /api/admin/orders').at(-1)?.url ?? '')).toEqual({
      q: 'ada@example.com',
      before: '1795400000:NEWER0000000000A',
      limit: '50',
    });
    expect(router.state.location.search).toBe(
      '?q=ada%40example.com&before=1795400000%3ANEWER0000000000A',
    );
    expect(screen.queryByRole('link', { name: 'Next page' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'First page' })).toHaveAttribute(
      'href',
      '/admin/orders?q=ada%40example.com',
    );
  });

  it('sends the pair, the days and the provider only when filled, keeps them in the address, and clears them', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': () => json(200, { orders: [], next: null }),
    });
    const { router } = await renderConsole('/admin/orders');
    expect(await screen.findByText('There are no orders yet.')).toBeInTheDocument();
    const searches = () => api.callsTo('GET /api/admin/orders').map((c) => query(c.url));

    // Codes are written in upper case as they are typed.
    fireEvent.change(screen.getByLabelText('Customer sends (code)'), { target: { value: 'btc' } });
    expect(screen.getByLabelText('Customer sends (code)')).toHaveValue('BTC');
    fireEvent.change(screen.getByLabelText('Customer receives (code)'), {
      target: { value: ' usdt-trc20 ' },
    });
    fireEvent.change(screen.getByLabelText('From (UTC day)'), { target: { value: '2026-01-06' } });
    fireEvent.change(screen.getByLabelText('To (UTC day, included)'), {
      target: { value: '2026-01-05' },
    });
    // A range that runs backwards is not sent.
    const before = searches().length;
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The last day comes before the first.')).toBeInTheDocument();
    expect(screen.getByLabelText('To (UTC day, included)')).toHaveAccessibleDescription(
      'The last day comes before the first.',
    );
    expect(searches()).toHaveLength(before);
    expect(router.state.location.search).toBe('');

    fireEvent.change(screen.getByLabelText('From (UTC day)'), { target: { value: '2026-01-05' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No orders match this search.')).toBeInTheDocument();
    // The provider, left empty, is not sent.
    expect(searches().at(-1)).toEqual({
      from: 'BTC',
      to: 'USDT-TRC20',
      since: '2026-01-05',
      until: '2026-01-05',
      limit: '50',
    });
    expect(router.state.location.search).toBe(
      '?from=BTC&to=USDT-TRC20&since=2026-01-05&until=2026-01-05',
    );
    expect(screen.queryByText('The last day comes before the first.')).not.toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: ' sandbox ' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search orders' }), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?q=ada%40example.com&from=BTC&to=USDT-TRC20&provider=sandbox&since=2026-01-05&until=2026-01-05',
      ),
    );
    await waitFor(() =>
      expect(searches().at(-1)).toEqual({
        q: 'ada@example.com',
        from: 'BTC',
        to: 'USDT-TRC20',
        provider: 'sandbox',
        since: '2026-01-05',
        until: '2026-01-05',
        limit: '50',
      }),
    );

    // Clearing the filters keeps the search.
    fireEvent.click(screen.getByRole('link', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=ada%40example.com'));
    await waitFor(() => expect(searches().at(-1)).toEqual({ q: 'ada@example.com', limit: '50' }));
    expect(screen.getByLabelText('Customer sends (code)')).toHaveValue('');
    expect(screen.getByLabelText('Customer receives (code)')).toHaveValue('');
    expect(screen.getByLabelText('Provider')).toHaveValue('');
    expect(screen.getByLabelText('From (UTC day)')).toHaveValue('');
    expect(screen.getByLabelText('To (UTC day, included)')).toHaveValue('');
    expect(screen.getByRole('searchbox', { name: 'Search orders' })).toHaveValue('ada@example.com');
  });

  it('reads the filters from the address, and pages on with them', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': (request) =>
        json(200, {
          orders: [
            fakeOrder({ id: query(request.url).before ? 'OLDER0000000000A' : 'NEWER0000000000A' }),
          ],
          next: query(request.url).before ? null : '1795400000:NEWER0000000000A',
        }),
    });
    const filters = {
      q: 'ada@example.com',
      status: 'COMPLETED',
      from: 'BTC',
      to: 'ETH',
      provider: 'changenow',
      since: '2026-01-05',
      until: '2026-01-06',
    };
    const address = `?${new URLSearchParams(filters).toString()}`;
    const { router } = await renderConsole(`/admin/orders${address}`);
    expect(await screen.findByRole('link', { name: 'NEWER0000000000A' })).toBeInTheDocument();
    expect(query(api.callsTo('GET /api/admin/orders')[0]?.url ?? '')).toEqual({
      ...filters,
      limit: '50',
    });

    // The form shows them.
    expect(screen.getByRole('searchbox', { name: 'Search orders' })).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Status')).toHaveValue('COMPLETED');
    expect(screen.getByLabelText('Customer sends (code)')).toHaveValue('BTC');
    expect(screen.getByLabelText('Customer receives (code)')).toHaveValue('ETH');
    expect(screen.getByLabelText('Provider')).toHaveValue('changenow');
    expect(screen.getByLabelText('From (UTC day)')).toHaveValue('2026-01-05');
    expect(screen.getByLabelText('To (UTC day, included)')).toHaveValue('2026-01-06');
    expect(screen.getByRole('link', { name: 'Clear filters' })).toHaveAttribute(
      'href',
      '/admin/orders?q=ada%40example.com',
    );

    fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'OLDER0000000000A' })).toBeInTheDocument();
    expect(query(api.callsTo('GET /api/admin/orders').at(-1)?.url ?? '')).toEqual({
      ...filters,
      before: '1795400000:NEWER0000000000A',
      limit: '50',
    });
    expect(router.state.location.search).toBe(`${address}&before=1795400000%3ANEWER0000000000A`);
    expect(screen.getByRole('link', { name: 'First page' })).toHaveAttribute(
      'href',
      `/admin/orders${address}`,
    );
  });

  it("shows the server's reason when it refuses a filter", async () => {
    fakeConsole(operator(), {
      'GET /api/admin/orders': (request) =>
        query(request.url).from === 'XYZ'
          ? json(400, { error: 'Unknown currency XYZ' })
          : json(200, { orders: [], next: null }),
    });
    const { router } = await renderConsole('/admin/orders');
    expect(await screen.findByText('There are no orders yet.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Customer sends (code)'), { target: { value: 'xyz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Unknown currency XYZ')).toBeInTheDocument();
    expect(screen.getByText('The orders could not be loaded.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?from=XYZ');
    // The form still shows what was refused, to be corrected.
    expect(screen.getByLabelText('Customer sends (code)')).toHaveValue('XYZ');
  });

  it("shows a refusal for the operator's role in the server's words", async () => {
    fakeConsole(operator({ role: 'support' }), {
      'GET /api/admin/orders': () =>
        json(403, {
          error: 'This needs the operator role; you are support',
          reason: 'role_required',
        }),
    });
    await renderConsole('/admin/orders');
    expect(
      await screen.findByText('This needs the operator role; you are support'),
    ).toBeInTheDocument();
  });
});

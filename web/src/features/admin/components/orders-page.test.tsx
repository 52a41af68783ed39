// The orders search: what is typed goes to the server and into the address; pages follow `next`.
import { fireEvent, screen, within } from '@testing-library/react';
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

// The accounts search: what is typed goes to the server and into the address; each account
// links to its page; pages follow `next`.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakeUser, operator, renderConsole } from '../test-support';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the accounts page', () => {
  it('searches for what is typed, keeps it in the address, and links each account', async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      'GET /api/admin/users': (request) =>
        json(200, {
          users: query(request.url).q
            ? [
                fakeUser({ locked_at: 1_795_400_000, two_factor: true }),
                fakeUser({ id: 'u_other', email: 'carl@example.com', role: 'support' }),
              ]
            : [],
          next: null,
        }),
    });
    const { router } = await renderConsole('/admin/users');
    expect(await screen.findByText('There are no accounts yet.')).toBeInTheDocument();
    // Support reads accounts: the navigation offers them.
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getByRole('link', { name: 'Accounts' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search accounts' }), {
      target: { value: '  car ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    const table = await screen.findByRole('table', { name: 'Accounts found' });
    expect(query(api.callsTo('GET /api/admin/users').at(-1)?.url ?? '')).toEqual({
      q: 'car',
      limit: '50',
    });
    expect(router.state.location.search).toBe('?q=car');
    expect(within(table).getByRole('link', { name: 'customer@example.com' })).toHaveAttribute(
      'href',
      '/admin/users/u_customer',
    );
    const [, locked, other] = within(table).getAllByRole('row');
    expect(within(locked!).getByText('Locked')).toBeInTheDocument();
    expect(within(other!).getByText('Active')).toBeInTheDocument();
    expect(within(other!).getByText('Support')).toBeInTheDocument();
  });

  it('searches from the address, and pages on with `next`', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/users': (request) =>
        json(200, {
          users: [
            query(request.url).before
              ? fakeUser({ id: 'u_older', email: 'older@example.com' })
              : fakeUser(),
          ],
          next: query(request.url).before ? null : '1795300000:u_customer',
        }),
    });
    const { router } = await renderConsole('/admin/users?q=c');
    expect(await screen.findByRole('link', { name: 'customer@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search accounts' })).toHaveValue('c');
    fireEvent.click(screen.getByRole('link', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'older@example.com' })).toBeInTheDocument();
    expect(query(api.callsTo('GET /api/admin/users').at(-1)?.url ?? '')).toEqual({
      q: 'c',
      before: '1795300000:u_customer',
      limit: '50',
    });
    expect(router.state.location.search).toBe('?q=c&before=1795300000%3Au_customer');
    expect(screen.getByRole('link', { name: 'First page' })).toHaveAttribute(
      'href',
      '/admin/users?q=c',
    );
  });
});

// The console's guard (issue 22): who gets in, and the code that opens a locked console.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakeQueue, IN_AN_HOUR, operator, renderConsole } from '../test-support';

describe('the back office guard', () => {
  it('sends a visitor who never signed in to sign in, and asks the server nothing', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { router } = await renderConsole('/admin/orders');
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/admin/orders' } });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a signed-in user who is no operator the page-not-found', async () => {
    fakeConsole(null);
    await renderConsole('/admin');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Authenticator code')).not.toBeInTheDocument();
  });

  it('asks an operator without two-factor authentication to turn it on in the profile', async () => {
    const api = fakeConsole(operator({ two_factor: false, unlocked_until: null }));
    await renderConsole('/admin');
    const panel = await screen.findByRole('region', { name: 'Turn on two-factor authentication' });
    expect(within(panel).getByRole('link', { name: 'Open your profile' })).toHaveAttribute(
      'href',
      '/profile',
    );
    expect(screen.queryByLabelText('Authenticator code')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Back office' })).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/console/unlock')).toHaveLength(0);
  });

  it('shows the unlock form to an operator whose console is locked, and nothing else', async () => {
    const api = fakeConsole(operator({ unlocked_until: null }), {
      'GET /api/admin/orders': () => json(200, { orders: [], next: null }),
    });
    await renderConsole('/admin/orders');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The back office is locked' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Authenticator code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlock' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Orders' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/orders')).toHaveLength(0);
  });

  it('treats an unlock time gone by as locked', async () => {
    fakeConsole(operator({ unlocked_until: Math.floor(Date.now() / 1000) - 5 }));
    await renderConsole('/admin');
    expect(await screen.findByLabelText('Authenticator code')).toBeInTheDocument();
  });

  it('posts the code, then opens the console', async () => {
    let unlocked: number | null = null;
    const api = fakeConsole(operator({ unlocked_until: null }), {
      'GET /api/admin/console/me': () => json(200, operator({ unlocked_until: unlocked })),
      'POST /api/admin/console/unlock': () => {
        unlocked = IN_AN_HOUR();
        return json(200, { unlocked_until: unlocked });
      },
    });
    await renderConsole('/admin');
    fireEvent.change(await screen.findByLabelText('Authenticator code'), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByRole('heading', { name: 'Welcome to the back office' }),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/console/unlock').map((c) => c.body)).toEqual([
      { code: '123456' },
    ]);
    expect(screen.getByText('Signed in as ada@example.com.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lock' })).toBeInTheDocument();
  });

  it("says the server's reason for a wrong code at the field, and stays signed in", async () => {
    const api = fakeConsole(operator({ unlocked_until: null }), {
      'POST /api/admin/console/unlock': () => json(401, { error: 'The code is not valid' }),
    });
    await renderConsole('/admin');
    const code = await screen.findByLabelText('Authenticator code');
    fireEvent.change(code, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Enter the 6 digits of the code.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/console/unlock')).toHaveLength(0);

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('The code is not valid')).toBeInTheDocument();
    expect(localStorage.getItem('signedIn')).toBe('1');
    expect(screen.queryByText('Sign-in page')).not.toBeInTheDocument();
  });

  it('shows the code dialog over the page when a call meets the lock, then makes the call again', async () => {
    let locked = true;
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': () =>
        locked
          ? json(403, { error: 'The back office is locked', reason: 'console_locked' })
          : json(200, { orders: [], next: null }),
      // A locked console refuses every call, the navigation's count too.
      'GET /api/admin/queue': () =>
        locked
          ? json(403, { error: 'The back office is locked', reason: 'console_locked' })
          : json(200, fakeQueue()),
      'POST /api/admin/console/unlock': () => {
        locked = false;
        return json(200, { unlocked_until: IN_AN_HOUR() });
      },
    });
    await renderConsole('/admin/orders');
    const dialog = await screen.findByRole('dialog', { name: 'The back office is locked' });
    // The page stays under the dialog.
    expect(screen.getByRole('heading', { level: 1, name: 'Orders' })).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Authenticator code'), {
      target: { value: '111111' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('There are no orders yet.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'The back office is locked' })).toBeNull();
    expect(api.callsTo('GET /api/admin/orders')).toHaveLength(2);
  });
});

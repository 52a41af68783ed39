import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { page, renderRoutes } from '@/test/render';

import { GuestRoute, ProtectedRoute } from './protected-route';

const routes = [
  { path: '/', element: page('Home page') },
  { path: '/signin', element: page('Sign-in page') },
  { element: <ProtectedRoute />, children: [{ path: '/orders', element: page('My orders page') }] },
  { element: <GuestRoute />, children: [{ path: '/signup', element: page('Sign-up page') }] },
];

function answerUser(status: number, body: unknown) {
  let resolve: (r: Response) => void = () => {};
  const pending = new Promise<Response>((r) => (resolve = r));
  vi.stubGlobal('fetch', vi.fn().mockReturnValue(pending));
  return () =>
    resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
}

/** A session was started here before (its cookie, HttpOnly, is the server's business). */
function signedInBefore() {
  localStorage.setItem('signedIn', '1');
}

afterEach(() => vi.unstubAllGlobals());

describe('the protected-route guard (spec/accounts-and-pages.md §2.1)', () => {
  it('redirects to /signin without asking the server when this browser never signed in', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { router } = await renderRoutes(routes, '/orders');
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a spinner while the user loads, then the page', async () => {
    signedInBefore();
    const send = answerUser(200, { id: '1', username: 'ann@example.com', email_verified: true });
    await renderRoutes(routes, '/orders');
    expect(screen.getByRole('status')).toBeInTheDocument();
    send();
    expect(await screen.findByText('My orders page')).toBeInTheDocument();
  });

  it('treats a 401 from /api/user as signed out', async () => {
    signedInBefore();
    const send = answerUser(401, { error: 'Unauthorized' });
    const { router } = await renderRoutes(routes, '/orders');
    send();
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    // The next page load does not ask again.
    expect(localStorage.getItem('signedIn')).toBeNull();
  });

  it('sends a signed-in user away from sign-up to the home page', async () => {
    signedInBefore();
    const send = answerUser(200, { id: '1', username: 'ann@example.com', email_verified: true });
    const { router } = await renderRoutes(routes, '/signup');
    send();
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

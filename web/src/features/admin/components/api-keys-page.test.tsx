// Partner API keys: the keys with their accounts, those still working by default, the revoked
// ones or all (`?show=`); and Revoke (operators and owners only, on keys still working) with a
// required reason and its Idempotency-Key, the server's refusal shown, the list read again.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { ConsoleMe, PartnerApiKey } from '../types';
import { fakeApiKey, fakeConsole, operator, renderConsole } from '../test-support';

const KEYS = 'GET /api/admin/api-keys';
const REVOKE = 'POST /api/admin/api-keys/key_1/revoke';
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

const OLD_KEY = fakeApiKey({
  id: 'key_old',
  name: 'Old bot',
  permission: 'read',
  last_used_at: null,
  request_count: 0,
  revoked_at: 1_795_390_000,
  user_id: 'u_other',
  user_email: 'other@example.com',
});

function keysApi(me: ConsoleMe = operator(), routes = {}) {
  let keys: PartnerApiKey[] = [fakeApiKey(), OLD_KEY];
  return fakeConsole(me, {
    [KEYS]: (request) => {
      const { active } = query(request.url);
      const shown =
        active === undefined
          ? keys
          : keys.filter((key) => (key.revoked_at === null) === (active === 'true'));
      return json(200, shown);
    },
    [REVOKE]: () => {
      keys = keys.map((key) => (key.id === 'key_1' ? { ...key, revoked_at: 1_795_401_000 } : key));
      return json(200, { api_key: keys[0], audit_id: 50 });
    },
    ...routes,
  });
}

describe('the partner API keys page', () => {
  it('lists the keys still working with their accounts, and the others by filter', async () => {
    const api = keysApi(operator({ role: 'support' }));
    const { router } = await renderConsole('/admin/api-keys');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Partner API keys' }),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getByRole('link', { name: 'API keys' })).toHaveAttribute(
      'href',
      '/admin/api-keys',
    );
    const table = await screen.findByRole('table', {
      name: 'Partner API keys (Active), the most recently used first',
    });
    const [header, row, ...rest] = within(table).getAllByRole('row');
    expect(rest).toHaveLength(0);
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Name',
      'Key id',
      'Account',
      'Permission',
      'Created',
      'Last used',
      'Requests',
      'Status',
    ]);
    expect(within(row!).getByText('Shop integration')).toBeInTheDocument();
    expect(within(row!).getByText('key_1')).toBeInTheDocument();
    expect(within(row!).getByRole('link', { name: 'customer@example.com' })).toHaveAttribute(
      'href',
      '/admin/users/u_customer',
    );
    expect(within(row!).getByText('read_write')).toBeInTheDocument();
    expect(within(row!).getByText('1,234')).toBeInTheDocument();
    expect(within(row!).getByText('Active')).toBeInTheDocument();
    // Support reads; only an operator or owner revokes.
    expect(within(table).queryByRole('button')).toBeNull();
    expect(query(api.callsTo(KEYS)[0]?.url ?? '')).toEqual({ active: 'true' });

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'revoked' } });
    const revoked = await screen.findByRole('table', {
      name: 'Partner API keys (Revoked), the most recently used first',
    });
    expect(router.state.location.search).toBe('?show=revoked');
    expect(within(revoked).getByText('Old bot')).toBeInTheDocument();
    expect(within(revoked).getByText('Never')).toBeInTheDocument();
    expect(within(revoked).getByText(/^Revoked /)).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'all' } });
    const all = await screen.findByRole('table', {
      name: 'Partner API keys (All), the most recently used first',
    });
    expect(within(all).getAllByRole('row')).toHaveLength(3);
    expect(api.callsTo(KEYS).map((c) => query(c.url))).toEqual([
      { active: 'true' },
      { active: 'false' },
      {},
    ]);
  });

  it('revokes a key with a required reason and its Idempotency-Key, then reads the list again', async () => {
    const api = keysApi();
    await renderConsole('/admin/api-keys?show=all');
    const table = await screen.findByRole('table');
    // Only the key still working can be revoked.
    expect(
      within(table)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Revoke key_1']);

    fireEvent.click(within(table).getByRole('button', { name: 'Revoke key_1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API key Shop integration' });
    expect(dialog).toHaveAccessibleDescription(
      "customer@example.com's key stops working at once and for good: calls with it are refused. The partner can make a new key.",
    );
    const submit = within(dialog).getByRole('button', { name: 'Revoke key' });
    expect(submit).toHaveClass('bg-red-700');
    fireEvent.click(submit);
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    expect(api.callsTo(REVOKE)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: ' Leaked in a public repository ' },
    });
    fireEvent.click(submit);
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    expect(screen.getByText('Shop integration no longer works.')).toBeInTheDocument();
    const [call] = api.callsTo(REVOKE);
    expect(call?.body).toEqual({ reason: 'Leaked in a public repository' });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // Read again: revoked now, with nothing left to revoke.
    await waitFor(() => expect(within(table).queryByRole('button')).toBeNull());
    expect(within(table).getAllByText(/^Revoked /)).toHaveLength(2);
    expect(api.callsTo(KEYS)).toHaveLength(2);
  });

  it("shows the server's refusal of a key already revoked", async () => {
    keysApi(operator({ role: 'owner' }), {
      [REVOKE]: () => json(409, { error: 'The API key is already revoked' }),
    });
    await renderConsole('/admin/api-keys');
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke key_1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API key Shop integration' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Abuse' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await within(dialog).findByText('The API key is already revoked')).toBeInTheDocument();
    expect(within(dialog).getByText('The API key was not revoked.')).toBeInTheDocument();
  });

  it('says when there are no keys, or when they could not be loaded', async () => {
    fakeConsole(operator(), { [KEYS]: () => json(200, []) });
    const { unmount } = await renderConsole('/admin/api-keys');
    expect(await screen.findByText('No API keys here.')).toBeInTheDocument();
    unmount();

    fakeConsole(operator(), { [KEYS]: () => json(500, { error: 'internal error' }) });
    await renderConsole('/admin/api-keys');
    expect(await screen.findByText('The API keys could not be loaded.')).toBeInTheDocument();
  });
});

// One account in the back office: its facts, orders, sessions and API keys; and the acts on it
// (lock, unlock, sign out everywhere), offered only to an operator or owner, never on one's own
// account, an owner's only to an owner; each with a required reason and its Idempotency-Key.
// An operator or owner also revokes the account's API keys still working.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { ConsoleMe } from '../types';
import { fakeAccount, fakeConsole, fakeUser, operator, renderConsole } from '../test-support';

const USER = '/api/admin/users/u_customer';

async function actsFor(me: ConsoleMe, account = fakeAccount()) {
  fakeConsole(me, { [`GET ${USER}`]: () => json(200, account) });
  const { unmount } = await renderConsole('/admin/users/u_customer');
  const acts = await screen.findByRole('region', { name: 'Actions' });
  const buttons = within(acts)
    .queryAllByRole('button')
    .map((b) => b.textContent);
  const text = acts.textContent;
  unmount();
  return { buttons, text };
}

describe('the account page', () => {
  it("shows the account's facts, orders, sessions and API keys", async () => {
    fakeConsole(operator(), { [`GET ${USER}`]: () => json(200, fakeAccount()) });
    await renderConsole('/admin/users/u_customer');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Account customer@example.com' }),
    ).toBeInTheDocument();
    const facts = screen.getByRole('region', { name: 'Account' });
    expect(within(facts).getByText('Carol Customer')).toBeInTheDocument();
    expect(within(facts).getByText('u_customer')).toBeInTheDocument();

    const orders = screen.getByRole('table', { name: 'The newest orders of this account' });
    expect(within(orders).getByRole('link', { name: 'ABCDEFGHJKLMNPQR' })).toHaveAttribute(
      'href',
      '/admin/orders/ABCDEFGHJKLMNPQR',
    );
    const sessions = screen.getByRole('table', { name: 'Open sessions of this account' });
    expect(within(sessions).getByText('203.0.113.7')).toBeInTheDocument();
    const keys = screen.getByRole('table', { name: 'API keys of this account' });
    expect(within(keys).getByText('Shop integration')).toBeInTheDocument();
    expect(within(keys).getByText('1,234')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Audit log of this account' })).toHaveAttribute(
      'href',
      '/admin/audit?subject_kind=user&subject_id=u_customer',
    );
    expect(screen.queryByText(/Locked since/)).not.toBeInTheDocument();
  });

  it('offers the acts to an operator or owner only, never on their own account, and on an account with a role only to a role above it', async () => {
    expect((await actsFor(operator())).buttons).toEqual(['Lock account', 'Sign out everywhere']);

    const support = await actsFor(operator({ role: 'support' }));
    expect(support.buttons).toEqual([]);
    expect(support.text).toContain('an operator or an owner acts on them');

    const own = await actsFor(operator({ email: 'Customer@Example.com' }));
    expect(own.buttons).toEqual([]);
    expect(own.text).toContain('This is your own account');

    // An operator acts on support's account, not on another operator's nor an owner's.
    const supports = fakeAccount({ user: fakeUser({ role: 'support' }) });
    expect((await actsFor(operator(), supports)).buttons).toEqual([
      'Lock account',
      'Sign out everywhere',
    ]);
    const operators = fakeAccount({ user: fakeUser({ role: 'operator' }) });
    const onOperator = await actsFor(operator(), operators);
    expect(onOperator.buttons).toEqual([]);
    expect(onOperator.text).toContain('Only a role above Operator can act on this account.');
    const owners = fakeAccount({ user: fakeUser({ role: 'owner' }) });
    const onOwner = await actsFor(operator(), owners);
    expect(onOwner.buttons).toEqual([]);
    expect(onOwner.text).toContain('Only a role above Owner can act on this account.');

    // An owner acts on anyone else, owners too; so does the admin token.
    expect((await actsFor(operator({ role: 'owner' }), owners)).buttons).toEqual([
      'Lock account',
      'Sign out everywhere',
    ]);
    expect((await actsFor({ token: true, role: 'owner' }, owners)).buttons).toEqual([
      'Lock account',
      'Sign out everywhere',
    ]);
  });

  it('locks the account with a required reason and its Idempotency-Key, then reads it again', async () => {
    let locked: number | null = null;
    const api = fakeConsole(operator(), {
      [`GET ${USER}`]: () => json(200, fakeAccount({ user: fakeUser({ locked_at: locked }) })),
      [`POST ${USER}/lock`]: () => {
        locked = 1_795_401_000;
        return json(200, {
          user: fakeUser({ locked_at: locked }),
          api_keys_revoked: 2,
          audit_id: 12,
        });
      },
    });
    await renderConsole('/admin/users/u_customer');
    fireEvent.click(await screen.findByRole('button', { name: 'Lock account' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Lock account customer@example.com',
    });
    expect(dialog).toHaveAccessibleDescription(
      'Its sessions end at once, the links it was sent by e-mail stop working, and its API keys are revoked for good. No sign-in opens a session until the account is unlocked.',
    );
    const submit = within(dialog).getByRole('button', { name: 'Lock account' });
    expect(submit).toHaveClass('bg-red-700');
    fireEvent.click(submit);
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${USER}/lock`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: ' Card fraud reported ' },
    });
    fireEvent.click(submit);
    expect(await screen.findByText('Account locked')).toBeInTheDocument();
    expect(
      screen.getByText(
        'customer@example.com is signed out and cannot sign in. API keys revoked: 2.',
      ),
    ).toBeInTheDocument();
    const [call] = api.callsTo(`POST ${USER}/lock`);
    expect(call?.body).toEqual({ reason: 'Card fraud reported' });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // Read again: locked now, so the banner and Unlock.
    expect(
      await screen.findByText(/^Locked since .*: its sessions have ended/),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Unlock account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Lock account' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Lock account customer@example.com' }),
      ).toBeNull(),
    );
  });

  it('unlocks a locked account', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${USER}`]: () =>
        json(200, fakeAccount({ user: fakeUser({ locked_at: 1_795_401_000 }) })),
      [`POST ${USER}/unlock`]: () => json(200, { user: fakeUser() }),
    });
    await renderConsole('/admin/users/u_customer');
    expect(
      await screen.findByText(/^Locked since .*: its sessions have ended/),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent('Locked');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock account' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Unlock account customer@example.com',
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Customer proved who they are' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock account' }));
    expect(await screen.findByText('Account unlocked')).toBeInTheDocument();
    expect(api.callsTo(`POST ${USER}/unlock`).map((c) => c.body)).toEqual([
      { reason: 'Customer proved who they are' },
    ]);
  });

  it('signs the account out everywhere and says how many sessions ended', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${USER}`]: () => json(200, fakeAccount()),
      [`POST ${USER}/sign-out`]: () => json(200, { sessions_ended: 3 }),
    });
    await renderConsole('/admin/users/u_customer');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Sign customer@example.com out everywhere',
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Lost phone' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed out everywhere')).toBeInTheDocument();
    expect(screen.getByText('Sessions ended: 3.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${USER}/sign-out`)[0]?.headers.get('idempotency-key')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("shows the server's refusal for a role in its own words", async () => {
    fakeConsole(operator(), {
      [`GET ${USER}`]: () => json(200, fakeAccount({ user: fakeUser({ role: 'support' }) })),
      [`POST ${USER}/lock`]: () =>
        json(403, {
          error: 'Only a role above support may do this to a support',
          reason: 'role_required',
        }),
    });
    await renderConsole('/admin/users/u_customer');
    fireEvent.click(await screen.findByRole('button', { name: 'Lock account' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Lock account customer@example.com',
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Fraud' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lock account' }));
    expect(
      await within(dialog).findByText('Only a role above support may do this to a support'),
    ).toBeInTheDocument();
  });

  it('says when there is no such account', async () => {
    fakeConsole(operator(), {
      [`GET ${USER}`]: () => json(404, { error: 'No such account' }),
    });
    await renderConsole('/admin/users/u_customer');
    expect(await screen.findByText('There is no account u_customer.')).toBeInTheDocument();
  });

  it('revokes an API key of the account with a required reason, then reads the account again', async () => {
    let revoked: number | null = null;
    const account = () => {
      const view = fakeAccount();
      return {
        ...view,
        api_keys: [
          { ...view.api_keys[0]!, revoked_at: revoked },
          {
            id: 'key_2',
            name: 'Old bot',
            permission: 'read',
            created_at: 1_795_300_000,
            last_used_at: 1_795_310_000,
            request_count: 5,
            revoked_at: 1_795_320_000,
          },
        ],
      };
    };
    const api = fakeConsole(operator(), {
      [`GET ${USER}`]: () => json(200, account()),
      'POST /api/admin/api-keys/key_1/revoke': () => {
        revoked = 1_795_401_000;
        return json(200, {
          api_key: { ...account().api_keys[0], user_id: 'u_customer', user_email: 'x' },
          audit_id: 51,
        });
      },
    });
    await renderConsole('/admin/users/u_customer');
    const keys = await screen.findByRole('table', { name: 'API keys of this account' });
    // The account's own page has no account column; only the key still working has Revoke.
    expect(within(keys).queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(within(keys).getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    expect(
      within(keys)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Revoke']);

    fireEvent.click(within(keys).getByRole('button', { name: 'Revoke key_1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API key Shop integration' });
    expect(dialog).toHaveAccessibleDescription(/^customer@example\.com's key stops working/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Partner asked' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    const [call] = api.callsTo('POST /api/admin/api-keys/key_1/revoke');
    expect(call?.body).toEqual({ reason: 'Partner asked' });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // The account is read again: both keys revoked, nothing left to revoke.
    await waitFor(() => expect(within(keys).queryByRole('button')).toBeNull());
    expect(within(keys).getAllByText(/^Revoked /)).toHaveLength(2);
    expect(api.callsTo(`GET ${USER}`)).toHaveLength(2);
  });

  it('offers no Revoke to support', async () => {
    fakeConsole(operator({ role: 'support' }), { [`GET ${USER}`]: () => json(200, fakeAccount()) });
    await renderConsole('/admin/users/u_customer');
    const keys = await screen.findByRole('table', { name: 'API keys of this account' });
    expect(within(keys).getByText('Shop integration')).toBeInTheDocument();
    expect(within(keys).queryByRole('button')).toBeNull();
    expect(within(keys).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});

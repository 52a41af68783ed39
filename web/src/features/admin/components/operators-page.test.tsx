// Operators (owners only): the navigation offers the page to an owner alone; a role is given by
// e-mail address, changed, or taken away after a confirmation; the server's refusals read in its
// own words.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { Operator } from '../types';
import { fakeConsole, operator, renderConsole } from '../test-support';

const OWNER = operator({ role: 'owner' });

function operatorsApi(put: (body: unknown) => Response = (body) => json(200, body)) {
  let list: Operator[] = [
    { id: 'u1', email: 'ada@example.com', role: 'owner', two_factor: true },
    { id: 'u2', email: 'bob@example.com', role: 'support', two_factor: false },
  ];
  return fakeConsole(OWNER, {
    'GET /api/admin/operators': () => json(200, list),
    'PUT /api/admin/operators': (request) => {
      const answer = put(request.body);
      if (answer.ok) {
        const { email, role } = request.body as { email: string; role: Operator['role'] | null };
        list = list.filter((o) => o.email !== email);
        if (role) list = [...list, { id: 'u9', email, role, two_factor: true }];
      }
      return answer;
    },
  });
}

describe('the operators page', () => {
  it('is offered in the navigation to an owner only, and the audit log and payouts to an operator', async () => {
    const navFor = async (me: Parameters<typeof fakeConsole>[0]) => {
      fakeConsole(me, { 'GET /api/admin/users': () => json(200, { users: [], next: null }) });
      const { unmount } = await renderConsole('/admin/users');
      const nav = await screen.findByRole('navigation', { name: 'Back office' });
      const offered = ['Accounts', 'Payouts', 'Audit log', 'Operators'].filter((name) =>
        within(nav).queryByRole('link', { name }),
      );
      unmount();
      return offered;
    };
    expect(await navFor(operator({ role: 'support' }))).toEqual(['Accounts']);
    expect(await navFor(operator())).toEqual(['Accounts', 'Payouts', 'Audit log']);
    expect(await navFor(OWNER)).toEqual(['Accounts', 'Payouts', 'Audit log', 'Operators']);
    expect(await navFor({ token: true, role: 'owner' })).toEqual([
      'Accounts',
      'Payouts',
      'Audit log',
      'Operators',
    ]);
  });

  it('shows a non-owner who opens it that their role does not allow it, and asks nothing', async () => {
    const api = fakeConsole(operator());
    await renderConsole('/admin/operators');
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add operator' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/operators')).toHaveLength(0);
  });

  it('adds an operator by e-mail address and role', async () => {
    const api = operatorsApi();
    await renderConsole('/admin/operators');
    const table = await screen.findByRole('table', {
      name: 'People with a role in the back office',
    });
    expect(within(table).getByText('(you)')).toBeInTheDocument();
    expect(within(table).getByText('Off: cannot open the back office')).toBeInTheDocument();

    const form = screen.getByRole('region', { name: 'Add an operator' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add operator' }));
    expect(
      await within(form).findByText('Enter the e-mail address of an account.'),
    ).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/operators')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('E-mail address'), {
      target: { value: ' carol@example.com ' },
    });
    fireEvent.change(within(form).getByLabelText('Role'), { target: { value: 'operator' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add operator' }));
    expect(await screen.findByText('Operator added')).toBeInTheDocument();
    const [call] = api.callsTo('PUT /api/admin/operators');
    expect(call?.body).toEqual({ email: 'carol@example.com', role: 'operator' });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      await within(table).findByRole('combobox', { name: 'Role of carol@example.com' }),
    ).toHaveValue('operator');
    expect(within(form).getByLabelText('E-mail address')).toHaveValue('');
  });

  it("shows the server's refusal in its own words", async () => {
    operatorsApi(() =>
      json(409, { error: 'This account has not confirmed its e-mail address yet' }),
    );
    await renderConsole('/admin/operators');
    const form = await screen.findByRole('region', { name: 'Add an operator' });
    fireEvent.change(within(form).getByLabelText('E-mail address'), {
      target: { value: 'new@example.com' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add operator' }));
    expect(
      await within(form).findByText('This account has not confirmed its e-mail address yet'),
    ).toBeInTheDocument();
  });

  it('changes a role with the select and its Save button', async () => {
    const api = operatorsApi();
    await renderConsole('/admin/operators');
    const select = await screen.findByRole('combobox', { name: 'Role of bob@example.com' });
    const save = screen.getByRole('button', { name: 'Save role bob@example.com' });
    expect(save).toBeDisabled();
    fireEvent.change(select, { target: { value: 'operator' } });
    fireEvent.click(save);
    expect(await screen.findByText('Role saved')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/operators').map((c) => c.body)).toEqual([
      { email: 'bob@example.com', role: 'operator' },
    ]);
  });

  it('asks before it removes an operator, then sends no role', async () => {
    const api = operatorsApi((body) =>
      (body as { email: string }).email === 'ada@example.com'
        ? json(409, { error: 'This is the last owner: make another owner first' })
        : json(200, body),
    );
    await renderConsole('/admin/operators');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove bob@example.com' }));
    let dialog = await screen.findByRole('dialog', {
      name: 'Remove bob@example.com from the back office?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Remove bob@example.com from the back office?' }),
      ).toBeNull(),
    );
    expect(api.callsTo('PUT /api/admin/operators')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Remove bob@example.com' }));
    dialog = await screen.findByRole('dialog', {
      name: 'Remove bob@example.com from the back office?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed from the back office')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/operators').map((c) => c.body)).toEqual([
      { email: 'bob@example.com', role: null },
    ]);
    await waitFor(() => expect(screen.queryByText('bob@example.com')).toBeNull());

    // The last owner stays, in the server's words.
    fireEvent.click(screen.getByRole('button', { name: 'Remove ada@example.com' }));
    dialog = await screen.findByRole('dialog', {
      name: 'Remove ada@example.com from the back office?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(
      await within(dialog).findByText('This is the last owner: make another owner first'),
    ).toBeInTheDocument();
  });
});

// Payouts: the requests of a status (requested by default), and closing one: paid with the
// transaction that paid it, or rejected with a reason; once per dialog's Idempotency-Key. A
// locked account's request is held: rejected, never marked paid.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakePayout, operator, renderConsole } from '../test-support';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

function payoutsApi() {
  let closed = false;
  return fakeConsole(operator(), {
    'GET /api/admin/payouts': (request) =>
      json(
        200,
        query(request.url).status === 'requested'
          ? closed
            ? []
            : [fakePayout(), fakePayout({ id: 'po_2', tag: '7788', user_id: 'u_other' })]
          : [fakePayout({ status: 'paid', txid: '0xfeed', processed_at: 1_795_401_000 })],
      ),
    'POST /api/admin/payouts/po_1': () => {
      closed = true;
      return json(200, { id: 'po_1', status: 'paid', audit_id: 5 });
    },
  });
}

async function openAct(name: string) {
  fireEvent.click(await screen.findByRole('button', { name }));
}

describe('the payouts page', () => {
  it('lists the requested payouts first, each with its account, and the others by status', async () => {
    const api = payoutsApi();
    const { router } = await renderConsole('/admin/payouts');
    const table = await screen.findByRole('table', {
      name: 'Payouts (Requested), oldest first',
    });
    expect(query(api.callsTo('GET /api/admin/payouts')[0]?.url ?? '')).toEqual({
      status: 'requested',
    });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'u_partner' })).toHaveAttribute(
      'href',
      '/admin/users/u_partner',
    );
    expect(within(first!).getByText('$125.50')).toBeInTheDocument();
    expect(within(first!).getByText('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE')).toBeInTheDocument();
    expect(within(second!).getByText('Tag 7788')).toBeInTheDocument();
    expect(within(first!).getByRole('button', { name: 'Mark paid po_1' })).toBeInTheDocument();
    expect(within(first!).getByRole('button', { name: 'Reject po_1' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'paid' } });
    const paid = await screen.findByRole('table', { name: 'Payouts (Paid), oldest first' });
    expect(router.state.location.search).toBe('?status=paid');
    expect(within(paid).getByText('0xfeed')).toBeInTheDocument();
    expect(within(paid).queryByRole('button')).toBeNull();
  });

  it('requires a reason to reject, then rejects with it', async () => {
    const api = payoutsApi();
    await renderConsole('/admin/payouts');
    await openAct('Reject po_1');
    const dialog = await screen.findByRole('dialog', { name: 'Reject payout po_1' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/admin/payouts/po_1')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: " The address is an exchange's deposit " },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
    expect(await screen.findByText('Payout rejected')).toBeInTheDocument();
    const [call] = api.callsTo('POST /api/admin/payouts/po_1');
    expect(call?.body).toEqual({
      status: 'rejected',
      reason: "The address is an exchange's deposit",
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    // Read again: the request has left the list.
    expect(await screen.findByText('No payouts with this status.')).toBeInTheDocument();
  });

  it('requires the transaction id to mark a payout paid; the note is optional', async () => {
    const api = payoutsApi();
    await renderConsole('/admin/payouts');
    await openAct('Mark paid po_1');
    const dialog = await screen.findByRole('dialog', { name: 'Mark payout po_1 paid' });
    expect(dialog).toHaveAccessibleDescription(/Send \$125\.50 in USDT/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(
      await within(dialog).findByText('Enter the id of the transaction that paid it.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Transaction id')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/admin/payouts/po_1')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Transaction id'), {
      target: { value: ' 0xabc123 ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText('Payout marked paid')).toBeInTheDocument();
    const [call] = api.callsTo('POST /api/admin/payouts/po_1');
    expect(call?.body).toEqual({ status: 'paid', txid: '0xabc123' });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Mark payout po_1 paid' })).toBeNull(),
    );
  });

  it('sends the note with the payment when one is given', async () => {
    const api = payoutsApi();
    await renderConsole('/admin/payouts');
    await openAct('Mark paid po_1');
    const dialog = await screen.findByRole('dialog', { name: 'Mark payout po_1 paid' });
    fireEvent.change(within(dialog).getByLabelText('Transaction id'), {
      target: { value: '0xabc123' },
    });
    fireEvent.change(within(dialog).getByLabelText('Note (optional)'), {
      target: { value: 'Paid from the hot wallet' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText('Payout marked paid')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/payouts/po_1')[0]?.body).toEqual({
      status: 'paid',
      txid: '0xabc123',
      reason: 'Paid from the hot wallet',
    });
  });

  it("holds a locked account's request: a badge, no Mark paid, and Reject still offered", async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/payouts': () =>
        json(200, [
          fakePayout({ account_locked: true }),
          fakePayout({ id: 'po_2', user_id: 'u_other' }),
        ]),
      'POST /api/admin/payouts/po_1': () =>
        json(200, { id: 'po_1', status: 'rejected', audit_id: 6 }),
    });
    await renderConsole('/admin/payouts');
    const table = await screen.findByRole('table', {
      name: 'Payouts (Requested), oldest first',
    });
    const [, held, other] = within(table).getAllByRole('row');
    expect(within(held!).getByText('Held: account locked')).toBeInTheDocument();
    expect(
      within(held!).getByText('Unlock the account to pay it, or reject the request.'),
    ).toBeInTheDocument();
    expect(within(held!).queryByRole('button', { name: 'Mark paid po_1' })).toBeNull();
    expect(within(held!).getByRole('button', { name: 'Reject po_1' })).toBeInTheDocument();
    expect(within(other!).queryByText('Held: account locked')).toBeNull();
    expect(within(other!).getByRole('button', { name: 'Mark paid po_2' })).toBeInTheDocument();

    await openAct('Reject po_1');
    const dialog = await screen.findByRole('dialog', { name: 'Reject payout po_1' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Account locked for fraud' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
    expect(await screen.findByText('Payout rejected')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/payouts/po_1').map((c) => c.body)).toEqual([
      { status: 'rejected', reason: 'Account locked for fraud' },
    ]);
  });

  it("shows the server's refusal to pay a request whose account was locked meanwhile", async () => {
    fakeConsole(operator(), {
      'GET /api/admin/payouts': () => json(200, [fakePayout()]),
      'POST /api/admin/payouts/po_1': () =>
        json(409, { error: 'The account is locked: unlock it first, or reject the request' }),
    });
    await renderConsole('/admin/payouts');
    await openAct('Mark paid po_1');
    const dialog = await screen.findByRole('dialog', { name: 'Mark payout po_1 paid' });
    fireEvent.change(within(dialog).getByLabelText('Transaction id'), {
      target: { value: '0xabc123' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(
      await within(dialog).findByText(
        'The account is locked: unlock it first, or reject the request',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('The payout was not marked paid.')).toBeInTheDocument();
  });
});

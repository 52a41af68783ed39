// One order in the back office: its summary and timeline, notes, and the refund dialog with
// its required reason and its Idempotency-Key (the same on a retry, new with a new dialog).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { OrderView } from '../types';
import { fakeConsole, fakeOrder, operator, renderConsole } from '../test-support';

const ORDER = '/api/admin/orders/ABCDEFGHJKLMNPQR';

function view(overrides: Partial<OrderView> = {}): OrderView {
  return {
    order: fakeOrder(),
    timeline: [
      { kind: 'event', at: 1_795_400_000, status: 'NEW', detail: 'created' },
      {
        kind: 'audit',
        at: 1_795_400_700,
        action: 'order.note',
        actor: 'user:u2',
        actor_email: 'bob@example.com',
        actor_role: 'support',
        reason: 'Customer wrote in about the short deposit',
      },
      { kind: 'event', at: 1_795_400_600, status: 'EMERGENCY', detail: 'short deposit' },
    ],
    actions: ['note', 'refund'],
    ...overrides,
  };
}

async function openRefund() {
  fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
  return screen.findByRole('dialog', { name: 'Refund order ABCDEFGHJKLMNPQR' });
}

describe('the order page', () => {
  it('shows the summary and the timeline in time order, with who did what', async () => {
    fakeConsole(operator(), { [`GET ${ORDER}`]: () => json(200, view()) });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Order ABCDEFGHJKLMNPQR' }),
    ).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(within(summary).getByText('customer@example.com')).toBeInTheDocument();
    expect(
      within(summary).getByText('We received less than the order asked for.'),
    ).toBeInTheDocument();

    const timeline = within(screen.getByRole('region', { name: 'Timeline' })).getAllByRole(
      'listitem',
    );
    expect(timeline.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Status: Awaiting Deposit'),
      expect.stringContaining('Status: Action needed'),
      expect.stringMatching(/Note.*By bob@example\.com.*Support.*short deposit/),
    ]);
  });

  it('shows no Refund button when the order may not be refunded by this operator', async () => {
    fakeConsole(operator({ role: 'support' }), {
      [`GET ${ORDER}`]: () => json(200, view({ actions: ['note'] })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(await screen.findByRole('button', { name: 'Add note' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('adds a note, once per note, and refreshes the order', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, view()),
      [`POST ${ORDER}/notes`]: () => json(200, { audit_id: 7 }),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    fireEvent.click(await screen.findByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Write the note first.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${ORDER}/notes`)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Called the customer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Note added')).toBeInTheDocument();
    const [note] = api.callsTo(`POST ${ORDER}/notes`);
    expect(note?.body).toEqual({ text: 'Called the customer' });
    expect(note?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(api.callsTo(`GET ${ORDER}`)).toHaveLength(2));
    expect(screen.getByLabelText('Note')).toHaveValue('');
  });

  it('requires a reason (and an address the order lacks) before it asks to refund', async () => {
    const api = fakeConsole(operator(), { [`GET ${ORDER}`]: () => json(200, view()) });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openRefund();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the address the refund goes to.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(`POST ${ORDER}/refund`)).toHaveLength(0);
  });

  it('asks only for a reason when the order has its refund address', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(
          200,
          view({ order: fakeOrder({ refund_address: 'bc1qrefund000000000000000000000000000' }) }),
        ),
      [`POST ${ORDER}/refund`]: () => json(200, { audit_id: 9, order: fakeOrder() }),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openRefund();
    expect(within(dialog).queryByLabelText('Refund address (BTC)')).not.toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Customer asked by mail' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund requested')).toBeInTheDocument();
    expect(api.callsTo(`POST ${ORDER}/refund`).map((c) => c.body)).toEqual([
      { reason: 'Customer asked by mail' },
    ]);
  });

  it('sends the same Idempotency-Key when the same dialog retries, and a new one in a new dialog', async () => {
    let answers = [
      json(503, { error: 'internal error' }),
      json(409, { error: 'The order is not waiting for a decision' }),
      json(200, { audit_id: 9, order: fakeOrder({ emergency_choice: 'REFUND' }) }),
    ];
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, view()),
      [`POST ${ORDER}/refund`]: () => {
        const [answer, ...rest] = answers;
        answers = rest;
        return answer ?? json(500, {});
      },
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    let dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Short deposit, customer asked' },
    });
    fireEvent.change(within(dialog).getByLabelText('Refund address (BTC)'), {
      target: { value: 'bc1qrefund000000000000000000000000000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('The order was not refunded.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      await within(dialog).findByText('The order is not waiting for a decision'),
    ).toBeInTheDocument();

    // Closed and opened again: another dialog, another act.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Again' } });
    fireEvent.change(within(dialog).getByLabelText('Refund address (BTC)'), {
      target: { value: 'bc1qrefund000000000000000000000000000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund requested')).toBeInTheDocument();

    const calls = api.callsTo(`POST ${ORDER}/refund`);
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
    expect(calls[0]?.body).toEqual({
      reason: 'Short deposit, customer asked',
      address: 'bc1qrefund000000000000000000000000000',
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Refund order ABCDEFGHJKLMNPQR' })).toBeNull(),
    );
    await waitFor(() => expect(api.callsTo(`GET ${ORDER}`).length).toBeGreaterThan(1));
  });
});

// One order in the back office: its summary and timeline (each audited act named), notes, and
// the acts' dialogs (refund, refund address, look again, cancel), each shown only when listed,
// with its required reason and its Idempotency-Key (the same on a retry, new with a new dialog);
// and, for an order a provider fills, what that provider says of it, asked only on demand.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { formatTime } from '@/lib/format';
import { json } from '@/test/fake-api';

import type { OrderView } from '../types';
import { fakeConsole, fakeMessage, fakeOrder, operator, renderConsole } from '../test-support';

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
  it('keeps the refund toast when the refund takes its own button away', async () => {
    let refunded = false;
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(
          200,
          refunded
            ? view({
                order: fakeOrder({ emergency_choice: 'REFUND' }),
                actions: ['note', 'refund_address'],
              })
            : view(),
        ),
      [`POST ${ORDER}/refund`]: () => {
        refunded = true;
        return json(200, { audit_id: 9 });
      },
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Asked' } });
    fireEvent.change(within(dialog).getByLabelText('Refund address (BTC)'), {
      target: { value: 'bc1qrefund000000000000000000000000000' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Refund requested')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Refund order ABCDEFGHJKLMNPQR' })).toBeNull(),
    );
    // The order read again offers no refund any more.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument(),
    );
    expect(api.callsTo(`POST ${ORDER}/refund`)).toHaveLength(1);
  });

  it('keeps the refund address toast when the act takes its own button away', async () => {
    let saved = false;
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(200, view({ actions: saved ? ['note'] : ['note', 'refund_address'] })),
      [`PUT ${ORDER}/refund-address`]: () => {
        saved = true;
        return json(200, { order: fakeOrder() });
      },
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    fireEvent.click(await screen.findByRole('button', { name: 'Set refund address' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Set the refund address of order ABCDEFGHJKLMNPQR',
    });
    fireEvent.change(within(dialog).getByLabelText('Refund address (BTC)'), {
      target: { value: 'bc1qrefund000000000000000000000000000' },
    });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Asked' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save refund address' }));
    expect(await screen.findByText('Refund address saved')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Set refund address' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the contact messages linked to the order, answered or not', async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      [`GET ${ORDER}`]: () => json(200, view({ actions: ['note'] })),
      'GET /api/admin/contact-messages': () =>
        json(200, [
          fakeMessage({ order_id: 'ABCDEFGHJKLMNPQR' }),
          fakeMessage({
            id: 'msg_0',
            subject: 'Earlier question',
            order_id: 'ABCDEFGHJKLMNPQR',
            answered_at: 1_795_400_900,
            answered_by: 'user:u1',
          }),
        ]),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const section = await screen.findByRole('region', { name: 'Messages' });
    expect(within(section).getByRole('heading', { name: 'Where is my refund?' })).toBeVisible();
    expect(within(section).getByRole('heading', { name: 'Earlier question' })).toBeVisible();
    expect(within(section).getByRole('button', { name: /^Open again/ })).toBeInTheDocument();
    const query = new URL(api.callsTo('GET /api/admin/contact-messages')[0]?.url ?? '', 'http://x')
      .searchParams;
    expect(Object.fromEntries(query)).toEqual({ order_id: 'ABCDEFGHJKLMNPQR', limit: '50' });
  });

  it('shows no messages section when no message is linked to the order', async () => {
    const api = fakeConsole(operator(), { [`GET ${ORDER}`]: () => json(200, view()) });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(await screen.findByRole('region', { name: 'Timeline' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /api/admin/contact-messages')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Messages' })).not.toBeInTheDocument();
  });

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

/** The acts besides the refund: their button, dialog, call and answer. */
const ACTS = [
  {
    action: 'refund_address',
    button: 'Set refund address',
    dialog: 'Set the refund address of order ABCDEFGHJKLMNPQR',
    route: `PUT ${ORDER}/refund-address`,
    submit: 'Save refund address',
    fill: (dialog: HTMLElement) =>
      fireEvent.change(within(dialog).getByLabelText('Refund address (BTC)'), {
        target: { value: 'bc1qrefund000000000000000000000000000' },
      }),
    body: {
      reason: 'Customer wrote the address',
      address: 'bc1qrefund000000000000000000000000000',
    },
    done: 'Refund address saved',
  },
  {
    action: 'retry',
    button: 'Look again now',
    dialog: 'Look again at order ABCDEFGHJKLMNPQR now',
    route: `POST ${ORDER}/retry`,
    submit: 'Look again now',
    fill: () => {},
    body: { reason: 'Customer wrote the address' },
    done: 'The order is looked at again',
  },
  {
    action: 'cancel',
    button: 'Cancel order',
    dialog: 'Cancel order ABCDEFGHJKLMNPQR',
    route: `POST ${ORDER}/cancel`,
    submit: 'Cancel order',
    fill: () => {},
    body: { reason: 'Customer wrote the address' },
    done: 'Order cancelled',
  },
] as const;

async function openAct(button: string, dialog: string) {
  fireEvent.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: dialog });
}

describe("the order page's other acts", () => {
  it('shows a button for each act the server lists, and only for those', async () => {
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(200, view({ actions: ['note', 'refund', 'refund_address', 'retry', 'cancel'] })),
    });
    const { unmount } = await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const actions = await screen.findByRole('region', { name: 'Actions' });
    expect(
      (await within(actions).findAllByRole('button')).map((button) => button.textContent),
    ).toEqual(['Refund', 'Set refund address', 'Look again now', 'Cancel order']);
    expect(within(actions).getByRole('button', { name: 'Cancel order' })).toHaveClass('bg-red-700');
    unmount();

    for (const act of ACTS) {
      fakeConsole(operator(), {
        [`GET ${ORDER}`]: () => json(200, view({ actions: ['note', act.action] })),
      });
      const { unmount } = await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
      const actions = await screen.findByRole('region', { name: 'Actions' });
      expect(
        (await within(actions).findAllByRole('button')).map((button) => button.textContent),
      ).toEqual([act.button]);
      unmount();
    }

    fakeConsole(operator(), { [`GET ${ORDER}`]: () => json(200, view({ actions: ['note'] })) });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(
      await screen.findByText('There is nothing you can do to this order now.'),
    ).toBeInTheDocument();
    for (const act of ACTS) {
      expect(screen.queryByRole('button', { name: act.button })).not.toBeInTheDocument();
    }
  });

  it.each(ACTS)('requires a reason before it asks the server ($action)', async (act) => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, view({ actions: ['note', act.action] })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openAct(act.button, act.dialog);
    act.fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: act.submit }));
    expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAttribute('maxlength', '500');

    fireEvent.change(reason, { target: { value: 'x'.repeat(501) } });
    fireEvent.click(within(dialog).getByRole('button', { name: act.submit }));
    expect(
      await within(dialog).findByText('Keep the reason to 500 characters or fewer.'),
    ).toBeInTheDocument();
    expect(api.callsTo(act.route)).toHaveLength(0);
  });

  it.each(ACTS)(
    "sends its call once per dialog, the same Idempotency-Key on a retry, and shows the server's refusal ($action)",
    async (act) => {
      let answers = [
        json(409, { error: 'The order moved on meanwhile' }),
        json(200, { order: fakeOrder() }),
      ];
      const api = fakeConsole(operator(), {
        [`GET ${ORDER}`]: () => json(200, view({ actions: ['note', act.action] })),
        [act.route]: () => {
          const [answer, ...rest] = answers;
          answers = rest;
          return answer ?? json(500, {});
        },
      });
      await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
      await waitFor(() => expect(api.callsTo('GET /api/admin/queue')).toHaveLength(1));
      const dialog = await openAct(act.button, act.dialog);
      act.fill(dialog);
      fireEvent.change(within(dialog).getByLabelText('Reason'), {
        target: { value: '  Customer wrote the address ' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: act.submit }));
      expect(await within(dialog).findByText('The order moved on meanwhile')).toBeInTheDocument();

      fireEvent.click(within(dialog).getByRole('button', { name: act.submit }));
      expect(await screen.findByText(act.done)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog', { name: act.dialog })).toBeNull());

      const calls = api.callsTo(act.route);
      expect(calls).toHaveLength(2);
      expect(calls.map((c) => c.body)).toEqual([act.body, act.body]);
      const keys = calls.map((c) => c.headers.get('idempotency-key'));
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      // The order and the queue are read again.
      await waitFor(() => expect(api.callsTo(`GET ${ORDER}`).length).toBeGreaterThan(1));
      await waitFor(() => expect(api.callsTo('GET /api/admin/queue').length).toBeGreaterThan(1));

      // Opened again: another dialog, another act, another key.
      const again = await openAct(act.button, act.dialog);
      act.fill(again);
      fireEvent.change(within(again).getByLabelText('Reason'), {
        target: { value: 'Customer wrote the address' },
      });
      fireEvent.click(within(again).getByRole('button', { name: act.submit }));
      await waitFor(() => expect(api.callsTo(act.route)).toHaveLength(3));
      expect(api.callsTo(act.route)[2]?.headers.get('idempotency-key')).not.toBe(keys[0]);
    },
  );

  it('explains what cancelling does, and offers to keep the order', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(200, view({ order: fakeOrder({ status: 'NEW' }), actions: ['note', 'cancel'] })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openAct('Cancel order', 'Cancel order ABCDEFGHJKLMNPQR');
    expect(dialog).toHaveAccessibleDescription(
      'Only for an order still waiting for its deposit: it stops waiting. A deposit that arrives later still comes in, as a late deposit that needs a decision, so nothing sent is lost.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel order' })).toHaveClass('bg-red-700');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Cancel order ABCDEFGHJKLMNPQR' })).toBeNull(),
    );
    expect(api.callsTo(`POST ${ORDER}/cancel`)).toHaveLength(0);
  });

  it('explains what looking again does', async () => {
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(200, view({ order: fakeOrder({ status: 'SENDING' }), actions: ['note', 'retry'] })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openAct('Look again now', 'Look again at order ABCDEFGHJKLMNPQR now');
    expect(dialog).toHaveAccessibleDescription(/a look at the liquidity provider/);
  });

  it('changes a refund address from the one the order has, with its tag', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(
          200,
          view({
            order: fakeOrder({
              from_code: 'XRP',
              refund_address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
              refund_tag: '12345',
            }),
            actions: ['note', 'refund_address'],
          }),
        ),
      [`PUT ${ORDER}/refund-address`]: () => json(200, { order: fakeOrder() }),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const dialog = await openAct(
      'Change refund address',
      'Change the refund address of order ABCDEFGHJKLMNPQR',
    );
    const address = within(dialog).getByLabelText('Refund address (XRP)');
    expect(address).toHaveValue('rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY');
    expect(within(dialog).getByLabelText('Tag')).toHaveValue('12345');

    fireEvent.change(address, { target: { value: '' } });
    fireEvent.change(within(dialog).getByLabelText('Tag'), { target: { value: ' 67890 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save refund address' }));
    expect(await within(dialog).findByText('Enter the refund address.')).toBeInTheDocument();
    expect(within(dialog).getByText('Give a reason.')).toBeInTheDocument();

    fireEvent.change(address, { target: { value: 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Wrong tag' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save refund address' }));
    expect(await screen.findByText('Refund address saved')).toBeInTheDocument();
    expect(api.callsTo(`PUT ${ORDER}/refund-address`).map((c) => c.body)).toEqual([
      { reason: 'Wrong tag', address: 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH', tag: '67890' },
    ]);
  });

  it('names each act of the audit log, and shows an unknown one as the server wrote it', async () => {
    const audit = (action: string, at: number) => ({
      kind: 'audit' as const,
      at,
      action,
      actor: 'user:u1',
      actor_email: 'ada@example.com',
      actor_role: 'operator',
      reason: null,
    });
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () =>
        json(
          200,
          view({
            timeline: [
              audit('order.note', 1_795_400_001),
              audit('order.refund', 1_795_400_002),
              audit('order.refund.refused', 1_795_400_003),
              audit('order.refund_address', 1_795_400_004),
              audit('order.retry', 1_795_400_005),
              audit('order.cancel', 1_795_400_006),
              audit('order.deposit', 1_795_400_007),
              audit('order.expire', 1_795_400_008),
              audit('order.something_new', 1_795_400_009),
            ],
          }),
        ),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    const items = within(timeline).getAllByRole('listitem');
    const names = items.map((item) => item.querySelector('p')?.firstChild?.textContent);
    expect(names).toEqual([
      'Note',
      'Refund',
      'Refund refused by the liquidity provider',
      'Refund address set',
      'Looked at again',
      'Cancelled',
      'Simulated deposit (sandbox)',
      'Simulated expiry (sandbox)',
      'order.something_new',
    ]);
  });
});

/** An order a provider fills, and what that provider says of it. */
const UPSTREAM = `${ORDER}/upstream`;

const filled = (overrides: Partial<OrderView['order']> = {}) =>
  view({
    order: fakeOrder({
      provider: 'fixedfloat',
      provider_order_id: 'ABC123',
      status: 'FAILED',
      ...overrides,
    }),
  });

function upstreamAnswer(overrides: Record<string, unknown> = {}) {
  return {
    provider: 'fixedfloat',
    reference: 'ABC123',
    raw_status: 'EMERGENCY [LESS]',
    status: 'EMERGENCY',
    received: '0.05',
    to_amount: '3.1',
    paid_out: null,
    choice: 'REFUND',
    checked_at: 1_795_740_837,
    ...overrides,
  };
}

describe("the order page's look at the provider", () => {
  it('asks the provider only when the button is pressed, and shows what it says', async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      [`GET ${ORDER}`]: () => json(200, filled()),
      [`GET ${UPSTREAM}`]: () => json(200, upstreamAnswer()),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const section = await screen.findByRole('region', { name: 'At the provider' });
    // The page is all there (its messages were asked for), and the provider was not asked.
    await waitFor(() => expect(api.callsTo('GET /api/admin/contact-messages')).toHaveLength(1));
    expect(api.calls.filter((c) => c.path.endsWith('/upstream'))).toHaveLength(0);
    expect(within(section).queryByText('EMERGENCY [LESS]')).not.toBeInTheDocument();

    fireEvent.click(within(section).getByRole('button', { name: 'Ask the provider now' }));
    const raw = await within(section).findByText('EMERGENCY [LESS]');
    expect(raw).toHaveClass('font-mono');
    expect(api.calls.filter((c) => c.path.endsWith('/upstream')).map((c) => c.url)).toEqual([
      '/api/admin/orders/ABCDEFGHJKLMNPQR/upstream',
    ]);
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Ferry shows Failed; the provider says Action needed.',
    );
    expect(within(section).getByTestId('order-status')).toHaveTextContent('Action needed');
    const terms = within(section)
      .getAllByRole('term')
      .map((term) => term.textContent);
    const details = within(section)
      .getAllByRole('definition')
      .map((detail) => detail.textContent);
    expect(Object.fromEntries(terms.map((term, i) => [term, details[i]]))).toEqual({
      "Provider's status": 'EMERGENCY [LESS]',
      "In Ferry's terms": 'Action needed',
      Received: '0.05 BTC',
      'To receive': '3.1 ETH',
      'Paid out': 'Not set',
      'Decision known to the provider': 'Refund',
    });
    expect(
      within(section).getByText(`Asked at ${formatTime(1_795_740_837, 'en')}`),
    ).toBeInTheDocument();

    // Asked again only when pressed again.
    fireEvent.click(within(section).getByRole('button', { name: 'Ask the provider now' }));
    await waitFor(() => expect(api.callsTo(`GET ${UPSTREAM}`)).toHaveLength(2));
    expect(api.callsTo(`GET ${ORDER}`)).toHaveLength(1);
  });

  it('does not ask the provider when the order is read again', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, filled()),
      [`POST ${ORDER}/notes`]: () => json(200, { audit_id: 7 }),
      [`GET ${UPSTREAM}`]: () => json(200, upstreamAnswer()),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(await screen.findByRole('region', { name: 'At the provider' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Note'), { target: { value: 'Asked upstream' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Note added')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(`GET ${ORDER}`)).toHaveLength(2));
    expect(api.callsTo(`GET ${UPSTREAM}`)).toHaveLength(0);
  });

  it('says so when the provider agrees with Ferry', async () => {
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, filled({ status: 'SENDING' })),
      [`GET ${UPSTREAM}`]: () =>
        json(200, upstreamAnswer({ raw_status: 'EXCHANGE', status: 'SENDING', choice: null })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const section = await screen.findByRole('region', { name: 'At the provider' });
    fireEvent.click(within(section).getByRole('button', { name: 'Ask the provider now' }));
    expect(
      await within(section).findByText('The provider says the same as Ferry: Sending.'),
    ).toBeInTheDocument();
    expect(within(section).queryByText(/^Ferry shows/)).not.toBeInTheDocument();
  });

  it('shows a status Ferry does not know as the server wrote it', async () => {
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, filled()),
      [`GET ${UPSTREAM}`]: () =>
        json(200, upstreamAnswer({ raw_status: 'HOLD', status: 'ON_HOLD', choice: 'LATER' })),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const section = await screen.findByRole('region', { name: 'At the provider' });
    fireEvent.click(within(section).getByRole('button', { name: 'Ask the provider now' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Ferry shows Failed; the provider says ON_HOLD.',
    );
    expect(within(section).queryByTestId('order-status')).not.toBeInTheDocument();
    expect(within(section).getByText('ON_HOLD')).toHaveClass('font-mono');
    expect(within(section).getByText('LATER')).toBeInTheDocument();
  });

  it('has no section for an order the sandbox fills', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, view()),
      [`GET ${UPSTREAM}`]: () => json(200, upstreamAnswer()),
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    expect(await screen.findByRole('region', { name: 'Summary' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /api/admin/contact-messages')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'At the provider' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask the provider now' })).not.toBeInTheDocument();
    expect(api.callsTo(`GET ${UPSTREAM}`)).toHaveLength(0);
  });

  it('shows why the provider could not be asked', async () => {
    let answer = json(503, { error: 'fixedfloat is not answering' });
    fakeConsole(operator(), {
      [`GET ${ORDER}`]: () => json(200, filled()),
      [`GET ${UPSTREAM}`]: () => answer,
    });
    await renderConsole('/admin/orders/ABCDEFGHJKLMNPQR');
    const section = await screen.findByRole('region', { name: 'At the provider' });
    const ask = within(section).getByRole('button', { name: 'Ask the provider now' });
    fireEvent.click(ask);
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'The provider could not be asked.',
    );
    expect(within(section).queryByText('EMERGENCY [LESS]')).not.toBeInTheDocument();

    // A refusal (the sandbox fills it) says why.
    answer = json(404, { error: 'The sandbox fills this order: there is no upstream to ask' });
    await waitFor(() => expect(ask).toBeEnabled());
    fireEvent.click(ask);
    expect(
      await within(section).findByText('The sandbox fills this order: there is no upstream to ask'),
    ).toBeInTheDocument();
    expect(within(section).getByRole('alert')).toHaveTextContent(
      'The provider could not be asked.',
    );
  });
});

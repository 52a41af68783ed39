// Messages: the contact form's messages (waiting by default, answered, all), shown as plain
// text; marked answered or opened again, linked to an order (the server's refusal shown) or
// unlinked, each act with its Idempotency-Key; a page at a time; and the link in the navigation.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { ContactMessage } from '../types';
import { fakeConsole, fakeMessage, operator, renderConsole } from '../test-support';

const MESSAGES = '/api/admin/contact-messages';
const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the messages page', () => {
  it('lists the messages waiting for an answer, as plain text, with the link in the navigation', async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      [`GET ${MESSAGES}`]: () =>
        json(200, [
          fakeMessage({ user_id: 'u_customer' }),
          fakeMessage({
            id: 'msg_2',
            subject: 'Other',
            category: 'mystery',
            order_id: 'ORDER00000000001',
          }),
        ]),
    });
    const { container } = await renderConsole('/admin/messages');
    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getByRole('link', { name: 'Messages' })).toHaveAttribute(
      'href',
      '/admin/messages',
    );
    const list = await screen.findByRole('list', { name: 'Contact messages' });
    const [first, second] = within(list).getAllByRole('article');
    const one = within(first as HTMLElement);
    expect(one.getByRole('heading', { name: 'Where is my refund?' })).toBeInTheDocument();
    expect(one.getByText('From Carol Customer (customer@example.com)')).toBeInTheDocument();
    expect(one.getByText('Category: Billing')).toBeInTheDocument();
    expect(one.getByText('Waiting')).toBeInTheDocument();
    expect(one.getByRole('link', { name: "Sender's account" })).toHaveAttribute(
      'href',
      '/admin/users/u_customer',
    );
    // The text as typed: its markup is text, its line breaks kept.
    const text = one.getByText(/my order is stuck/);
    expect(text.textContent).toBe('Hello,\nmy order is stuck.\n<b>Thanks</b>');
    expect(text).toHaveClass('whitespace-pre-wrap');
    expect(container.querySelector('b')).toBeNull();
    expect(one.getByRole('button', { name: 'Mark answered Where is my refund?' })).toBeVisible();
    expect(one.getByRole('form', { name: 'Link to order Where is my refund?' })).toBeVisible();

    const two = within(second as HTMLElement);
    expect(two.getByText('Category: mystery')).toBeInTheDocument();
    expect(two.getByRole('link', { name: 'ORDER00000000001' })).toHaveAttribute(
      'href',
      '/admin/orders/ORDER00000000001',
    );
    expect(two.getByRole('button', { name: 'Unlink Other' })).toBeVisible();
    expect(query(api.callsTo(`GET ${MESSAGES}`)[0]?.url ?? '')).toEqual({
      answered: 'false',
      limit: '50',
    });
  });

  it('filters the answered messages and all of them', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${MESSAGES}`]: (request) =>
        json(
          200,
          query(request.url).answered === 'true'
            ? [fakeMessage({ answered_at: 1_795_400_900, answered_by: 'user:u1' })]
            : [],
        ),
    });
    await renderConsole('/admin/messages');
    expect(await screen.findByText('No message waits for an answer.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'answered' } });
    expect(
      await screen.findByRole('button', { name: 'Open again Where is my refund?' }),
    ).toBeVisible();
    expect(screen.getByText(/^Answered /)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'all' } });
    expect(await screen.findByText('No messages here.')).toBeInTheDocument();
    expect(api.callsTo(`GET ${MESSAGES}`).map((c) => query(c.url))).toEqual([
      { answered: 'false', limit: '50' },
      { answered: 'true', limit: '50' },
      { limit: '50' },
    ]);
  });

  it('marks a message answered, with its toast though it leaves the list', async () => {
    let answered = false;
    const api = fakeConsole(operator({ role: 'support' }), {
      [`GET ${MESSAGES}`]: () => json(200, answered ? [] : [fakeMessage()]),
      [`POST ${MESSAGES}/msg_1/answered`]: () => {
        answered = true;
        return json(200, fakeMessage({ answered_at: 1_795_400_900 }));
      },
    });
    await renderConsole('/admin/messages');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Mark answered Where is my refund?' }),
    );
    expect(await screen.findByText('Message marked answered')).toBeInTheDocument();
    expect(await screen.findByText('No message waits for an answer.')).toBeInTheDocument();
    const [call] = api.callsTo(`POST ${MESSAGES}/msg_1/answered`);
    expect(call?.body).toEqual({ answered: true });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    // The queue, where a waiting message puts its order, is read again.
    await waitFor(() => expect(api.callsTo('GET /api/admin/queue').length).toBeGreaterThan(1));
  });

  it('opens an answered message again', async () => {
    const api = fakeConsole(operator(), {
      [`GET ${MESSAGES}`]: () => json(200, [fakeMessage({ answered_at: 1_795_400_900 })]),
      [`POST ${MESSAGES}/msg_1/answered`]: () => json(200, fakeMessage()),
    });
    await renderConsole('/admin/messages?show=all');
    fireEvent.click(await screen.findByRole('button', { name: 'Open again Where is my refund?' }));
    expect(await screen.findByText('Message opened again')).toBeInTheDocument();
    expect(api.callsTo(`POST ${MESSAGES}/msg_1/answered`)[0]?.body).toEqual({ answered: false });
  });

  it("links a message to an order, showing the server's refusal, and unlinks it", async () => {
    let message: ContactMessage = fakeMessage();
    const api = fakeConsole(operator({ role: 'support' }), {
      [`GET ${MESSAGES}`]: () => json(200, [message]),
      [`PUT ${MESSAGES}/msg_1/order`]: (request) => {
        const { order_id } = request.body as { order_id: string | null };
        if (order_id === 'NOSUCHORDER00000') return json(404, { error: 'No such order' });
        message = fakeMessage({ order_id });
        return json(200, message);
      },
    });
    await renderConsole('/admin/messages');
    const form = await screen.findByRole('form', { name: 'Link to order Where is my refund?' });
    fireEvent.click(within(form).getByRole('button', { name: 'Link' }));
    expect(await within(form).findByText("Enter the order's id.")).toBeInTheDocument();
    expect(api.callsTo(`PUT ${MESSAGES}/msg_1/order`)).toHaveLength(0);

    const input = within(form).getByLabelText('Link to order');
    fireEvent.change(input, { target: { value: 'NOSUCHORDER00000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Link' }));
    expect(await within(form).findByText('No such order')).toBeInTheDocument();
    expect(within(form).getByText('The message could not be linked.')).toBeInTheDocument();

    fireEvent.change(input, { target: { value: ' ABCDEFGHJKLMNPQR ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Message linked to order ABCDEFGHJKLMNPQR')).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'ABCDEFGHJKLMNPQR' });
    expect(link).toHaveAttribute('href', '/admin/orders/ABCDEFGHJKLMNPQR');

    fireEvent.click(screen.getByRole('button', { name: 'Unlink Where is my refund?' }));
    expect(await screen.findByText('Message unlinked from its order')).toBeInTheDocument();
    expect(
      await screen.findByRole('form', { name: 'Link to order Where is my refund?' }),
    ).toBeInTheDocument();

    const calls = api.callsTo(`PUT ${MESSAGES}/msg_1/order`);
    expect(calls.map((c) => c.body)).toEqual([
      { order_id: 'NOSUCHORDER00000' },
      { order_id: 'ABCDEFGHJKLMNPQR' },
      { order_id: null },
    ]);
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(new Set(keys).size).toBe(3);
  });

  it('pages on from the last message of a full page', async () => {
    const page = Array.from({ length: 50 }, (_, i) =>
      fakeMessage({ id: `msg_${100 - i}`, created_at: 1_795_400_000 - i }),
    );
    const api = fakeConsole(operator(), {
      [`GET ${MESSAGES}`]: (request) =>
        json(200, query(request.url).before ? [fakeMessage({ subject: 'Older' })] : page),
    });
    await renderConsole('/admin/messages');
    fireEvent.click(await screen.findByRole('link', { name: 'Next page' }));
    expect(await screen.findByRole('heading', { name: 'Older' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Next page' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'First page' })).toHaveAttribute(
      'href',
      '/admin/messages',
    );
    expect(query(api.callsTo(`GET ${MESSAGES}`)[1]?.url ?? '')).toEqual({
      answered: 'false',
      before: '1795399951:msg_51',
      limit: '50',
    });
  });

  it('says when the messages could not be loaded', async () => {
    fakeConsole(operator(), { [`GET ${MESSAGES}`]: () => json(500, { error: 'internal error' }) });
    await renderConsole('/admin/messages');
    expect(await screen.findByText('The messages could not be loaded.')).toBeInTheDocument();
  });
});

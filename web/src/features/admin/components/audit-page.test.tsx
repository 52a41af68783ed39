// The audit log: its filters go to the server, into the address and into the CSV link; each
// entry says who did what to what, with the subject before and after as text, never as markup.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { auditEntry, fakeConsole, operator, renderConsole } from '../test-support';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);
const day = (y: number, m: number, d: number) => String(Date.UTC(y, m - 1, d) / 1000);

describe('the audit log page', () => {
  it('builds the CSV link and the call with the filters of the address', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/audit': () => json(200, { entries: [auditEntry()], next: null }),
    });
    await renderConsole(
      '/admin/audit?action=user.lock&subject_kind=user&subject_id=u_customer&from=2026-01-05&to=2026-01-06',
    );
    await screen.findByRole('table', { name: 'Audit log entries, newest first' });
    const filters = {
      action: 'user.lock',
      subject_kind: 'user',
      subject_id: 'u_customer',
      since: day(2026, 1, 5),
      // The last day is included: up to the start of the next.
      until: day(2026, 1, 7),
    };
    expect(query(api.callsTo('GET /api/admin/audit')[0]?.url ?? '')).toEqual({
      ...filters,
      limit: '50',
    });
    const csv = screen.getByRole('link', { name: 'Download CSV' });
    expect(csv).toHaveAttribute('download');
    const href = csv.getAttribute('href') ?? '';
    expect(href.split('?')[0]).toBe('/api/admin/audit.csv');
    expect(query(href)).toEqual(filters);

    // The form shows them.
    expect(screen.getByLabelText('Action')).toHaveValue('user.lock');
    expect(screen.getByLabelText('Subject')).toHaveValue('user');
    expect(screen.getByLabelText('Subject id')).toHaveValue('u_customer');
    expect(screen.getByLabelText('From (UTC day)')).toHaveValue('2026-01-05');
    expect(screen.getByLabelText('To (UTC day, included)')).toHaveValue('2026-01-06');
  });

  it('applies the filters chosen, and keeps them in the address and the CSV link', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/audit': () => json(200, { entries: [], next: null }),
    });
    const { router } = await renderConsole('/admin/audit');
    expect(await screen.findByText('The audit log is empty.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/admin/audit.csv',
    );

    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'order.refund' } });
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'order' } });
    fireEvent.change(screen.getByLabelText('Subject id'), { target: { value: ' ABC ' } });
    fireEvent.change(screen.getByLabelText('Actor'), { target: { value: 'token' } });
    fireEvent.change(screen.getByLabelText('From (UTC day)'), {
      target: { value: '2026-02-10' },
    });
    fireEvent.change(screen.getByLabelText('To (UTC day, included)'), {
      target: { value: '2026-02-01' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('The last day comes before the first.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');

    fireEvent.change(screen.getByLabelText('To (UTC day, included)'), {
      target: { value: '2026-02-10' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
    expect(router.state.location.search).toBe(
      '?action=order.refund&subject_kind=order&subject_id=ABC&actor=token&from=2026-02-10&to=2026-02-10',
    );
    const filters = {
      actor: 'token',
      action: 'order.refund',
      subject_kind: 'order',
      subject_id: 'ABC',
      since: day(2026, 2, 10),
      until: day(2026, 2, 11),
    };
    expect(query(api.callsTo('GET /api/admin/audit').at(-1)?.url ?? '')).toEqual({
      ...filters,
      limit: '50',
    });
    expect(
      query(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href') ?? ''),
    ).toEqual(filters);
  });

  it('shows who did what to what, with the before and after as text, never as markup', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/audit': () =>
        json(200, {
          entries: [
            auditEntry({
              reason: '<script>alert("reason")</script>',
              after: { status: 'EXPIRED', note: '<img src=x onerror=alert(1)>' },
            }),
            auditEntry({
              id: 40,
              actor: 'token',
              actor_email: null,
              actor_role: 'owner',
              action: 'user.lock',
              subject_kind: 'user',
              subject_id: 'u_customer',
              reason: 'Fraud',
              before: { locked_at: null },
              after: null,
            }),
            auditEntry({
              id: 39,
              action: 'operator.set',
              subject_kind: 'user',
              subject_id: 'bob@example.com',
              reason: null,
            }),
            auditEntry({
              id: 38,
              actor: 'cli',
              actor_email: null,
              actor_role: 'owner',
              action: 'payout.close',
              subject_kind: 'payout',
              subject_id: 'po_1',
            }),
          ],
          next: 38,
        }),
    });
    await renderConsole('/admin/audit');
    const table = await screen.findByRole('table', { name: 'Audit log entries, newest first' });
    const [, cancel, lock, role, payout] = within(table).getAllByRole('row');

    // The timeline's name of the act, and the actor with their role.
    expect(within(cancel!).getByText('Cancelled')).toBeInTheDocument();
    expect(within(cancel!).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(cancel!).getByText('Operator')).toBeInTheDocument();
    expect(within(cancel!).getByRole('link', { name: 'ABCDEFGHJKLMNPQR' })).toHaveAttribute(
      'href',
      '/admin/orders/ABCDEFGHJKLMNPQR',
    );
    expect(within(cancel!).getByText('198.51.100.4')).toBeInTheDocument();
    // Markup stays text.
    expect(within(cancel!).getByText('<script>alert("reason")</script>')).toBeInTheDocument();
    expect(table.querySelector('script, img')).toBeNull();
    fireEvent.click(within(cancel!).getByText('Before and after'));
    const [before, after] = within(cancel!).getAllByText(/"status"/);
    expect(before?.tagName).toBe('PRE');
    expect(before).toHaveTextContent('{ "status": "NEW" }');
    expect(after).toHaveTextContent('"note": "<img src=x onerror=alert(1)>"');

    // An act unnamed by the console reads as the server wrote it; the token and the command
    // line are named; an account links to its page, or, named by e-mail, to the accounts search.
    expect(within(lock!).getByText('user.lock')).toBeInTheDocument();
    expect(within(lock!).getByText('Admin token')).toBeInTheDocument();
    expect(within(lock!).getByRole('link', { name: 'u_customer' })).toHaveAttribute(
      'href',
      '/admin/users/u_customer',
    );
    expect(within(role!).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/admin/users?q=bob%40example.com',
    );
    expect(within(payout!).getByText('Command line')).toBeInTheDocument();
    expect(within(payout!).queryByRole('link')).toBeNull();

    expect(screen.getByRole('link', { name: 'Next page' })).toHaveAttribute(
      'href',
      '/admin/audit?before=38',
    );
  });

  it('names a partner API key as a subject, and offers it in the filter', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/audit': () =>
        json(200, {
          entries: [
            auditEntry({ action: 'api_key.revoke', subject_kind: 'api_key', subject_id: 'key_1' }),
          ],
          next: null,
        }),
    });
    await renderConsole('/admin/audit?subject_kind=api_key');
    const table = await screen.findByRole('table', { name: 'Audit log entries, newest first' });
    const [, revoke] = within(table).getAllByRole('row');
    expect(within(revoke!).getByText('API key')).toBeInTheDocument();
    expect(within(revoke!).getByText('key_1')).toBeInTheDocument();
    const kind = screen.getByLabelText('Subject');
    expect(kind).toHaveValue('api_key');
    expect(within(kind).getByRole('option', { name: 'API key' })).toHaveValue('api_key');
  });

  it("shows a refusal for the operator's role in the server's words", async () => {
    fakeConsole(operator({ role: 'support' }), {
      'GET /api/admin/audit': () =>
        json(403, {
          error: 'This needs the operator role; you are support',
          reason: 'role_required',
        }),
    });
    await renderConsole('/admin/audit');
    expect(
      await screen.findByText('This needs the operator role; you are support'),
    ).toBeInTheDocument();
  });
});

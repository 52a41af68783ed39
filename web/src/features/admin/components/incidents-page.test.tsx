// Incidents: the status page's incidents, newest first, with their updates; an operator or owner
// opens one and posts updates to those not resolved, each with its Idempotency-Key, the server's
// refusal shown; support reads only.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import type { ConsoleMe, Incident } from '../types';
import { fakeConsole, fakeIncident, operator, renderConsole } from '../test-support';

const INCIDENTS = 'GET /api/admin/incidents';
const OPEN = 'POST /api/admin/incidents';
const UPDATE = 'POST /api/admin/incidents/inc-1a2b3c4d/updates';

const RESOLVED = fakeIncident({
  id: 'inc-00000001',
  title: 'Emails delayed',
  description: 'Order e-mails arrive late.',
  status: 'resolved',
  created_at: 1_795_300_000,
  updated_at: 1_795_303_600,
  updates: [
    { status: 'investigating', message: 'Order e-mails arrive late.', created_at: 1_795_300_000 },
    { status: 'resolved', message: 'The mail queue is empty again.', created_at: 1_795_303_600 },
  ],
});

function incidentsApi(me: ConsoleMe = operator(), routes = {}) {
  let incidents: Incident[] = [fakeIncident(), RESOLVED];
  return fakeConsole(me, {
    [INCIDENTS]: () => json(200, incidents),
    [OPEN]: (request) => {
      const { title, description } = request.body as { title: string; description: string };
      incidents = [
        fakeIncident({ id: 'inc-new00001', title, description, updates: [] }),
        ...incidents,
      ];
      return json(200, { id: 'inc-new00001', audit_id: 40 });
    },
    [UPDATE]: (request) => {
      const { status, message } = request.body as { status: string; message: string };
      incidents = incidents.map((incident) =>
        incident.id === 'inc-1a2b3c4d'
          ? {
              ...incident,
              status,
              updated_at: 1_795_401_000,
              updates: [...incident.updates, { status, message, created_at: 1_795_401_000 }],
            }
          : incident,
      );
      return json(200, { id: 'inc-1a2b3c4d', status, audit_id: 41 });
    },
    ...routes,
  });
}

describe('the incidents page', () => {
  it('lists the incidents newest first with their status, times and updates; support reads only', async () => {
    const api = incidentsApi(operator({ role: 'support' }));
    await renderConsole('/admin/incidents');
    expect(await screen.findByRole('heading', { level: 1, name: 'Incidents' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getByRole('link', { name: 'Incidents' })).toHaveAttribute(
      'href',
      '/admin/incidents',
    );
    const list = await screen.findByRole('list', { name: 'Incidents' });
    const [open, resolved] = within(list).getAllByRole('article');
    expect(open).toHaveAccessibleName('Slow Bitcoin deposits');
    expect(resolved).toHaveAccessibleName('Emails delayed');

    const one = within(open!);
    expect(one.getAllByText('Investigating')).toHaveLength(2);
    expect(one.getByText(/^Opened /)).toHaveAttribute('dateTime', '2026-11-23T02:13:20.000Z');
    expect(one.getByText(/^Last update /)).toBeInTheDocument();

    const two = within(resolved!);
    expect(two.getAllByText('Resolved')).toHaveLength(2);
    const updates = two.getByRole('list', { name: 'Updates of Emails delayed' });
    expect(
      within(updates)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Investigating.*Order e-mails arrive late\.$/),
      expect.stringMatching(/^Resolved.*The mail queue is empty again\.$/),
    ]);

    // Support reads; no form to open one or post an update.
    expect(screen.queryByRole('region', { name: 'Open an incident' })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open incident' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Post update' })).toBeNull();
    expect(api.callsTo(INCIDENTS)).toHaveLength(1);
  });

  it('opens an incident with a title and a description, then reads the list again', async () => {
    const api = incidentsApi();
    await renderConsole('/admin/incidents');
    const form = await screen.findByRole('region', { name: 'Open an incident' });
    fireEvent.click(within(form).getByRole('button', { name: 'Open incident' }));
    expect(await within(form).findByText('Give the incident a title.')).toBeInTheDocument();
    expect(within(form).getByText('Describe what customers notice.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(OPEN)).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Title'), {
      target: { value: ' Ethereum payouts paused ' },
    });
    fireEvent.change(within(form).getByLabelText('Description'), {
      target: { value: 'Payouts in ETH wait.\nDeposits are safe.' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Open incident' }));
    expect(await screen.findByText('Incident opened')).toBeInTheDocument();
    const [call] = api.callsTo(OPEN);
    expect(call?.body).toEqual({
      title: 'Ethereum payouts paused',
      description: 'Payouts in ETH wait.\nDeposits are safe.',
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // Read again: the new incident comes first; the form is empty for the next one.
    const list = screen.getByRole('list', { name: 'Incidents' });
    await waitFor(() =>
      expect(within(list).getAllByRole('article')[0]).toHaveAccessibleName(
        'Ethereum payouts paused',
      ),
    );
    expect(within(form).getByLabelText('Title')).toHaveValue('');
    expect(within(form).getByLabelText('Description')).toHaveValue('');
  });

  it('posts an update with a status and a message to an incident not resolved', async () => {
    const api = incidentsApi(operator({ role: 'owner' }));
    await renderConsole('/admin/incidents');
    const form = await screen.findByRole('form', {
      name: 'Post an update to Slow Bitcoin deposits',
    });
    // A resolved incident takes no more updates.
    expect(screen.queryByRole('form', { name: 'Post an update to Emails delayed' })).toBeNull();
    const status = within(form).getByLabelText('Status');
    expect(status).toHaveValue('investigating');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Investigating', 'Identified', 'Monitoring', 'Resolved']);

    fireEvent.click(within(form).getByRole('button', { name: 'Post update' }));
    expect(await within(form).findByText('Write the update.')).toBeInTheDocument();
    expect(api.callsTo(UPDATE)).toHaveLength(0);

    fireEvent.change(status, { target: { value: 'identified' } });
    fireEvent.change(within(form).getByLabelText('Message'), {
      target: { value: ' A node fell behind; it is catching up. ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Post update' }));
    expect(await screen.findByText('Update posted')).toBeInTheDocument();
    expect(screen.getByText('Slow Bitcoin deposits: Identified.')).toBeInTheDocument();
    const [call] = api.callsTo(UPDATE);
    expect(call?.body).toEqual({
      status: 'identified',
      message: 'A node fell behind; it is catching up.',
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    // Read again: the update is listed and the incident's status changed.
    expect(await screen.findByText('A node fell behind; it is catching up.')).toBeInTheDocument();
    const article = screen.getByRole('article', { name: 'Slow Bitcoin deposits' });
    // Its status badge, and the new update's.
    expect(within(article).getAllByText('Identified', { selector: 'span' })).toHaveLength(2);
    const updates = within(article).getByRole('list', {
      name: 'Updates of Slow Bitcoin deposits',
    });
    expect(within(updates).getAllByRole('listitem').at(-1)).toHaveTextContent(
      /^Identified.*A node fell behind; it is catching up\.$/,
    );
  });

  it('takes the form away once an update resolves the incident, the toast still showing', async () => {
    const api = incidentsApi();
    await renderConsole('/admin/incidents');
    const form = await screen.findByRole('form', {
      name: 'Post an update to Slow Bitcoin deposits',
    });
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'resolved' } });
    fireEvent.change(within(form).getByLabelText('Message'), {
      target: { value: 'Deposits are confirmed as usual again.' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Post update' }));
    expect(await screen.findByText('Slow Bitcoin deposits: Resolved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(api.callsTo(UPDATE).map((c) => c.body)).toEqual([
      { status: 'resolved', message: 'Deposits are confirmed as usual again.' },
    ]);
  });

  it("shows the server's refusal in its own words", async () => {
    incidentsApi(operator(), {
      [UPDATE]: () => json(404, { error: 'no incident inc-1a2b3c4d' }),
      [OPEN]: () => json(400, { error: 'Give a title of 1 to 200 characters' }),
    });
    await renderConsole('/admin/incidents');
    const form = await screen.findByRole('form', {
      name: 'Post an update to Slow Bitcoin deposits',
    });
    fireEvent.change(within(form).getByLabelText('Message'), { target: { value: 'Still slow.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Post update' }));
    expect(await within(form).findByText('no incident inc-1a2b3c4d')).toBeInTheDocument();
    expect(within(form).getByText('The update was not posted.')).toBeInTheDocument();

    const open = screen.getByRole('region', { name: 'Open an incident' });
    fireEvent.change(within(open).getByLabelText('Title'), { target: { value: 'Down' } });
    fireEvent.change(within(open).getByLabelText('Description'), {
      target: { value: 'Nothing works.' },
    });
    fireEvent.click(within(open).getByRole('button', { name: 'Open incident' }));
    expect(
      await within(open).findByText('Give a title of 1 to 200 characters'),
    ).toBeInTheDocument();
    expect(within(open).getByText('The incident was not opened.')).toBeInTheDocument();
  });

  it('says when there are no incidents, or when they could not be loaded', async () => {
    fakeConsole(operator(), { [INCIDENTS]: () => json(200, []) });
    const { unmount } = await renderConsole('/admin/incidents');
    expect(await screen.findByText('No incidents have been reported.')).toBeInTheDocument();
    unmount();

    fakeConsole(operator(), { [INCIDENTS]: () => json(500, { error: 'internal error' }) });
    await renderConsole('/admin/incidents');
    expect(await screen.findByText('The incidents could not be loaded.')).toBeInTheDocument();
  });
});

// "Needs a person": the counts with their thresholds, the orders with why they wait, the empty
// queue, the count in the navigation, and reads of the queue that do not keep the console open.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakeQueue, operator, queueRow, renderConsole } from '../test-support';

const HOURS_AGO = (hours: number) => Math.floor(Date.now() / 1000) - hours * 3600;

describe('the queue page', () => {
  it('lists the orders that need a person, why, and links to each', async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      'GET /api/admin/queue': () =>
        json(
          200,
          fakeQueue({
            counts: { emergency: 1, stuck: 1, failed: 1, messages: 1 },
            orders: [
              queueRow({
                id: 'EMERGENCY0000000',
                open_message: true,
                waiting_since: HOURS_AGO(5),
              }),
              queueRow({
                id: 'STUCK00000000000',
                status: 'SENDING',
                reason: 'stuck',
                emergency_reason: null,
                waiting_since: HOURS_AGO(3),
              }),
              queueRow({
                id: 'FAILED0000000000',
                status: 'FAILED',
                reason: 'failed',
                emergency_reason: null,
                waiting_since: HOURS_AGO(1),
              }),
              queueRow({
                id: 'MESSAGE000000000',
                status: 'COMPLETED',
                reason: 'message',
                open_message: true,
                emergency_reason: null,
                waiting_since: HOURS_AGO(0.5),
              }),
            ],
          }),
        ),
    });
    await renderConsole('/admin/queue');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Needs a person' }),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', {
      name: 'Orders that need a person, the longest waiting first',
    });
    const [, ...rows] = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);

    const [emergency, stuck, failed, message] = rows.map((row) => within(row));
    expect(emergency?.getByRole('link', { name: 'EMERGENCY0000000' })).toHaveAttribute(
      'href',
      '/admin/orders/EMERGENCY0000000',
    );
    expect(emergency?.getByText('Waiting for a decision')).toBeInTheDocument();
    expect(emergency?.getByText('We received less than the order asked for.')).toBeInTheDocument();
    expect(emergency?.getByText('Action needed')).toBeInTheDocument();
    expect(emergency?.getByText('5 hours ago')).toBeInTheDocument();
    expect(emergency?.getByText('BTC to ETH')).toBeInTheDocument();

    expect(stuck?.getByRole('link', { name: 'STUCK00000000000' })).toHaveAttribute(
      'href',
      '/admin/orders/STUCK00000000000',
    );
    expect(stuck?.getByText('Stuck')).toBeInTheDocument();
    expect(stuck?.getByText('Sending')).toBeInTheDocument();
    expect(stuck?.getByText('3 hours ago')).toBeInTheDocument();

    // The reason and the status both say "Failed".
    expect(failed?.getAllByText('Failed')).toHaveLength(2);
    expect(failed?.getByText('1 hour ago')).toBeInTheDocument();
    expect(failed?.queryByText('Message waiting')).not.toBeInTheDocument();

    // A message waits about the order in EMERGENCY, and about the one listed only for it.
    expect(emergency?.getByText('Message waiting')).toBeInTheDocument();
    expect(message?.getByRole('link', { name: 'MESSAGE000000000' })).toHaveAttribute(
      'href',
      '/admin/orders/MESSAGE000000000',
    );
    expect(message?.getByText('Unanswered message')).toBeInTheDocument();
    expect(message?.getByText('Message waiting')).toBeInTheDocument();
    expect(message?.getByText('30 minutes ago')).toBeInTheDocument();

    // The counts, with the server's thresholds in words.
    expect(screen.getByTestId('queue-count-emergency')).toHaveTextContent('1');
    expect(
      screen.getByText('Confirming, exchanging or sending, with no change for 2 hr or more.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Failed within the last 7 days.')).toBeInTheDocument();
    expect(screen.getByTestId('queue-count-message')).toHaveTextContent('1');
    expect(
      screen.getByText(
        'Listed only because a contact message about the order waits for an answer.',
      ),
    ).toBeInTheDocument();
    expect(new URL(api.callsTo('GET /api/admin/queue')[0]?.url ?? '', 'http://x').search).toBe(
      '?limit=100',
    );
  });

  it('says when nothing needs a person', async () => {
    fakeConsole(operator());
    await renderConsole('/admin/queue');
    expect(await screen.findByText('Nothing needs a person right now.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByTestId('queue-count-stuck')).toHaveTextContent('0');
  });

  it('says how many are listed when more wait than the page holds', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/queue': () =>
        json(
          200,
          fakeQueue({
            counts: { emergency: 150, stuck: 0, failed: 0, messages: 0 },
            orders: [queueRow({ id: 'FIRST00000000000' }), queueRow({ id: 'SECOND0000000000' })],
          }),
        ),
    });
    await renderConsole('/admin/queue');
    expect(
      await screen.findByText('The 2 orders waiting longest are listed, of 150.'),
    ).toBeInTheDocument();
  });

  it('says when the queue could not be loaded', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/queue': () => json(500, { error: 'internal error' }),
    });
    await renderConsole('/admin/queue');
    expect(await screen.findByText('The queue could not be loaded.')).toBeInTheDocument();
  });

  it('shows in the navigation how many orders need a person', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/queue': () =>
        json(200, fakeQueue({ counts: { emergency: 2, stuck: 1, failed: 0, messages: 2 } })),
    });
    await renderConsole('/admin/orders');
    const nav = await screen.findByRole('navigation', { name: 'Back office' });
    const link = await within(nav).findByRole('link', {
      name: 'Needs a person, orders waiting: 5',
    });
    expect(link).toHaveAttribute('href', '/admin/queue');
    expect(within(link).getByText('5')).toBeVisible();
  });

  it('reads the queue as a background call, which keeps neither the console nor its countdown going', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/queue': () =>
        json(200, fakeQueue({ counts: { emergency: 1, stuck: 0, failed: 0, messages: 0 } })),
    });
    await renderConsole('/admin/queue');
    expect(await screen.findByTestId('queue-count-emergency')).toHaveTextContent('1');
    const reads = api.callsTo('GET /api/admin/queue');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read.headers.get('x-ferry-background')).toBe('1');
    // Any other console call is use: its answer moves the idle countdown, read again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('GET /api/admin/console/me')).toHaveLength(1);
  });

  it('sends the background header with the navigation count too', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/orders': () => json(200, { orders: [], next: null }),
    });
    await renderConsole('/admin/orders');
    expect(await screen.findByText('There are no orders yet.')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /api/admin/queue').length).toBeGreaterThan(0));
    expect(
      api.callsTo('GET /api/admin/queue').map((read) => read.headers.get('x-ferry-background')),
    ).toEqual(api.callsTo('GET /api/admin/queue').map(() => '1'));
    expect(api.callsTo('GET /api/admin/orders')[0]?.headers.get('x-ferry-background')).toBeNull();
  });
});

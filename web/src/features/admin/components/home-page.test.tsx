// The console's home: the counts of the queue, each a way to it, the last 30 days in figures and
// the liquidity providers' health, all as the server gave them.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json } from '@/test/fake-api';

import { fakeConsole, fakeQueue, fakeStats, operator, renderConsole } from '../test-support';

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the home page', () => {
  it('shows the counts of the queue, each linking to it, and the figures of 30 days', async () => {
    const api = fakeConsole(operator(), {
      'GET /api/admin/queue': () =>
        json(200, fakeQueue({ counts: { emergency: 2, stuck: 1, failed: 4, messages: 3 } })),
      'GET /api/admin/stats': () =>
        json(
          200,
          fakeStats({
            days: [
              { day: '2026-11-23', orders: 6, completed: 4, volume_usd: '1234.5' },
              { day: '2026-11-25', orders: 4, completed: 3, volume_usd: '100' },
            ],
            completion_seconds: { count: 7, p50: 600, p90: 5400, p99: 45 },
            deposited: 8,
            emergency: 2,
            refunded: 1,
          }),
        ),
    });
    await renderConsole('/admin');
    const queue = await screen.findByRole('region', { name: 'Needs a person' });
    // The role and what it allows read as two sentences.
    expect(
      screen.getByText(/^Your role: Operator\. You can search orders, read them/),
    ).toBeInTheDocument();
    const waiting = await within(queue).findByRole('link', { name: /^Waiting for a decision 2/ });
    expect(waiting).toHaveAttribute('href', '/admin/queue');
    expect(within(queue).getByRole('link', { name: /^Stuck 1/ })).toHaveAttribute(
      'href',
      '/admin/queue',
    );
    expect(within(queue).getByRole('link', { name: /^Failed 4/ })).toHaveAttribute(
      'href',
      '/admin/queue',
    );
    // The orders listed only because a contact message about them waits.
    const messages = within(queue).getByRole('link', { name: /^Unanswered message 3/ });
    expect(messages).toHaveAttribute('href', '/admin/queue');
    expect(messages).toHaveTextContent(
      'Listed only because a contact message about the order waits for an answer.',
    );
    expect(screen.getByTestId('home-queue-message')).toHaveTextContent('3');
    // The navigation counts them all.
    expect(
      screen.getByRole('link', { name: 'Needs a person, orders waiting: 10' }),
    ).toBeInTheDocument();

    const stats = await screen.findByRole('region', { name: 'Last 30 days' });
    expect(await within(stats).findByText('$1,334.50')).toBeInTheDocument();
    expect(
      within(stats).getByText('Orders made since November 23, 2026 (UTC days, today included).'),
    ).toBeInTheDocument();
    expect(within(stats).getByText('10')).toBeInTheDocument();
    expect(within(stats).getByText('10 min')).toBeInTheDocument();
    expect(within(stats).getByText('1.5 hr')).toBeInTheDocument();
    expect(within(stats).getByText('45 sec')).toBeInTheDocument();
    // Shares of the 8 orders with a deposit.
    expect(screen.getByTestId('home-emergency-share')).toHaveTextContent('25%');
    expect(screen.getByTestId('home-refund-share')).toHaveTextContent('12.5%');
    expect(within(stats).getByText('2 of 8')).toBeInTheDocument();

    const days = within(stats).getByRole('table', {
      name: 'Orders by day (UTC); days without orders are left out',
    });
    const [, ...rows] = within(days).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'November 23, 202664$1,234.50',
      'November 25, 202643$100.00',
    ]);
    expect(query(api.callsTo('GET /api/admin/stats')[0]?.url ?? '')).toEqual({ days: '30' });
  });

  it('shows a dash for the shares when no deposit arrived', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/stats': () => json(200, fakeStats({ emergency: 0, refunded: 0 })),
    });
    await renderConsole('/admin');
    const stats = await screen.findByRole('region', { name: 'Last 30 days' });
    expect(await within(stats).findByTestId('home-emergency-share')).toHaveTextContent('—');
    expect(screen.getByTestId('home-refund-share')).toHaveTextContent('—');
    expect(within(stats).getAllByText('No deposit arrived in this period.')).toHaveLength(2);
    expect(within(stats).getByText('No order was completed in this period.')).toBeInTheDocument();
    expect(within(stats).getByText('No orders were made in this period.')).toBeInTheDocument();
    expect(within(stats).queryByRole('table')).not.toBeInTheDocument();
    // Every count of an empty queue is 0.
    const queue = screen.getByRole('region', { name: 'Needs a person' });
    expect(within(queue).getAllByRole('link')).toHaveLength(4);
    expect(screen.getByTestId('home-queue-emergency')).toHaveTextContent('0');
  });

  it('says when the figures could not be loaded, and still shows the rest', async () => {
    fakeConsole(operator(), {
      'GET /api/admin/stats': () => json(500, { error: 'internal error' }),
    });
    await renderConsole('/admin');
    expect(await screen.findByText('The figures could not be loaded.')).toBeInTheDocument();
    const providers = screen.getByRole('region', { name: 'Provider health' });
    expect(
      within(providers).getByText("The providers' health could not be loaded."),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome to the back office' })).toBeInTheDocument();
    expect(await screen.findByTestId('home-queue-stuck')).toHaveTextContent('0');
  });

  it("shows the providers' health: status in words, latency and uptime of 30 days", async () => {
    const api = fakeConsole(operator({ role: 'support' }), {
      'GET /api/admin/stats': () =>
        json(
          200,
          fakeStats({
            providers: [
              {
                key: 'provider:sandbox',
                name: 'Sandbox',
                status: 'operational',
                latency_ms: 120,
                uptime: 99.95,
              },
              {
                key: 'provider:changenow',
                name: 'ChangeNOW',
                status: 'degraded',
                latency_ms: 2350,
                uptime: 97.5,
              },
              {
                key: 'provider:simpleswap',
                name: 'SimpleSwap',
                status: 'outage',
                latency_ms: null,
                uptime: null,
              },
            ],
          }),
        ),
    });
    await renderConsole('/admin');
    const section = await screen.findByRole('region', { name: 'Provider health' });
    const table = await within(section).findByRole('table', {
      name: 'Liquidity providers as last checked, with their uptime over the last 30 days',
    });
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Provider', 'Status', 'Latency', 'Uptime (30 days)']);
    expect(rows.map((row) => row.textContent)).toEqual([
      'SandboxOperational120 ms99.95%',
      'ChangeNOWDegraded2,350 ms97.5%',
      'SimpleSwapOutageNot measured yetNot measured yet',
    ]);
    // The same answer as the figures: asked once.
    expect(api.callsTo('GET /api/admin/stats')).toHaveLength(1);
  });

  it('says when no provider has been checked yet', async () => {
    fakeConsole(operator(), { 'GET /api/admin/stats': () => json(200, fakeStats()) });
    await renderConsole('/admin');
    const section = await screen.findByRole('region', { name: 'Provider health' });
    expect(
      await within(section).findByText('No liquidity provider has been checked yet.'),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('table')).toBeNull();
  });
});

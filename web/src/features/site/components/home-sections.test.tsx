// The trust section says only what is true: the server's figures or none, "24/7" only when the
// operator says so, their own support hours otherwise.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { initI18n, loadTexts } from '@/lib/i18n';
import { siteConfigQueryOptions, type SiteConfig } from '@/lib/site-config';
import { fakeApi, json } from '@/test/fake-api';

import HomeSections from './home-sections';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

afterEach(() => vi.unstubAllGlobals());

const config: SiteConfig = {
  site_name: 'Ferry',
  support_email: 'support@ferry.local',
  company_name: 'Ferry',
  company_address: null,
  presale_url: null,
  public_url: 'http://localhost',
  fees: { float_percent: '0.5', fixed_percent: '1.0' },
  languages: ['en'],
  default_language: 'en',
  sandbox: false,
  trusted_since: 2024,
  support_hours: null,
  support_always_open: false,
};

function renderHome(
  settings: Partial<SiteConfig>,
  stats: { completed_orders: number; volume_usd: string },
) {
  fakeApi({
    'GET /api/site-stats': () => json(200, stats),
    'GET /api/recent-transactions': () => json(200, []),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(siteConfigQueryOptions().queryKey, { ...config, ...settings });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <HomeSections />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the trust section', () => {
  it('claims no figure and no years of trust on an exchange with no completed order', async () => {
    renderHome({}, { completed_orders: 0, volume_usd: '0' });
    expect(
      await screen.findByRole('heading', { name: 'How Ferry keeps your swap safe' }),
    ).toBeInTheDocument();
    await screen.findByText('No completed exchanges yet.');
    expect(screen.queryByText(/Trusted since/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('site-stats')).not.toBeInTheDocument();
  });

  it("shows the server's figures, in the reader's format", async () => {
    renderHome({}, { completed_orders: 12345, volume_usd: '1045910.4' });
    expect(await screen.findByTestId('site-stats')).toHaveTextContent(
      'Exchanges completed: 12,345 · swapped in all: $1,045,910',
    );
    expect(screen.getByRole('heading', { name: 'Trusted since 2024' })).toBeInTheDocument();
  });

  it('says 24/7 only when the operator does, and their hours otherwise', async () => {
    renderHome(
      { support_hours: 'Mon–Fri 9:00–20:00 EST' },
      { completed_orders: 0, volume_usd: '0' },
    );
    const trust = await screen.findByRole('region', { name: 'How Ferry keeps your swap safe' });
    expect(within(trust).getByRole('heading', { name: 'Help and support' })).toBeInTheDocument();
    expect(trust).toHaveTextContent('Our team answers Mon–Fri 9:00–20:00 EST');
    expect(trust).not.toHaveTextContent('24/7');
  });

  it('says 24/7 when the operator runs support around the clock', async () => {
    renderHome({ support_always_open: true }, { completed_orders: 0, volume_usd: '0' });
    expect(await screen.findByRole('heading', { name: '24/7 support' })).toBeInTheDocument();
  });
});

// What the converter and the currency picker say while waiting and when a call fails.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { initI18n, loadTexts } from '@/lib/i18n';
import { fakeApi, json } from '@/test/fake-api';

import { resetQuoteClient } from '../api/get-quote';
import { STARTING_CURRENCIES } from '../lib/starting-currencies';
import ConvertPage from './convert-page';
import { CurrencyPicker } from './currency-picker';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

afterEach(() => {
  vi.unstubAllGlobals();
  resetQuoteClient();
});

describe('the converter', () => {
  it('says the rate could not be had instead of "…" for ever', async () => {
    const usdt = { ...STARTING_CURRENCIES[0]!, code: 'USDTTRC', coin: 'USDT', network: 'TRX' };
    fakeApi({
      'GET /api/available-currencies': () => json(200, [...STARTING_CURRENCIES, usdt]),
      'POST /api/exchange-rate': () => json(400, { code: 400, error: 'Unknown currency BTC' }),
    });
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <MemoryRouter>
          <ConvertPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('converted')).toHaveTextContent('…');
    expect(
      await screen.findByText('Could not get a rate right now. Please try again in a moment.'),
    ).toBeInTheDocument();
  });
});

describe('the currency picker', () => {
  it('says it is loading while the list loads, not that nothing was found', async () => {
    render(
      <CurrencyPicker
        label="You send"
        value={undefined}
        currencies={undefined}
        onChange={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /^You send:/ }));
    expect(await screen.findByText('Loading currencies…')).toBeInTheDocument();
    expect(screen.queryByText('No cryptocurrency found.')).not.toBeInTheDocument();
  });
});

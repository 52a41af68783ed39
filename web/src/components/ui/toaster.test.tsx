import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { initI18n } from '@/lib/i18n';

import { dismissToast, notify, Toaster } from './toaster';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  act(() => dismissToast());
  vi.useRealTimers();
});

describe('toasts (spec/exchange.md §9: one at a time)', () => {
  it('shows only the newest toast, with its description', () => {
    render(<Toaster />);
    act(() => {
      notify('Address pasted');
      notify('Order ID copied', { description: 'Copied to the clipboard' });
    });
    expect(screen.getByText('Order ID copied')).toBeVisible();
    expect(screen.getByText('Copied to the clipboard')).toBeVisible();
    expect(screen.queryByText('Address pasted')).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-toast]')).toHaveLength(1);
  });

  it('announces failures as alerts and goes away by itself', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => notify('Failed to create order', { variant: 'destructive' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to create order');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('dismisses a toast when its cause is gone, but never a newer one', () => {
    render(<Toaster />);
    let first = 0;
    act(() => {
      first = notify('Amount exceeds maximum', { variant: 'destructive' });
    });
    act(() => dismissToast(first));
    expect(screen.queryByText('Amount exceeds maximum')).not.toBeInTheDocument();
    act(() => {
      first = notify('Exchange rate error', { variant: 'destructive' });
      notify('Address pasted');
    });
    act(() => dismissToast(first));
    expect(screen.getByText('Address pasted')).toBeVisible();
  });
});

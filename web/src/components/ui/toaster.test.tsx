import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { notify, Toaster } from './toaster';

describe('toasts (spec/exchange.md §9: one at a time)', () => {
  it('shows only the newest toast', async () => {
    render(<Toaster />);
    act(() => {
      notify('Address pasted');
      notify('Order ID copied', { description: 'Copied to the clipboard' });
    });
    expect(await screen.findByText('Order ID copied')).toBeVisible();
    const visible = document.querySelectorAll('[data-sonner-toast][data-visible="true"]');
    expect(visible).toHaveLength(1);
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { initI18n, loadTexts } from '@/lib/i18n';

import { CopyButton } from './copy-button';
import { dismissToast, Toaster } from './toaster';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

afterEach(() => {
  act(() => dismissToast());
  vi.unstubAllGlobals();
});

function clipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
}

function renderButton() {
  render(
    <>
      <CopyButton value="s3cr3t" what="API secret" successMessage="Secret copied" />
      <Toaster />
    </>,
  );
}

describe('the copy button', () => {
  it('copies, says so, and is named "Copied" for a moment', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    clipboard(writeText);
    renderButton();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy API secret' })));
    expect(writeText).toHaveBeenCalledWith('s3cr3t');
    expect(screen.getByText('Secret copied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('says when copying failed, and how to copy by hand (never "Paste failed")', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    clipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    renderButton();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy API secret' })));
    expect(screen.getByRole('alert')).toHaveTextContent('Copy failed');
    expect(screen.getByRole('alert')).toHaveTextContent('Select the text and copy it by hand.');
    expect(screen.queryByText(/Paste failed/)).not.toBeInTheDocument();
    expect(screen.queryByText('Secret copied')).not.toBeInTheDocument();
  });

  it('fails loudly where there is no clipboard at all (an insecure page)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    renderButton();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy API secret' })));
    expect(screen.getByRole('alert')).toHaveTextContent('Copy failed');
  });
});

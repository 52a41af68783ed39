// The scanner waits 0.8 s after a detection before it fills the address (spec/exchange.md §9);
// closing it meanwhile must not fill the address later.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { initI18n, loadTexts } from '@/lib/i18n';

import QrScannerDialog from './qr-scanner-dialog';

vi.mock('jsqr', () => ({
  default: () => ({ data: 'bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa?amount=1' }),
}));

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages']);
});

beforeEach(() => {
  vi.useFakeTimers();
  // A camera that always shows a QR code.
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: {
      getUserMedia: () => Promise.resolve({ getTracks: () => [{ stop() {} }] }),
    },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage() {},
    getImageData: () => ({ data: new Uint8ClampedArray(4) }),
  } as unknown as CanvasRenderingContext2D);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the QR scanner', () => {
  it('fills the address, without its coin prefix and query, 0.8 s after a detection', async () => {
    const onScan = vi.fn();
    render(<QrScannerDialog onScan={onScan} onClose={() => {}} />);
    await pass(125);
    expect(screen.getByRole('button', { name: 'Start Scanning' })).toBeInTheDocument();
    await pass(700);
    expect(onScan).not.toHaveBeenCalled();
    await pass(200);
    expect(onScan).toHaveBeenCalledExactlyOnceWith('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
  });

  it('fills nothing when closed during the pause after a detection', async () => {
    const onScan = vi.fn();
    const { unmount } = render(<QrScannerDialog onScan={onScan} onClose={() => {}} />);
    await pass(125);
    unmount();
    await pass(2000);
    expect(onScan).not.toHaveBeenCalled();
  });
});

// The QR scanner with Chromium's fake camera showing 'bitcoin:ADDRESS?amount=1'.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';

import { writeQrVideo } from './fake-camera';
import { ADDRESSES } from './support';

const video = join(mkdtempSync(join(tmpdir(), 'ferry-camera-')), 'qr.y4m');
writeQrVideo(video, `bitcoin:${ADDRESSES.BTC_LEGACY}?amount=1`);

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  },
});

test('scanning a coin URI fills the address without its prefix and query', async ({ page }) => {
  await page.goto('/exchange/eth-btc');
  await page.getByRole('button', { name: 'Scan QR code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scan QR Code' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Switch Camera' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Stop Scanning' })).toBeVisible();
  await expect(page.getByLabel('Destination address')).toHaveValue(ADDRESSES.BTC_LEGACY, { timeout: 15_000 });
  await expect(page.getByText('QR code scanned')).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

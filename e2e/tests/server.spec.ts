// What the binary itself promises over HTTP: precompressed immutable assets, a never-cached app
// shell, JSON for unknown API paths, health and metrics.
import { expect, test } from '@playwright/test';

import { METRICS_TOKEN } from './support';

test('hashed assets are served precompressed with an immutable cache', async ({ request }) => {
  const shell = await request.get('/');
  expect(shell.headers()['cache-control']).toBe('no-cache');
  const html = await shell.text();
  const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
  expect(script, 'index.html names its entry script').toBeTruthy();

  for (const [encoding, expected] of [
    ['br', 'br'],
    ['gzip', 'gzip'],
  ] as const) {
    const asset = await request.get(script!, { headers: { 'accept-encoding': encoding } });
    expect(asset.status()).toBe(200);
    expect(asset.headers()['content-encoding']).toBe(expected);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers()['content-type']).toContain('javascript');
    expect(asset.headers()['vary']).toContain('Accept-Encoding');
  }
  const identity = await request.get(script!, { headers: { 'accept-encoding': 'identity' } });
  expect(identity.headers()['content-encoding']).toBeUndefined();

  const etag = identity.headers()['etag'];
  const again = await request.get(script!, {
    headers: { 'accept-encoding': 'identity', 'if-none-match': etag! },
  });
  expect(again.status()).toBe(304);
});

test('client routes fall back to the app shell, with the first screen where one was prerendered', async ({
  request,
}) => {
  const page = await request.get('/exchange/btc-eth');
  expect(page.status()).toBe(200);
  expect(page.headers()['content-type']).toContain('text/html');
  expect(page.headers()['content-encoding']).toBe('gzip');
  expect(await page.text()).toContain('<div id="root" data-prerendered="en"><div');
  const signUp = await request.get('/signup');
  expect(signUp.status()).toBe(200);
  expect(await signUp.text()).toContain('<div id="root"></div>');

  // Prerendered pages are rendered once per language and served from memory, compressed or not.
  const plain = await request.get('/markets/?lang=de', { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  const markets = await plain.text();
  expect(markets).toContain('<html lang="de"');
  expect(markets).toContain('<div id="root" data-prerendered="de">');
  const gzipped = await request.get('/markets?lang=de');
  expect(gzipped.headers()['content-encoding']).toBe('gzip');
  expect(await gzipped.text()).toBe(markets);
  const unknownPair = await request.get('/exchange/btc-nothing');
  expect(unknownPair.status()).toBe(404);
  expect(await unknownPair.text()).toContain('<div id="root"></div>');
});

test('every kind of page of the app answers 200, and only unknown paths 404', async ({ request }) => {
  for (const path of ['/', '/track', '/contact', '/order/ABCDEFGHJKLMNPQR', '/exchange/btc-eth']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).toContain('<div id="root"');
  }
  expect((await request.get('/no-such-page')).status()).toBe(404);
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/track</loc>');
});

test('unknown API paths are JSON 404s, never the app shell', async ({ request }) => {
  const response = await request.get('/api/nope');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(await response.json()).toMatchObject({ code: 404, error: 'Not found' });
});

test('health, readiness and metrics answer', async ({ request }) => {
  expect((await request.get('/healthz')).status()).toBe(200);
  expect(await (await request.get('/readyz')).json()).toEqual({ status: 'ready' });
  // Metrics are for the operator's scraper: a bearer of its token.
  expect((await request.get('/metrics')).status()).toBe(404);
  const metrics = await request.get('/metrics', {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(metrics.status()).toBe(200);
  expect(await metrics.text()).toContain('http_requests_total');
});

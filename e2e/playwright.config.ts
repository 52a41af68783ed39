// End-to-end tests: the real release binary with its embedded app, in Debian's Chromium.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defineConfig, devices } from '@playwright/test';

import { ADMIN_TOKEN, METRICS_TOKEN } from './tests/support';

// Chosen once in the main process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(18080 + Math.floor(Math.random() * 1000));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'ferry-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// The SMTP server the mails go to, and a stand-in OAuth provider for GitHub sign-in.
process.env.E2E_SMTP_PORT ??= String(port + 1000);
process.env.E2E_OAUTH_PORT ??= String(port + 2000);
process.env.E2E_MAIL_DIR ??= join(dataDir, 'received-mail');
const oauth = `http://127.0.0.1:${process.env.E2E_OAUTH_PORT}`;
// A second Ferry that fills its orders at three fake upstreams (routing.spec.ts).
process.env.E2E_ROUTED_PORT ??= String(port + 3000);
process.env.E2E_UPSTREAMS_PORT ??= String(port + 3001);
const upstreams = Number(process.env.E2E_UPSTREAMS_PORT);
const fake = (offset: number) => `http://127.0.0.1:${upstreams + offset}`;
mkdirSync(join(dataDir, 'routed'), { recursive: true });

export default defineConfig({
  testDir: './tests',
  globalTeardown: './global-teardown.ts',
  timeout: 30_000,
  expect: { timeout: 7_500 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: [
    {
      command: 'node servers/fake-upstreams.mjs',
      port: upstreams + 2,
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      command: `exec ../target/release/ferry serve 2>>"${join(dataDir, 'ferry-routed.log')}"`,
      url: `http://127.0.0.1:${process.env.E2E_ROUTED_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'ignore',
      env: {
        FERRY_LISTEN: `127.0.0.1:${process.env.E2E_ROUTED_PORT}`,
        FERRY_DATA_DIR: join(dataDir, 'routed'),
        FERRY_PUBLIC_URL: `http://127.0.0.1:${process.env.E2E_ROUTED_PORT}`,
        FERRY_ADMIN_TOKEN: ADMIN_TOKEN,
        FERRY_PROVIDERS: 'cheapnow,dearnow,sideshift',
        FERRY_CHEAPNOW_API: 'changenow',
        FERRY_CHEAPNOW_URL: fake(0),
        FERRY_CHEAPNOW_KEY: 'e2e-cn-key',
        FERRY_DEARNOW_API: 'changenow',
        FERRY_DEARNOW_URL: fake(1),
        FERRY_DEARNOW_KEY: 'e2e-cn-key',
        FERRY_SIDESHIFT_URL: fake(2),
        FERRY_SIDESHIFT_KEY: 'e2eaffiliate',
        FERRY_SIDESHIFT_SECRET: 'e2e-ss-secret',
        FERRY_PROVIDER_POLL_SECONDS: '1',
        FERRY_WORKER_INTERVAL_MS: '200',
        FERRY_ORDER_RATE_PER_MINUTE: '10000',
      },
    },
    {
      command: 'node servers/smtp-sink.mjs',
      port: Number(process.env.E2E_SMTP_PORT),
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      command: 'node servers/oauth-provider.mjs',
      port: Number(process.env.E2E_OAUTH_PORT),
      reuseExistingServer: false,
      stdout: 'ignore',
    },
    {
      // The log goes to a file that the teardown searches for secrets the tests used.
      command: `exec ../target/release/ferry serve 2>>"${join(dataDir, 'ferry.log')}"`,
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'ignore',
      env: {
        FERRY_LISTEN: `127.0.0.1:${port}`,
        FERRY_DATA_DIR: dataDir,
        FERRY_PUBLIC_URL: baseURL,
        FERRY_ADMIN_TOKEN: ADMIN_TOKEN,
        FERRY_LOG_FORMAT: 'json',
        // Every request is logged, so the teardown's search for secrets has something to read.
        FERRY_LOG: 'info,ferry::http::edge=debug',
        // Orders step through the sandbox quickly so a test can watch one complete.
        FERRY_SANDBOX_STEP_SECONDS: '1',
        FERRY_WORKER_INTERVAL_MS: '200',
        // Every test's browser comes from 127.0.0.1: one client making many orders and accounts.
        FERRY_ORDER_RATE_PER_MINUTE: '10000',
        FERRY_REGISTER_RATE_PER_HOUR: '10000',
        FERRY_METRICS_TOKEN: METRICS_TOKEN,
        FERRY_SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        FERRY_MAIL_RETRY_SECONDS: '1',
        FERRY_GITHUB_CLIENT_ID: 'e2e-client',
        FERRY_GITHUB_CLIENT_SECRET: 'e2e-secret',
        FERRY_OAUTH_ENDPOINTS_OVERRIDE: `${oauth}/authorize,${oauth}/token,${oauth}/user`,
      },
    },
  ],
});

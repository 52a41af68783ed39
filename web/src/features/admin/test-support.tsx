// The back office under test: the app's providers, English texts, a signed-in operator and a
// fake server (`fakeApi` routes on top of the console's own).
import { act } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';

import { dismissToast, Toaster } from '@/components/ui/toaster';
import { initI18n, loadTexts } from '@/lib/i18n';
import { fakeApi, type Handler, json } from '@/test/fake-api';
import { page, renderRoutes } from '@/test/render';

import AdminApp from './components/admin-app';
import { consoleOpenUntil } from './lib/console-lock';
import type {
  AccountView,
  AuditLogEntry,
  ConsoleCurrency,
  ConsoleMe,
  ContactMessage,
  Incident,
  OrderDetail,
  OrderRow,
  PartnerApiKey,
  Payout,
  Queue,
  QueueRow,
  Stats,
  UserRow,
} from './types';

beforeAll(async () => {
  await initI18n('en');
  await loadTexts(['pages', 'admin']);
});

afterEach(() => {
  act(() => dismissToast());
  // The lock lives beside the app, as in a tab: each test starts with a locked console.
  consoleOpenUntil(null);
  vi.unstubAllGlobals();
});

export const IN_AN_HOUR = () => Math.floor(Date.now() / 1000) + 3600;

export function operator(overrides: Partial<Extract<ConsoleMe, { token: false }>> = {}): ConsoleMe {
  return {
    token: false,
    email: 'ada@example.com',
    role: 'operator',
    two_factor: true,
    unlocked_until: IN_AN_HOUR(),
    idle_seconds: 900,
    ...overrides,
  };
}

export function fakeConsole(me: ConsoleMe | null, routes: Record<string, Handler> = {}) {
  localStorage.setItem('signedIn', '1');
  return fakeApi({
    'GET /api/user': () =>
      json(200, { id: 'u1', username: 'ada@example.com', email_verified: true }),
    'GET /api/admin/console/me': () => (me ? json(200, me) : json(404, { error: 'Not found' })),
    // The navigation's count and the home page's figures: nothing waits, nothing happened.
    'GET /api/admin/queue': () => json(200, fakeQueue()),
    'GET /api/admin/stats': () => json(200, fakeStats()),
    // No contact messages (the order page asks for its own).
    'GET /api/admin/contact-messages': () => json(200, []),
    ...routes,
  });
}

export function renderConsole(path: string) {
  return renderRoutes(
    [
      {
        path: '/admin/*',
        element: (
          <>
            <AdminApp />
            <Toaster />
          </>
        ),
      },
      { path: '/signin', element: page('Sign-in page') },
      { path: '/profile', element: page('Profile page') },
    ],
    path,
  );
}

export function fakeOrder(overrides: Partial<OrderDetail> = {}): OrderDetail {
  return {
    id: 'ABCDEFGHJKLMNPQR',
    status: 'EMERGENCY',
    created_at: 1_795_400_000,
    updated_at: 1_795_400_600,
    from_code: 'BTC',
    to_code: 'ETH',
    from_amount: '0.01',
    to_amount: '0.40334444',
    rate_type: 'fixed',
    provider: 'sandbox',
    deposit_address: 'bc1qdeposit00000000000000000000000000000',
    deposit_tag: null,
    to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    to_tag: null,
    emergency_reason: 'LESS',
    emergency_choice: null,
    received_amount: '0.008',
    payout_amount: null,
    refund_address: null,
    refund_tag: null,
    owner_email: 'customer@example.com',
    api_key_id: null,
    notify_email: null,
    provider_order_id: null,
    expires_at: 1_795_401_800,
    finished_at: null,
    transactions: { deposit: { id: 'txdeposit1', amount: '0.008', at: 1_795_400_500 } },
    ...overrides,
  };
}

export function fakeQueue(overrides: Partial<Queue> = {}): Queue {
  return {
    counts: { emergency: 0, stuck: 0, failed: 0, messages: 0 },
    stuck_after_seconds: 7200,
    failed_within_seconds: 7 * 86_400,
    orders: [],
    ...overrides,
  };
}

/** An order of the queue: by default the EMERGENCY order of `fakeOrder`, as a row. */
export function queueRow(overrides: Partial<QueueRow> = {}): QueueRow {
  return {
    id: 'ABCDEFGHJKLMNPQR',
    status: 'EMERGENCY',
    created_at: 1_795_400_000,
    updated_at: 1_795_400_600,
    from_code: 'BTC',
    to_code: 'ETH',
    from_amount: '0.01',
    to_amount: '0.40334444',
    rate_type: 'fixed',
    provider: 'sandbox',
    deposit_address: 'bc1qdeposit00000000000000000000000000000',
    deposit_tag: null,
    to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    to_tag: null,
    emergency_reason: 'LESS',
    emergency_choice: null,
    reason: 'emergency',
    open_message: false,
    waiting_since: 1_795_400_600,
    ...overrides,
  };
}

export function fakeStats(overrides: Partial<Stats> = {}): Stats {
  return {
    since: 1_795_392_000,
    days: [],
    completion_seconds: { count: 0, p50: null, p90: null, p99: null },
    deposited: 0,
    emergency: 0,
    refunded: 0,
    providers: [],
    ...overrides,
  };
}

export function fakeUser(overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 'u_customer',
    email: 'customer@example.com',
    full_name: 'Carol Customer',
    created_at: 1_795_300_000,
    email_verified: true,
    two_factor: false,
    has_password: true,
    role: null,
    locked_at: null,
    ...overrides,
  };
}

export function fakeAccount(overrides: Partial<AccountView> = {}): AccountView {
  return {
    user: fakeUser(),
    orders: [queueRowAsOrder()],
    sessions: [
      {
        id: 's1',
        created_at: 1_795_400_000,
        last_seen_at: 1_795_400_900,
        expires_at: 1_796_000_000,
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
        ip: '203.0.113.7',
      },
    ],
    api_keys: [
      {
        id: 'key_1',
        name: 'Shop integration',
        permission: 'read_write',
        created_at: 1_795_350_000,
        last_used_at: null,
        request_count: 1234,
        revoked_at: null,
      },
    ],
    ...overrides,
  };
}

/** `fakeOrder`'s order as a row of a list. */
function queueRowAsOrder(): OrderRow {
  const row: Partial<QueueRow> = { ...queueRow() };
  delete row.reason;
  delete row.waiting_since;
  delete row.open_message;
  return row as OrderRow;
}

export function auditEntry(overrides: Partial<AuditLogEntry> = {}): AuditLogEntry {
  return {
    id: 41,
    at: 1_795_400_700,
    actor: 'user:u1',
    actor_email: 'ada@example.com',
    actor_role: 'operator',
    action: 'order.cancel',
    subject_kind: 'order',
    subject_id: 'ABCDEFGHJKLMNPQR',
    reason: 'Customer asked',
    client_ip: '198.51.100.4',
    user_agent: 'Mozilla/5.0',
    before: { status: 'NEW' },
    after: { status: 'EXPIRED' },
    replayable: true,
    ...overrides,
  };
}

export function fakePayout(overrides: Partial<Payout> = {}): Payout {
  return {
    id: 'po_1',
    user_id: 'u_partner',
    account_locked: false,
    amount_usd: '125.5',
    currency: 'USDT',
    address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    tag: null,
    status: 'requested',
    txid: null,
    created_at: 1_795_400_000,
    processed_at: null,
    ...overrides,
  };
}

export function fakeMessage(overrides: Partial<ContactMessage> = {}): ContactMessage {
  return {
    id: 'msg_1',
    name: 'Carol Customer',
    email: 'customer@example.com',
    subject: 'Where is my refund?',
    category: 'billing',
    message: 'Hello,\nmy order is stuck.\n<b>Thanks</b>',
    created_at: 1_795_400_800,
    user_id: null,
    order_id: null,
    answered_at: null,
    answered_by: null,
    ...overrides,
  };
}

/** A currency as the server lists it: by default Bitcoin, open both ways, nothing overridden. */
export function fakeCurrency(overrides: Partial<ConsoleCurrency> = {}): ConsoleCurrency {
  return {
    code: 'BTC',
    coin: 'BTC',
    name: 'Bitcoin',
    network: 'BTC',
    network_name: 'Bitcoin',
    send: true,
    recv: true,
    provider: { deposit_maintenance: false, payout_maintenance: false },
    override: {
      send: null,
      recv: null,
      maintenance: null,
      min: null,
      max: null,
      updated_at: null,
    },
    ...overrides,
  };
}

/** An incident still being investigated, with the update it opened with. */
export function fakeIncident(overrides: Partial<Incident> = {}): Incident {
  return {
    id: 'inc-1a2b3c4d',
    title: 'Slow Bitcoin deposits',
    description: 'Deposits take longer than usual to be confirmed.',
    status: 'investigating',
    created_at: 1_795_400_000,
    updated_at: 1_795_400_000,
    updates: [
      {
        status: 'investigating',
        message: 'Deposits take longer than usual to be confirmed.',
        created_at: 1_795_400_000,
      },
    ],
    ...overrides,
  };
}

/** A partner's API key still working, with its owner (`fakeUser`'s account). */
export function fakeApiKey(overrides: Partial<PartnerApiKey> = {}): PartnerApiKey {
  return {
    id: 'key_1',
    name: 'Shop integration',
    permission: 'read_write',
    created_at: 1_795_350_000,
    last_used_at: 1_795_400_500,
    request_count: 1234,
    revoked_at: null,
    user_id: 'u_customer',
    user_email: 'customer@example.com',
    ...overrides,
  };
}

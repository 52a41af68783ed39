// What the back office's API answers (`/api/admin/…`, issue 22). Amounts are decimal strings,
// times Unix seconds.
export type Role = 'support' | 'operator' | 'owner';

/** `GET /api/admin/console/me`: a signed-in operator, or a script holding the admin token. */
export type ConsoleMe =
  | {
      token: false;
      email: string;
      role: Role;
      two_factor: boolean;
      /** Until when the console is open without a new code; null: locked. */
      unlocked_until: number | null;
      /** How long the console stays open without use. */
      idle_seconds: number;
    }
  | { token: true; role: 'owner' };

/** An order as a row of the search's results. */
export interface OrderRow {
  id: string;
  /** One of `ORDER_STATUSES` (lib/order-status.ts). */
  status: string;
  created_at: number;
  updated_at: number;
  from_code: string;
  to_code: string;
  from_amount: string;
  to_amount: string;
  rate_type: 'float' | 'fixed';
  provider: string;
  deposit_address: string;
  deposit_tag: string | null;
  to_address: string;
  to_tag: string | null;
  emergency_reason: string | null;
  emergency_choice: string | null;
}

/** Why an order waits in the emergency state (`order.emergency.*` of the pages texts). */
export const EMERGENCY_REASONS = ['LESS', 'MORE', 'EXPIRED', 'LIMIT', 'RATE'] as const;

export interface OrdersPage {
  orders: OrderRow[];
  /** What `before` takes for the next page; null on the last one. */
  next: string | null;
}

export interface Transaction {
  id: string;
  amount: string;
  at: number;
}

export type TransactionSide = 'deposit' | 'payout' | 'refund';

export interface OrderDetail extends OrderRow {
  received_amount: string | null;
  payout_amount: string | null;
  refund_address: string | null;
  refund_tag: string | null;
  owner_email: string | null;
  api_key_id: string | null;
  notify_email: string | null;
  provider_order_id: string | null;
  expires_at: number | null;
  finished_at: number | null;
  transactions: Partial<Record<TransactionSide, Transaction | null>> | null;
}

export type TimelineItem =
  | { kind: 'event'; at: number; status: string; detail: string | null }
  | {
      kind: 'audit';
      at: number;
      action: string;
      actor: string;
      actor_email: string | null;
      actor_role: string;
      reason: string | null;
    };

/** What the operator may do to the order now. */
export type OrderAction = 'note' | 'refund' | 'refund_address' | 'retry' | 'cancel';

export interface OrderView {
  order: OrderDetail;
  /** Oldest first. */
  timeline: TimelineItem[];
  actions: OrderAction[];
}

/** `GET /api/admin/orders/{id}/upstream`: what the liquidity provider filling the order says
 * of it right now. */
export interface UpstreamState {
  provider: string;
  /** The order's reference at the provider. */
  reference: string;
  /** The provider's own status, as it wrote it. */
  raw_status: string;
  /** What that means in Ferry's terms: one of `ORDER_STATUSES` (lib/order-status.ts). */
  status: string;
  received: string | null;
  to_amount: string | null;
  paid_out: string | null;
  /** The decision the provider knows of (`REFUND` or `EXCHANGE`), if any. */
  choice: string | null;
  /** When the provider was asked. */
  checked_at: number;
}

/** Why an order needs a person: in EMERGENCY, still moving with no change for too long,
 * FAILED lately, or (only) a contact message about it waits for an answer. */
export type QueueReason = 'emergency' | 'stuck' | 'failed' | 'message';

export const QUEUE_REASONS: readonly QueueReason[] = ['emergency', 'stuck', 'failed', 'message'];

/** How many orders wait for each reason; `messages`: those listed only for a message. */
export interface QueueCounts {
  emergency: number;
  stuck: number;
  failed: number;
  messages: number;
}

/** How many orders wait for `reason`. */
export const countOf = (counts: QueueCounts, reason: QueueReason): number =>
  counts[reason === 'message' ? 'messages' : reason];

/** How many orders wait in all. */
export const totalOf = (counts: QueueCounts): number =>
  QUEUE_REASONS.reduce((sum, reason) => sum + countOf(counts, reason), 0);

export interface QueueRow extends OrderRow {
  reason: QueueReason;
  /** An unanswered contact message is linked to the order (whatever the reason). */
  open_message: boolean;
  /** The order's last change. */
  waiting_since: number;
}

/** `GET /api/admin/queue`: what needs a person, the longest waiting first. */
export interface Queue {
  /** How many orders wait, by reason (all of them, not only those listed). */
  counts: QueueCounts;
  /** A moving order with no change for this long is stuck. */
  stuck_after_seconds: number;
  /** A FAILED order stays in the queue for this long. */
  failed_within_seconds: number;
  orders: QueueRow[];
}

export interface DayStats {
  /** A UTC day, `YYYY-MM-DD`. */
  day: string;
  orders: number;
  completed: number;
  /** What the day's completed orders sent, in US dollars (a decimal string). */
  volume_usd: string;
}

/** `GET /api/admin/stats?days=`: the orders made in the last days. */
export interface Stats {
  /** The start of the first UTC day of the period. */
  since: number;
  /** Only days with orders, oldest first. */
  days: DayStats[];
  /** From creation to completion, of the period's completed orders. */
  completion_seconds: {
    count: number;
    p50: number | null;
    p90: number | null;
    p99: number | null;
  };
  /** Orders whose deposit arrived. */
  deposited: number;
  /** Orders that went into EMERGENCY at some point. */
  emergency: number;
  /** Orders that ended REFUNDED. */
  refunded: number;
  /** The liquidity providers as last checked, with their uptime of the last 30 days. */
  providers: ProviderHealth[];
}

/** A liquidity provider's state as last checked. */
export type ProviderStatus = 'operational' | 'degraded' | 'outage';

export const PROVIDER_STATUSES: readonly ProviderStatus[] = ['operational', 'degraded', 'outage'];

/** A liquidity provider on the home page. */
export interface ProviderHealth {
  /** `provider:<name>`. */
  key: string;
  name: string;
  /** One of `PROVIDER_STATUSES`. */
  status: string;
  /** How long its last check took; null: not measured. */
  latency_ms: number | null;
  /** The percent of the last 30 days' checks it passed; null: none yet. */
  uptime: number | null;
}

/** An account as a row of `GET /api/admin/users` and on its page. */
export interface UserRow {
  id: string;
  email: string;
  /** Empty when the account gave none. */
  full_name: string;
  created_at: number;
  email_verified: boolean;
  two_factor: boolean;
  /** False: the account signs in another way (a link by e-mail, a social account). */
  has_password: boolean;
  /** Its role in the back office, if any. */
  role: Role | null;
  /** Since when the account is locked (no session, no sign-in); null: it is not. */
  locked_at: number | null;
}

export interface UsersPage {
  users: UserRow[];
  /** What `before` takes for the next page; null on the last one. */
  next: string | null;
}

/** One of an account's open sessions. */
export interface UserSession {
  id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string;
  ip: string;
}

/** One of an account's API keys (never its secret). */
export interface UserApiKey {
  id: string;
  name: string;
  permission: string;
  created_at: number;
  last_used_at: number | null;
  request_count: number;
  revoked_at: number | null;
}

/** `GET /api/admin/users/{id}`: the account, its newest orders, its sessions and API keys. */
export interface AccountView {
  user: UserRow;
  orders: OrderRow[];
  sessions: UserSession[];
  api_keys: UserApiKey[];
}

/** One entry of the audit log: who did what to what, when, from where, and why. */
export interface AuditLogEntry {
  id: number;
  at: number;
  /** `token`, `cli` or `user:<id>`. */
  actor: string;
  actor_email: string | null;
  actor_role: string;
  action: string;
  subject_kind: string;
  subject_id: string;
  reason: string | null;
  client_ip: string;
  user_agent: string;
  /** The subject as it was and as it became (small JSON views). */
  before: unknown;
  after: unknown;
  /** Whether the act was sent with an Idempotency-Key. */
  replayable: boolean;
}

export interface AuditPage {
  /** Newest first. */
  entries: AuditLogEntry[];
  /** What `before` takes for the next page; null on the last one. */
  next: number | null;
}

export type PayoutStatus = 'requested' | 'paid' | 'rejected';

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['requested', 'paid', 'rejected'];

/** A partner's request to be paid their commission. */
export interface Payout {
  id: string;
  user_id: string;
  /** The partner's account is locked: the payout is held (it may be rejected, not paid). */
  account_locked: boolean;
  /** A decimal string. */
  amount_usd: string;
  /** The coin it is paid in. */
  currency: string;
  address: string;
  tag: string | null;
  status: string;
  txid: string | null;
  created_at: number;
  processed_at: number | null;
}

/** Someone with a role in the back office. */
export interface Operator {
  id: string;
  email: string;
  role: Role;
  two_factor: boolean;
}

/** The contact form's categories (`contact.categories.*` of the pages texts). */
export const CONTACT_CATEGORIES = ['general', 'technical', 'account', 'billing', 'other'] as const;

/** A message sent through the contact form, as `GET /api/admin/contact-messages` lists it. */
export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  category: string;
  /** Plain text, as the sender typed it. */
  message: string;
  created_at: number;
  /** The account it was sent from, if signed in. */
  user_id: string | null;
  /** The order it is about, once linked. */
  order_id: string | null;
  /** When an operator marked it answered; null: it waits. */
  answered_at: number | null;
  answered_by: string | null;
}

/** Which messages the list shows: those waiting for an answer, the answered ones, or all. */
export type MessageFilter = 'waiting' | 'answered' | 'all';

export const MESSAGE_FILTERS: readonly MessageFilter[] = ['waiting', 'answered', 'all'];

/** An operator's switch of a currency's sending or receiving: on, off, or null to follow the
 * provider. */
export type CurrencySwitch = boolean | null;

/** What the operator set for a currency, on top of the provider. */
export interface CurrencyOverride {
  send: CurrencySwitch;
  recv: CurrencySwitch;
  /** The message customers see while the operator keeps the currency in maintenance; null: not
   * in maintenance. */
  maintenance: string | null;
  /** The least and most a customer may send, in the currency's units; null: the provider's. */
  min: string | null;
  max: string | null;
  /** The override's last change; null: never set. */
  updated_at: number | null;
}

/** `GET /api/admin/currencies`: a currency of the catalogue as the back office sees it. */
export interface ConsoleCurrency {
  code: string;
  coin: string;
  name: string;
  network: string;
  network_name: string;
  /** What customers get now: the provider's flags, the switches and the maintenance together. */
  send: boolean;
  recv: boolean;
  provider: { deposit_maintenance: boolean; payout_maintenance: boolean };
  override: CurrencyOverride;
}

export type IncidentStatus = 'investigating' | 'identified' | 'monitoring' | 'resolved';

export const INCIDENT_STATUSES: readonly IncidentStatus[] = [
  'investigating',
  'identified',
  'monitoring',
  'resolved',
];

export interface IncidentUpdate {
  /** One of `INCIDENT_STATUSES`. */
  status: string;
  message: string;
  created_at: number;
}

/** An incident the status page shows, as `GET /api/admin/incidents` lists it (newest first). */
export interface Incident {
  id: string;
  title: string;
  description: string;
  /** One of `INCIDENT_STATUSES`. */
  status: string;
  created_at: number;
  updated_at: number;
  /** Oldest first. */
  updates: IncidentUpdate[];
}

/** A partner's API key with its owner, as `GET /api/admin/api-keys` lists it. */
export interface PartnerApiKey extends UserApiKey {
  user_id: string;
  user_email: string;
}

/** Which keys the list shows: those still working, the revoked ones, or all. */
export type ApiKeyFilter = 'active' | 'revoked' | 'all';

export const API_KEY_FILTERS: readonly ApiKeyFilter[] = ['active', 'revoked', 'all'];

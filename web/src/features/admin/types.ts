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
export type OrderAction = 'note' | 'refund';

export interface OrderView {
  order: OrderDetail;
  /** Oldest first. */
  timeline: TimelineItem[];
  actions: OrderAction[];
}

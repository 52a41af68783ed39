// Shapes of spec/exchange.md §3 as the server sends them.

export interface Currency {
  code: string;
  coin: string;
  name: string;
  network: string;
  networkName?: string;
  recv: number;
  send: number;
  tag: string | null;
  precision?: number;
  logo?: string;
  color?: string;
  priority?: number;
}

export type Direction = 'from' | 'to';
export type RateType = 'float' | 'fixed';

export interface QuoteSide {
  amount: string;
  code: string;
  coin: string;
  network: string;
  min: string;
  max: string;
  precision: number;
  rate: string;
  usd: string;
  btc?: string;
  /** The operator's message while this coin is in maintenance. */
  maintenance?: string;
}

export interface Quote {
  errors: string[];
  from: QuoteSide;
  to: QuoteSide;
  /** True when the numbers are a local estimate, not the server's quote. */
  estimated?: boolean;
}

export interface QuoteRequest {
  from: string;
  to: string;
  amount: string;
  direction: Direction;
  type: RateType;
}

export interface OrderSide {
  amount: string;
  code: string;
  coin: string | null;
  network: string | null;
  name?: string | null;
  address: string;
  tag: string | null;
  tagName: string | null;
  usd: string;
  received?: string | null;
  sent?: string | null;
  confirmations?: number | null;
}

/** A transaction of an order on its network (`order.transactions`). */
export interface OrderTransaction {
  id: string;
  amount: string;
  fee: string | null;
  confirmations: number | null;
  /** Unix seconds. */
  at: number;
  /** A public block explorer's page of the transaction, when the network has one. */
  explorer: string | null;
}

export interface Order {
  id: string;
  token: string;
  status: string;
  type: RateType;
  direction: Direction;
  progress: number;
  rate: string;
  from: OrderSide;
  to: OrderSide;
  /** `amount`: what went back, once refunded. */
  refund: { address: string | null; tag: string | null; amount?: string | null };
  emergency: {
    reason: string;
    choice: string;
    /**
     * While the choice is open, what each choice would bring now: continuing pays out this
     * much (or is refused, and why), a refund sends back this much after its network fee.
     * Absent when the server could not ask the market.
     */
    outcomes?: {
      exchange: { amount?: string; refused?: string } | null;
      refund: { amount: string; fee: string } | null;
    };
  } | null;
  transactions?: {
    deposit: OrderTransaction | null;
    payout: OrderTransaction | null;
    refund: OrderTransaction | null;
  };
  time: {
    reg: number;
    expiration: number;
    left: number;
    rateExpiration: number | null;
    update: number;
    finish: number | null;
  };
  metadata: string | Record<string, unknown> | null;
}

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

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
  refund: { address: string | null; tag: string | null };
  emergency: { reason: string; choice: string } | null;
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

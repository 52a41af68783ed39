// The order statuses of Ferry (spec/exchange.md §4) and the one place that says which of them
// are final, which are running, and how far along each is.

export const ORDER_STATUSES = [
  'NEW',
  'CONFIRMING',
  'EXCHANGE',
  'SENDING',
  'COMPLETED',
  'EXPIRED',
  'EMERGENCY',
  'REFUNDED',
  'FAILED',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export function isOrderStatus(status: string): status is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(status);
}

/**
 * Nothing can change any more: the coins were sent, or the deposit went back. EXPIRED is not
 * final (a late deposit turns it into EMERGENCY), nor is FAILED (support may still refund).
 */
export function isFinalStatus(status: string): boolean {
  return status === 'COMPLETED' || status === 'REFUNDED';
}

/** The order is on its way: the refund address may still be set or changed. */
export function isRunningStatus(status: string): boolean {
  return ['NEW', 'CONFIRMING', 'EXCHANGE', 'SENDING'].includes(status);
}

/** The progress bar: NEW 20, CONFIRMING 40, EXCHANGE 60, SENDING 80, COMPLETED 100, else 20. */
export function progressOf(status: string): number {
  return { NEW: 20, CONFIRMING: 40, EXCHANGE: 60, SENDING: 80, COMPLETED: 100 }[status] ?? 20;
}

export type StatusTone = 'success' | 'muted' | 'danger' | 'warning' | 'info';

export function statusTone(status: string): StatusTone {
  const tones: Record<string, StatusTone> = {
    COMPLETED: 'success',
    REFUNDED: 'muted',
    EXPIRED: 'muted',
    FAILED: 'danger',
    EMERGENCY: 'warning',
  };
  return tones[status] ?? 'info';
}

// The audit log's actions: those the console names (`admin.order.auditActions.*`, the acts on
// an order), and every action the server writes, for the audit log's filter.
import type { TFunction } from 'i18next';

/** The audit log's actions on an order, and their names (`admin.order.auditActions.*`). */
const AUDIT_ACTIONS = {
  'order.note': 'note',
  'order.refund': 'refund',
  'order.refund.refused': 'refundRefused',
  'order.refund_address': 'refundAddress',
  'order.retry': 'retry',
  'order.cancel': 'cancel',
  // The sandbox's deposit and expiry, simulated by an operator or the admin token.
  'order.deposit': 'deposit',
  'order.expire': 'expire',
} as const;

type AuditAction = keyof typeof AUDIT_ACTIONS;

function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, action);
}

/** An action's name; one the console does not know (yet) reads as the server wrote it. */
export function auditActionName(t: TFunction, action: string): string {
  return isAuditAction(action) ? t(`admin.order.auditActions.${AUDIT_ACTIONS[action]}`) : action;
}

/** Every action the server writes to the audit log (the audit page's filter offers these). */
export const KNOWN_ACTIONS = [
  ...(Object.keys(AUDIT_ACTIONS) as AuditAction[]),
  'user.lock',
  'user.unlock',
  'user.sign_out',
  'payout.close',
  'operator.set',
  'message.answered',
  'message.link',
  'currency.set',
  'incident.open',
  'incident.update',
  'api_key.revoke',
  'sandbox.outage',
] as const;

/** What an audit entry is about. */
export const SUBJECT_KINDS = [
  'order',
  'user',
  'payout',
  'message',
  'currency',
  'incident',
  'api_key',
  'sandbox',
] as const;

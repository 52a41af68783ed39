// The console's roles, each allowed what the one below it is and more: support reads (orders,
// accounts) and adds notes; an operator also acts (refunds, locks an account, pays out) and
// reads the audit log; an owner also manages the operators.
import type { Role } from '../types';

const RANKS: Record<Role, number> = { support: 0, operator: 1, owner: 2 };

export const ROLES: readonly Role[] = ['support', 'operator', 'owner'];

export function isRole(role: unknown): role is Role {
  return role === 'support' || role === 'operator' || role === 'owner';
}

/** Whether `role` is above `other`. */
export function above(role: Role, other: Role): boolean {
  return RANKS[role] > RANKS[other];
}

/** Whether `role` is `least` or above it. */
export function atLeast(role: Role, least: Role): boolean {
  return RANKS[role] >= RANKS[least];
}

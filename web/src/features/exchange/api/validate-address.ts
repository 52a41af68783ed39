// `POST /api/validate-address`: the server's checksum verdict (the patterns of §5 cannot see a
// typo), and for a Lightning invoice whether it can be paid out to, and for how much.
import { api } from '@/lib/api-client';

import type { AddressProblem } from '../lib/address-rules';
import type { CheckedInvoice, InvoiceReason } from '../lib/lightning';
import type { Envelope } from '../types';

export interface AddressVerdict {
  valid: boolean;
  reason: 'empty' | 'format' | 'checksum' | 'network' | InvoiceReason | null;
  message: string | null;
  tag_error: string | null;
  /** A valid address of another currency's network, when it is not one for the asked one. */
  looks_like?: { code: string; coin: string; network: string; networkName: string } | null;
  /** A Lightning invoice that can be paid out to: its amount (BTC) and expiry (Unix s). */
  invoice?: { amount: string; expires_at: number } | null;
  /** An invoice that expires too soon: the minutes it has left, and those it needs. */
  invoice_minutes?: { left: number; needed: number } | null;
}

/**
 * `fromCurrency`, the coin the customer sends: a Lightning invoice must stay payable while its
 * deposit confirms.
 */
export async function validateAddress(
  currency: string,
  address: string,
  { tag, fromCurrency }: { tag?: string; fromCurrency?: string } = {},
): Promise<AddressVerdict> {
  const answer = await api.post<Envelope<AddressVerdict>>('/api/validate-address', {
    currency,
    address,
    ...(tag ? { tag } : {}),
    ...(fromCurrency ? { from_currency: fromCurrency } : {}),
  });
  return answer.data;
}

export interface ServerCheck {
  /** What the server finds wrong with the address, or null. */
  problem: AddressProblem | null;
  /** A Lightning invoice the server will pay out to, or null. */
  invoice: CheckedInvoice | null;
}

const INVOICE_REASONS: readonly string[] = [
  'invoice_malformed',
  'invoice_network',
  'invoice_no_amount',
  'invoice_sub_satoshi',
  'invoice_unpayable',
  'invoice_expired',
  'invoice_expires_soon',
  'invoice_used',
] satisfies InvoiceReason[];

function isInvoiceReason(reason: string | null): reason is InvoiceReason {
  return INVOICE_REASONS.includes(reason ?? '');
}

function problemOf(verdict: AddressVerdict): AddressProblem | null {
  if (verdict.reason === 'checksum') return { kind: 'checksum' };
  if (verdict.valid) return null;
  if (isInvoiceReason(verdict.reason)) {
    return verdict.invoice_minutes
      ? { kind: 'invoice', reason: verdict.reason, minutes: verdict.invoice_minutes }
      : { kind: 'invoice', reason: verdict.reason };
  }
  if (verdict.looks_like) {
    const { coin, network, networkName } = verdict.looks_like;
    return { kind: 'looksLike', coin, networkName: networkName || network };
  }
  return verdict.reason ? { kind: 'invalid' } : null;
}

/**
 * The server's verdict on `address`. Should the server not answer, no problem and no invoice:
 * it decides again when the order is created.
 */
export async function serverAddressCheck(
  currency: string,
  address: string,
  fromCurrency?: string,
): Promise<ServerCheck> {
  try {
    const verdict = await validateAddress(currency, address.trim(), { fromCurrency });
    const invoice =
      verdict.valid && verdict.invoice
        ? { amount: verdict.invoice.amount, expiresAt: verdict.invoice.expires_at }
        : null;
    return { problem: problemOf(verdict), invoice };
  } catch (error) {
    console.warn('Could not check the address with the server', error);
  }
  return { problem: null, invoice: null };
}

/** What the server finds wrong with `address`, or null. */
export async function serverAddressProblem(
  currency: string,
  address: string,
  fromCurrency?: string,
): Promise<AddressProblem | null> {
  return (await serverAddressCheck(currency, address, fromCurrency)).problem;
}

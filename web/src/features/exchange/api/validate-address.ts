// `POST /api/validate-address`: the server's checksum verdict (the patterns of §5 cannot see a
// typo).
import { api } from '@/lib/api-client';

import type { AddressProblem } from '../lib/address-rules';
import type { Envelope } from '../types';

export interface AddressVerdict {
  valid: boolean;
  reason: 'empty' | 'format' | 'checksum' | 'network' | null;
  message: string | null;
  tag_error: string | null;
  /** A valid address of another currency's network, when it is not one for the asked one. */
  looks_like?: { code: string; coin: string; network: string; networkName: string } | null;
}

export async function validateAddress(
  currency: string,
  address: string,
  tag?: string,
): Promise<AddressVerdict> {
  const answer = await api.post<Envelope<AddressVerdict>>('/api/validate-address', {
    currency,
    address,
    ...(tag ? { tag } : {}),
  });
  return answer.data;
}

/**
 * What the server finds wrong with `address`, or null. Should the server not answer, null: it
 * decides again when the order is created.
 */
export async function serverAddressProblem(
  currency: string,
  address: string,
): Promise<AddressProblem | null> {
  try {
    const verdict = await validateAddress(currency, address.trim());
    if (verdict.reason === 'checksum') return { kind: 'checksum' };
    if (!verdict.valid && verdict.looks_like) {
      const { coin, network, networkName } = verdict.looks_like;
      return { kind: 'looksLike', coin, networkName: networkName || network };
    }
    if (!verdict.valid && verdict.reason) return { kind: 'invalid' };
  } catch (error) {
    console.warn('Could not check the address with the server', error);
  }
  return null;
}

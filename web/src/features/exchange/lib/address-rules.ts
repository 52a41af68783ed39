// The client's address rules of spec/exchange.md §5, checked on blur and before creation. The
// server checks checksums too; its verdict is shown when these patterns pass.
import type { Currency } from '../types';
import { MEMO_COINS, NETWORK_BADGES } from './constants';
import { type InvoiceReason, isLightning, looksLikeInvoice } from './lightning';

const EVM = /^0x[0-9a-fA-F]{40}$/;
const EVM_NETWORKS = [
  'ETH',
  'BSC',
  'POL',
  'ARB',
  'OP',
  'BASE',
  'AVAXC',
  'FTM',
  'ETC',
  'CELO',
  'CRO',
  'KAVA',
];

type Rule = (address: string) => boolean;

function ruleFor(currency: Pick<Currency, 'code' | 'coin' | 'network'>): Rule {
  const { coin, network } = currency;
  // Lightning's "address" is an invoice: its shape here, the rest on the server.
  if (isLightning(currency)) return looksLikeInvoice;
  if (EVM_NETWORKS.includes(network) || coin === 'BNB') return (a) => EVM.test(a);
  switch (coin) {
    case 'BTC':
      return (a) => /^[13][a-km-zA-HJ-NP-Z1-9]{24,33}$/.test(a) || /^bc1[a-z0-9]{8,87}$/i.test(a);
    case 'ADA':
      return (a) => /^addr1[a-z0-9]{98}$/.test(a) || /^(DdzFF|Ae2)[1-9A-HJ-NP-Za-km-z]+$/.test(a);
    case 'SOL':
      return (a) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(a);
    case 'XRP':
      return (a) => /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/.test(a);
    case 'LTC':
      return (a) => /^[LM3][a-km-zA-HJ-NP-Z1-9]{26,33}$/.test(a) || /^ltc1[a-z0-9]{8,87}$/i.test(a);
    case 'DOGE':
      return (a) => /^D[a-km-zA-HJ-NP-Z1-9]{33}$/.test(a);
    case 'TRX':
      return (a) => /^T[a-km-zA-HJ-NP-Z1-9]{33}$/.test(a);
    case 'DOT':
      return (a) => /^1[a-km-zA-HJ-NP-Z1-9]{47}$/.test(a);
    case 'ATOM':
      return (a) => /^cosmos1[a-z0-9]{38,58}$/.test(a);
    case 'XLM':
      return (a) => /^G[A-Z2-7]{55}$/.test(a);
    case 'EOS':
      return (a) => /^[a-z1-5]{1,12}(\.[a-z1-5]{1,12})?$/.test(a);
    case 'AVAX':
      return (a) => EVM.test(a) || /^X-avax1[a-z0-9]{38,58}$/.test(a);
    default:
      if (network === 'TRX') return (a) => /^T[a-km-zA-HJ-NP-Z1-9]{33}$/.test(a);
      if (network === 'SOL') return (a) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(a);
      return (a) => a.length >= 10 && a.length <= 120;
  }
}

/**
 * The label in messages: ERC20/BEP20/TRC20 for tokens on those networks; the network's name
 * where its code would only repeat the coin's ("BTC (Bitcoin)", not "BTC (BTC)"); else the
 * network.
 */
export function networkLabel(
  currency: Pick<Currency, 'network'> & { coin?: string; networkName?: string },
): string {
  const badge = NETWORK_BADGES[currency.network];
  if (badge) return badge;
  if (currency.coin === currency.network && currency.networkName) return currency.networkName;
  return currency.network;
}

export type AddressProblem =
  | { kind: 'empty'; variant: 'destination' | 'your' }
  | { kind: 'invalid' }
  /** The server's verdict: the pattern fits but the checksum does not (a typo). */
  | { kind: 'checksum' }
  /** The server's verdict: a valid address, of another network (a Bitcoin address for ETH). */
  | { kind: 'looksLike'; coin: string; networkName: string }
  /** The server's verdict on a Lightning invoice; `minutes` for one that expires too soon. */
  | { kind: 'invoice'; reason: InvoiceReason; minutes?: { left: number; needed: number } };

/** The server found the destination address wrong: no order was asked for. */
export class AddressRejected extends Error {
  constructor(
    readonly address: string,
    readonly problem: AddressProblem,
  ) {
    super('The destination address was rejected');
  }
}

export function checkAddress(
  currency: Pick<Currency, 'code' | 'coin' | 'network'>,
  raw: string,
): AddressProblem | null {
  const address = raw.trim();
  if (!address) {
    return { kind: 'empty', variant: needsMemo(currency) ? 'destination' : 'your' };
  }
  return ruleFor(currency)(address) ? null : { kind: 'invalid' };
}

/** XLM, ATOM, EOS, TWTBSC, and any currency with a tag (§5). */
export function needsMemo(
  currency: Pick<Currency, 'code' | 'coin'> & { tag?: string | null },
): boolean {
  return MEMO_COINS.includes(currency.code) || MEMO_COINS.includes(currency.coin) || !!currency.tag;
}

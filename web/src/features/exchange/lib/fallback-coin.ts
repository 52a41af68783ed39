// PAIR_UNAVAILABLE (spec/exchange.md §4): switch the receive coin to a fallback — USDT, USDC,
// ETH, BTC, BNB in the order that suits the send coin — else any coin that can be sent and
// received. A coin already tried for this send coin is not chosen again, so two unavailable
// fallbacks cannot take turns.
import type { Currency } from '../types';

const STABLES = ['USDT', 'USDC', 'DAI'];

export function fallbackOrder(sendCoin: string): string[] {
  if (STABLES.includes(sendCoin)) return ['BTC', 'ETH', 'BNB', 'USDT', 'USDC'];
  if (sendCoin === 'BTC') return ['USDT', 'ETH', 'USDC', 'BNB'];
  if (sendCoin === 'ETH') return ['USDT', 'BTC', 'USDC', 'BNB'];
  return ['USDT', 'USDC', 'ETH', 'BTC', 'BNB'];
}

export function pickFallbackCoin(
  send: Currency,
  current: Currency,
  currencies: Currency[],
  tried: readonly string[] = [],
): Currency | null {
  const usable = (c: Currency) =>
    c.send === 1 &&
    c.recv === 1 &&
    c.code !== send.code &&
    c.code !== current.code &&
    !tried.includes(c.code) &&
    c.coin !== send.coin;
  for (const code of fallbackOrder(send.coin)) {
    const found = currencies.find((c) => c.code === code && usable(c));
    if (found) return found;
  }
  return currencies.find(usable) ?? null;
}

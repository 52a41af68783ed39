import { describe, expect, it } from 'vitest';

import { fallbackOrder, pickFallbackCoin } from './fallback-coin';
import { RateLimitState, resumeAt } from './rate-limit';

describe('the rate-limit pause (spec/exchange.md §4)', () => {
  it("waits until the time in the message ('until <unix seconds>')", () => {
    expect(resumeAt('Too many requests: quotes are paused until 2000000000', 1_000)).toBe(
      2_000_000_000_000,
    );
  });

  it('pauses two minutes when the message names no time', () => {
    expect(resumeAt('slow down', 1_000)).toBe(121_000);
    expect(resumeAt('until 5', 10_000)).toBe(130_000);
  });

  it('is paused only until then', () => {
    const state = new RateLimitState();
    state.pause('nope', 0);
    expect(state.isPaused(119_999)).toBe(true);
    expect(state.isPaused(120_000)).toBe(false);
  });
});

describe('the fallback coin for PAIR_UNAVAILABLE (spec/exchange.md §4)', () => {
  const coin = (code: string, coinName = code, send = 1, recv = 1) => ({
    code,
    coin: coinName,
    name: code,
    network: code,
    send,
    recv,
    tag: null,
  });
  const all = [coin('BTC'), coin('ETH'), coin('USDT'), coin('USDC'), coin('BNB'), coin('XMR')];

  it('prefers USDT, USDC, ETH, BTC, BNB', () => {
    expect(fallbackOrder('XMR')).toEqual(['USDT', 'USDC', 'ETH', 'BTC', 'BNB']);
    expect(pickFallbackCoin(coin('XMR'), coin('LINK'), all)?.code).toBe('USDT');
  });

  it('suits the send coin: a stablecoin goes to BTC first', () => {
    expect(pickFallbackCoin(coin('USDT'), coin('XMR'), all)?.code).toBe('BTC');
  });

  it('skips coins that cannot be sent and received, then takes any that can', () => {
    const limited = [
      coin('USDT', 'USDT', 0),
      coin('USDC', 'USDC', 1, 0),
      coin('XMR'),
      coin('DOGE'),
    ];
    expect(pickFallbackCoin(coin('XMR'), coin('LINK'), limited)?.code).toBe('DOGE');
  });
});

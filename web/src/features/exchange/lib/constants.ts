// Business constants of spec/exchange.md §9 that live in the client.

/** Default send amount per coin (§9), used after a swap and on a fresh widget. */
export const DEFAULT_AMOUNTS: Record<string, string> = {
  BTC: '0.01',
  ETH: '0.5',
  USDT: '1000',
  USDC: '1000',
  BNB: '2',
  XRP: '300',
  ADA: '1000',
  SOL: '5',
  DOT: '100',
  DOGE: '5000',
  AVAX: '30',
  MATIC: '1500',
  LTC: '10',
  LINK: '70',
};
export const FALLBACK_DEFAULT_AMOUNT = '0.01';

/** The ticker in a currency code: USDTBSC → USDT (for the default-amount table). */
export function coinOf(code: string): string {
  return code.toUpperCase().replace(/(BSC|TRC|SOL|POL|ARB|OP|BASE|AVAXC|TON)$/, '') || code;
}

export function defaultAmountFor(coin: string): string {
  return DEFAULT_AMOUNTS[coin.toUpperCase()] ?? FALLBACK_DEFAULT_AMOUNT;
}

/** USD prices for local estimates when the quote service cannot answer (§9). */
export const FALLBACK_USD: Record<string, number> = {
  BTC: 60000,
  ETH: 3000,
  USDT: 1,
  USDC: 1,
  DAI: 1,
  BNB: 500,
  XRP: 0.6,
  DOT: 9.5,
  SOL: 150,
  TON: 3.8,
  ADA: 0.45,
  AVA: 35,
  AVAX: 35,
  FTM: 0.8,
  LTC: 85,
};
export const FALLBACK_USD_DEFAULT = 100;

export const TIMINGS = {
  rateCacheMs: 5 * 60 * 1000,
  currencyCacheMs: 30 * 60 * 1000,
  rateLimitPauseMs: 2 * 60 * 1000,
  debounceMs: 200,
  copyFeedbackMs: 2000,
  swapDelayMs: 500,
  creatingStepMs: 800,
} as const;

/** The popular group of the picker (§2), in order; at most 7 are shown. */
export const POPULAR_CODES = ['BTC', 'ETH', 'USDT', 'USDTTRC', 'USDTBSC', 'BNB', 'XMR', 'LINK'];
export const POPULAR_LIMIT = 7;

/** Network badges (§2). */
export const NETWORK_BADGES: Record<string, string> = { ETH: 'ERC20', BSC: 'BEP20', TRX: 'TRC20' };

/** Coins whose address message and memo warning differ (§5). */
export const MEMO_COINS = ['XLM', 'ATOM', 'EOS', 'TWTBSC'];

/** Coin URI prefixes stripped from scanned QR text (§5). */
export const INITIAL_PAIR = { from: 'BTC', to: 'ETH' } as const;
export const HOME_PAIR = { from: 'BTC', to: 'USDTBSC' } as const;
export const NEW_EXCHANGE_AMOUNT = '0.01';

// The coins the widget opens with (INITIAL_PAIR, HOME_PAIR), so its first paint and the pages
// prerendered at build time name them before the server's list arrives. The whole catalogue
// would not fit the landing page's script budget; a test keeps these equal to its entries.
import type { Currency } from '../types';

export const STARTING_CURRENCIES: Currency[] = [
  {
    code: 'BTC',
    coin: 'BTC',
    name: 'Bitcoin',
    network: 'BTC',
    networkName: 'Bitcoin',
    tag: null,
    precision: 8,
    logo: 'btc',
    color: '#f7931a',
    priority: 100,
    send: 1,
    recv: 1,
  },
  {
    code: 'ETH',
    coin: 'ETH',
    name: 'Ethereum',
    network: 'ETH',
    networkName: 'Ethereum',
    tag: null,
    precision: 8,
    logo: 'eth',
    color: '#627eea',
    priority: 99,
    send: 1,
    recv: 1,
  },
  {
    code: 'USDTBSC',
    coin: 'USDT',
    name: 'Tether',
    network: 'BSC',
    networkName: 'BNB Smart Chain (BEP20)',
    tag: null,
    precision: 6,
    logo: 'usdt',
    color: '#26a17b',
    priority: 96,
    send: 1,
    recv: 1,
  },
];

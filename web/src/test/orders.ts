// An order as `GET /api/order-details/{id}` answers it, for component tests.
import type { Order } from '@/features/exchange/types';

export function fakeOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: 'ABCDEFGHJKLMNPQR',
    token: 'order-token',
    status: 'NEW',
    type: 'float',
    direction: 'from',
    progress: 20,
    rate: '40.790296',
    from: {
      amount: '0.01',
      code: 'BTC',
      coin: 'BTC',
      network: 'BTC',
      address: 'bc1qdeposit00000000000000000000000000000',
      tag: null,
      tagName: null,
      usd: '600.00',
      received: null,
    },
    to: {
      amount: '0.40334444',
      code: 'ETH',
      coin: 'ETH',
      network: 'ETH',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      tag: null,
      tagName: null,
      usd: '597.00',
      sent: null,
    },
    refund: { address: null, tag: null, amount: null },
    emergency: null,
    time: {
      reg: 1_795_400_000,
      expiration: 1_795_401_800,
      left: 1800,
      rateExpiration: null,
      update: 1_795_400_000,
      finish: null,
    },
    metadata: null,
    transactions: { deposit: null, payout: null, refund: null },
    ...overrides,
  };
}

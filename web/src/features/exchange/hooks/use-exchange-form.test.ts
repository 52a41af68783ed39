import { describe, expect, it } from 'vitest';

import { exchangeFormReducer, initialExchangeForm } from './use-exchange-form';

const start = initialExchangeForm('BTC', 'ETH');

describe('the swap form reducer', () => {
  it('applies an address verdict only to the address it was asked about', () => {
    const typed = exchangeFormReducer(start, { type: 'addressChanged', value: '0xabc' });
    const replaced = exchangeFormReducer(typed, { type: 'addressChanged', value: '0xdef' });
    const late = exchangeFormReducer(replaced, {
      type: 'addressChecked',
      address: '0xabc',
      problem: { kind: 'checksum' },
    });
    expect(late.addressProblem).toBeNull();
    const current = exchangeFormReducer(replaced, {
      type: 'addressChecked',
      address: ' 0xdef ',
      problem: { kind: 'invalid' },
    });
    expect(current.addressProblem).toEqual({ kind: 'invalid' });
  });

  it("drops a swap's default amount once the customer typed one", () => {
    const swapped = exchangeFormReducer(start, { type: 'swapped' });
    expect([swapped.from, swapped.to, swapped.sendAmount]).toEqual(['ETH', 'BTC', '']);
    const typed = exchangeFormReducer(swapped, { type: 'sendAmountTyped', value: '3' });
    const due = exchangeFormReducer(typed, { type: 'swapDefaultDue', amount: '0.5' });
    expect(due.sendAmount).toBe('3');
    const untouched = exchangeFormReducer(swapped, { type: 'swapDefaultDue', amount: '0.5' });
    expect(untouched.sendAmount).toBe('0.5');
  });

  it('choosing the other side’s coin swaps the pair', () => {
    expect(exchangeFormReducer(start, { type: 'fromChosen', code: 'ETH' })).toMatchObject({
      from: 'ETH',
      to: 'BTC',
    });
  });
});

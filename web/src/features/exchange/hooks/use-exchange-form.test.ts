import { describe, expect, it } from 'vitest';

import {
  exchangeFormReducer,
  initialExchangeForm,
  paidByInvoice,
  quoteRequestOf,
} from './use-exchange-form';

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

  describe('paid out over Lightning', () => {
    const toLightning = initialExchangeForm('USDTTRC', 'BTCLN', '100');
    const invoice = { amount: '0.0005', expiresAt: 1_795_690_978 };
    const pasted = exchangeFormReducer(toLightning, { type: 'addressChanged', value: 'lnbc500u1' });
    const checked = exchangeFormReducer(pasted, {
      type: 'addressChecked',
      address: 'lnbc500u1',
      problem: null,
      invoice,
    });

    it('is at a fixed rate, before any invoice too', () => {
      expect(paidByInvoice(toLightning, true).rateType).toBe('fixed');
      expect(paidByInvoice(toLightning, false).rateType).toBe('float');
    });

    it('quotes the amount a checked invoice asks for, as the receive amount', () => {
      expect(quoteRequestOf(paidByInvoice(checked, true))).toEqual({
        from: 'USDTTRC',
        to: 'BTCLN',
        amount: '0.0005',
        direction: 'to',
        type: 'fixed',
      });
    });

    it('forgets the invoice when the address changes, and the typed amount comes back', () => {
      const replaced = exchangeFormReducer(checked, { type: 'addressChanged', value: 'lnbc1' });
      expect(replaced.invoice).toBeNull();
      expect(quoteRequestOf(paidByInvoice(replaced, true))).toMatchObject({
        amount: '100',
        direction: 'from',
      });
    });

    it('ignores a verdict on an invoice no longer on screen', () => {
      const replaced = exchangeFormReducer(pasted, { type: 'addressChanged', value: 'lnbc2' });
      const late = exchangeFormReducer(replaced, {
        type: 'addressChecked',
        address: 'lnbc500u1',
        problem: null,
        invoice,
      });
      expect(late.invoice).toBeNull();
    });

    it('forgets the invoice when the receive coin changes', () => {
      expect(exchangeFormReducer(checked, { type: 'toChosen', code: 'ETH' }).invoice).toBeNull();
      expect(exchangeFormReducer(checked, { type: 'swapped' }).invoice).toBeNull();
    });

    it("forgets a verdict on the invoice when the send coin changes: it must outlast that coin's deposit", () => {
      expect(exchangeFormReducer(checked, { type: 'fromChosen', code: 'BTC' }).invoice).toBeNull();
      const refused = exchangeFormReducer(pasted, {
        type: 'addressChecked',
        address: 'lnbc500u1',
        problem: {
          kind: 'invoice',
          reason: 'invoice_expires_soon',
          minutes: { left: 50, needed: 60 },
        },
      });
      expect(
        exchangeFormReducer(refused, { type: 'fromChosen', code: 'BTC' }).addressProblem,
      ).toBeNull();
    });
  });
});

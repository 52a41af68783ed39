// The swap form's state (spec/exchange.md §2, §4, §5) as one reducer: every change the customer
// or an answer can make is an action, so the rules below hold whatever order things arrive in.
// - A swap clears both amounts; 0.5 s later the new send coin's default amount comes, unless
//   the customer typed an amount (or picked a coin) meanwhile.
// - An address verdict applies only to the address it was asked about.
// - Paid out over Lightning, the order is at a fixed rate, and a checked invoice sets the
//   receive amount (`paidByInvoice`): the invoice is kept, the amounts typed before it are too.
import { type Dispatch, useEffect, useReducer } from 'react';

import type { AddressProblem } from '../lib/address-rules';
import { coinOf, defaultAmountFor, NEW_EXCHANGE_AMOUNT, TIMINGS } from '../lib/constants';
import type { CheckedInvoice } from '../lib/lightning';
import type { Direction, QuoteRequest, RateType } from '../types';

export interface ExchangeFormState {
  from: string;
  to: string;
  sendAmount: string;
  receiveAmount: string;
  /** Which amount the customer typed: the other one is quoted. */
  direction: Direction;
  rateType: RateType;
  address: string;
  tag: string;
  addressProblem: AddressProblem | null;
  /** The address is a Lightning invoice the server will pay out to. */
  invoice: CheckedInvoice | null;
  /** A swap's default amount is still to come. */
  awaitingDefaultAmount: boolean;
}

export type ExchangeFormAction =
  | { type: 'sendAmountTyped'; value: string }
  | { type: 'receiveAmountTyped'; value: string }
  | { type: 'fromChosen'; code: string }
  | { type: 'toChosen'; code: string }
  | { type: 'rateTypeChosen'; rateType: RateType; quotedSendAmount: string | null }
  | { type: 'swapped' }
  | { type: 'swapDefaultDue'; amount: string }
  | { type: 'addressChanged'; value: string }
  | {
      type: 'addressChecked';
      address: string;
      problem: AddressProblem | null;
      invoice?: CheckedInvoice | null;
    }
  | { type: 'tagChanged'; value: string }
  | { type: 'reset' };

export function initialExchangeForm(
  from: string,
  to: string,
  amount: string = defaultAmountFor(coinOf(from)),
): ExchangeFormState {
  return {
    from,
    to,
    sendAmount: amount,
    receiveAmount: '',
    direction: 'from',
    rateType: 'float',
    address: '',
    tag: '',
    addressProblem: null,
    invoice: null,
    awaitingDefaultAmount: false,
  };
}

export function exchangeFormReducer(
  state: ExchangeFormState,
  action: ExchangeFormAction,
): ExchangeFormState {
  switch (action.type) {
    case 'sendAmountTyped':
      return {
        ...state,
        sendAmount: action.value,
        direction: 'from',
        awaitingDefaultAmount: false,
      };
    case 'receiveAmountTyped':
      return {
        ...state,
        receiveAmount: action.value,
        direction: 'to',
        awaitingDefaultAmount: false,
      };
    case 'fromChosen':
      return {
        ...state,
        from: action.code,
        // Choosing the receive coin as the send coin swaps them.
        to: action.code === state.to ? state.from : state.to,
        // An invoice's verdict depends on the send coin (it must outlast its deposit).
        invoice: null,
        addressProblem: state.addressProblem?.kind === 'invoice' ? null : state.addressProblem,
        awaitingDefaultAmount: false,
      };
    case 'toChosen':
      return {
        ...state,
        to: action.code,
        from: action.code === state.from ? state.to : state.from,
        addressProblem: null,
        invoice: null,
      };
    case 'rateTypeChosen':
      // A float rate quotes from the send amount: keep the amount the fixed quote asked for.
      if (action.rateType === 'float' && state.direction === 'to') {
        return {
          ...state,
          rateType: 'float',
          direction: 'from',
          sendAmount: action.quotedSendAmount ?? state.sendAmount,
        };
      }
      return { ...state, rateType: action.rateType };
    case 'swapped':
      return {
        ...state,
        from: state.to,
        to: state.from,
        sendAmount: '',
        receiveAmount: '',
        direction: 'from',
        addressProblem: null,
        invoice: null,
        awaitingDefaultAmount: true,
      };
    case 'swapDefaultDue':
      return state.awaitingDefaultAmount
        ? { ...state, sendAmount: action.amount, awaitingDefaultAmount: false }
        : state;
    case 'addressChanged':
      return { ...state, address: action.value, addressProblem: null, invoice: null };
    case 'addressChecked':
      // A verdict about an address the customer has since changed is stale.
      return action.address.trim() === state.address.trim()
        ? { ...state, addressProblem: action.problem, invoice: action.invoice ?? null }
        : state;
    case 'tagChanged':
      return { ...state, tag: action.value };
    case 'reset':
      return {
        ...state,
        sendAmount: NEW_EXCHANGE_AMOUNT,
        receiveAmount: '',
        direction: 'from',
        address: '',
        tag: '',
        addressProblem: null,
        invoice: null,
        awaitingDefaultAmount: false,
      };
  }
}

/**
 * The form as the order will be made when the receive coin is paid out over Lightning: at a
 * fixed rate (an invoice is paid exactly), and once an invoice is checked, for its amount.
 */
export function paidByInvoice(state: ExchangeFormState, lightning: boolean): ExchangeFormState {
  if (!lightning) return state;
  const fixed: ExchangeFormState = { ...state, rateType: 'fixed' };
  return state.invoice ? { ...fixed, receiveAmount: state.invoice.amount, direction: 'to' } : fixed;
}

/** What to quote: the typed amount, in the direction it was typed. */
export function quoteRequestOf(state: ExchangeFormState): QuoteRequest {
  return {
    from: state.from,
    to: state.to,
    amount: state.direction === 'from' ? state.sendAmount : state.receiveAmount,
    direction: state.direction,
    type: state.rateType,
  };
}

/**
 * The form's state and its dispatch. `coinOfCode` names the ticker of a currency code, for the
 * default amount a swap brings.
 */
export function useExchangeForm(
  initialFrom: string,
  initialTo: string,
  coinOfCode: (code: string) => string,
  initialAmount?: string,
): [ExchangeFormState, Dispatch<ExchangeFormAction>] {
  const [state, dispatch] = useReducer(exchangeFormReducer, undefined, () =>
    initialExchangeForm(initialFrom, initialTo, initialAmount),
  );
  const { awaitingDefaultAmount, from } = state;
  const coin = coinOfCode(from);
  useEffect(() => {
    if (!awaitingDefaultAmount) return;
    const timer = setTimeout(
      () => dispatch({ type: 'swapDefaultDue', amount: defaultAmountFor(coin) }),
      TIMINGS.swapDelayMs,
    );
    return () => clearTimeout(timer);
  }, [awaitingDefaultAmount, coin]);
  return [state, dispatch];
}

// What the swap form asks the server to create (spec/exchange.md §5, §7), once its checks pass.
// Loaded when the customer starts filling the form in (exchange-widget), not with the landing
// page.
import type { TFunction } from 'i18next';

import { notify } from '@/components/ui/toaster';

import type { CreateOrderInput } from '../api/create-order';
import type { ExchangeFormAction, ExchangeFormState } from '../hooks/use-exchange-form';
import type { Currency, Quote } from '../types';
import { checkAddress, needsMemo } from './address-rules';
import { toNumber } from './amount';

/**
 * The order to ask for, or null after telling the customer what is missing (§5): amount and
 * address, an open network, the maximum; a missing memo only warns.
 */
export function orderInput(
  state: ExchangeFormState,
  quote: Quote | null,
  from: Currency,
  to: Currency,
  maxExceeded: boolean,
  dispatch: (action: ExchangeFormAction) => void,
  t: TFunction,
  missingToast: { current: number | null },
): CreateOrderInput | null {
  const amount = state.direction === 'from' ? state.sendAmount : state.receiveAmount;
  const address = state.address.trim();
  if (!toNumber(amount) || !address) {
    missingToast.current = notify(t('toast.missingInfo'), {
      description: t('toast.missingInfoDescription'),
      variant: 'destructive',
    });
    if (!address) dispatch({ type: 'addressChecked', address, problem: checkAddress(to, '') });
    return null;
  }
  if (from.send === 0 || to.recv === 0) {
    notify(t('toast.suspended'), { variant: 'destructive' });
    return null;
  }
  if (maxExceeded) return null;
  const problem = checkAddress(to, address);
  if (problem) {
    dispatch({ type: 'addressChecked', address, problem });
    return null;
  }
  const tag = state.tag.trim();
  if (needsMemo(to) && !tag) {
    notify(t('toast.missingMemo'), {
      description: t('toast.missingMemoDescription', { coin: to.coin }),
      variant: 'warning',
    });
  }
  return {
    fromCcy: from.code,
    toCcy: to.code,
    amount,
    toAddress: address,
    // The refund address defaults to the destination (§5) where it is one on the send coin's
    // network too; elsewhere the refund choice asks for one (the server refuses a wrong one).
    ...(checkAddress(from, address) === null ? { refundAddress: address } : {}),
    direction: state.direction,
    type: state.rateType,
    ...(tag ? { tag } : {}),
    // A fixed amount is a promise: the server makes the order only for the amount on screen.
    ...(state.rateType === 'fixed' && state.direction === 'from' && quote && !quote.estimated
      ? { expectedToAmount: quote.to.amount }
      : {}),
    // Only figures quoted for exactly this request go into the order.
    metadata: JSON.stringify({
      from_usd_value: quote?.from.usd ?? null,
      to_usd_value: quote?.to.usd ?? null,
    }),
  };
}

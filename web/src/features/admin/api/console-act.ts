// An act of the console (on an order, an account, a payout, an operator): a console call sent
// with its dialog's or form's Idempotency-Key, so a retry (or the same call made again after
// the console was unlocked) carries it out once. A refusal is a 4xx `{error}`.
import { api } from '@/lib/api-client';

import { consoleCall } from '../lib/console-lock';

/** What an act that needs only a reason sends. */
export interface ReasonInput {
  reason: string;
  idempotencyKey: string;
}

/** `{method} {path}` with `body`, once per `idempotencyKey`. */
export const consoleAct = <T>(
  path: string,
  method: 'POST' | 'PUT',
  body: unknown,
  idempotencyKey: string,
) =>
  consoleCall(() =>
    api.request<T>(path, {
      method,
      body: JSON.stringify(body),
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );

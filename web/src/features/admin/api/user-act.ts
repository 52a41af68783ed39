// `POST /api/admin/users/{id}/lock|unlock|sign-out` `{reason}`: an operator locks an account
// (its sessions end, and no sign-in opens one until it is unlocked), unlocks it, or signs it
// out everywhere (`{sessions_ended}`; it may sign in again). A lock also ends the links the
// account was sent by e-mail and revokes its API keys for good (`api_keys_revoked`). Never
// one's own account, and an account with a role only by a role above it (an owner's by an
// owner). Sent with the dialog's Idempotency-Key; once done, the account and the searches it
// showed in are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { UserRow } from '../types';
import { consoleAct, type ReasonInput } from './console-act';
import { accountQueryOptions } from './get-user';

export type UserAct = 'lock' | 'unlock' | 'sign-out';

/** What an act answers; a retry of an act already done answers `{audit_id, replayed}` only. */
export interface UserActResult {
  user?: UserRow;
  /** A lock: how many of its API keys were revoked. */
  api_keys_revoked?: number;
  /** A sign-out: how many sessions ended. */
  sessions_ended?: number;
  replayed?: boolean;
}

export const actOnUser = (id: string, act: UserAct, { idempotencyKey, ...body }: ReasonInput) =>
  consoleAct<UserActResult>(
    `/api/admin/users/${encodeURIComponent(id)}/${act}`,
    'POST',
    body,
    idempotencyKey,
  );

export function useUserAct(id: string, act: UserAct) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReasonInput) => actOnUser(id, act, input),
    meta: { private: true },
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: [accountQueryOptions(id).queryKey[0]] }),
  });
}

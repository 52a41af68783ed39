// `POST /api/login` and `POST /api/two-factor/login` (spec/accounts-and-pages.md §3, §7).
import { api } from '@/lib/api-client';

import type { SignedIn } from './session';

export interface LoginInput {
  username: string;
  password: string;
  remember: boolean;
}

/** The password step needs a second factor: the code step presents `challenge`. */
export interface SecondFactorRequired {
  requires_2fa: true;
  user_id: string;
  /** The account's e-mail (answered to a social sign-in, whose form had none). */
  email?: string;
  challenge?: string;
}

export type LoginAnswer = SignedIn | SecondFactorRequired;

export function login(input: LoginInput): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/api/login', input);
}

export function needsSecondFactor(answer: LoginAnswer): answer is SecondFactorRequired {
  return 'requires_2fa' in answer && answer.requires_2fa;
}

export interface TwoFactorInput {
  username: string;
  code: string;
  challenge?: string;
}

export function loginWithCode(input: TwoFactorInput): Promise<Partial<SignedIn>> {
  return api.post<Partial<SignedIn>>('/api/two-factor/login', input);
}

/**
 * Exchanges the one-time code a social sign-in hands back for a session — or, for an account
 * with two-factor authentication, for the code step.
 */
export function redeemSocialSignIn(code: string): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/api/auth/exchange', { code });
}

// `POST /api/register` (spec/accounts-and-pages.md §7): the e-mail doubles as username.
import { api } from '@/lib/api-client';

import type { SignedIn } from './session';

export interface RegisterInput {
  full_name: string;
  email: string;
  password: string;
  confirm_password: string;
  referral_code?: string;
  /** The language the visitor reads the site in: their mails are written in it. */
  language?: string;
}

export function register(input: RegisterInput): Promise<SignedIn> {
  return api.post<SignedIn>('/api/register', { ...input, username: input.email });
}

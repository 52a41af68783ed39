// Password reset by e-mail (spec/accounts-and-pages.md §2.10, §2.11, §7).
import { api } from '@/lib/api-client';

export function requestPasswordReset(email: string): Promise<{ message?: string }> {
  return api.post('/api/email/password/forgot', { email });
}

/** Whether a reset link can still be used, without using it. */
export function checkResetToken(token: string): Promise<{ valid: boolean }> {
  return api.post('/api/email/password/check', { token });
}

export function resetPassword(input: {
  token: string;
  password: string;
  confirm_password: string;
}): Promise<{ message?: string }> {
  return api.post('/api/email/password/reset', input);
}

/** The error value the server gives for an expired reset link (spec §8). */
export const RESET_TOKEN_EXPIRED = 'Reset token expired';

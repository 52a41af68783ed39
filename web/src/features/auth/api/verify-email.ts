// `POST /api/email/verification/verify` (spec/accounts-and-pages.md §2.12, §7).
import { api } from '@/lib/api-client';

export function verifyEmail(token: string): Promise<{ email: string; message?: string }> {
  return api.post('/api/email/verification/verify', { token });
}

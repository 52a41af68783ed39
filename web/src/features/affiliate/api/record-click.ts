import { api } from '@/lib/api-client';

/** `POST /api/affiliate/click`; the answer is ignored and failures are only logged (§7). */
export async function recordAffiliateClick(referralCode: string, source: string): Promise<void> {
  try {
    await api.post('/api/affiliate/click', { referral_code: referralCode, source });
  } catch (error) {
    console.warn('Could not record the referral click', error);
  }
}

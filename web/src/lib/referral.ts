// The referral code a visitor arrived with (spec/accounts-and-pages.md §4.6): kept under
// `referralCode` until sign-up, and sent with orders so their partner is credited.

export const REFERRAL_CODE_KEY = 'referralCode';

export function storedReferralCode(): string | null {
  try {
    return localStorage.getItem(REFERRAL_CODE_KEY);
  } catch {
    return null;
  }
}

export function storeReferralCode(code: string): void {
  try {
    localStorage.setItem(REFERRAL_CODE_KEY, code);
  } catch {
    // Storage unavailable: the click is still reported.
  }
}

export function forgetReferralCode(): void {
  try {
    localStorage.removeItem(REFERRAL_CODE_KEY);
  } catch {
    // Storage unavailable: nothing was saved.
  }
}

// A `?ref=` parameter on any page is stored as referralCode and reported once (§4.6).
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { recordAffiliateClick, REFERRAL_CODE_KEY } from '../api/record-click';

export function useReferralCapture(): void {
  const [params] = useSearchParams();
  const ref = params.get('ref');
  useEffect(() => {
    if (!ref) return;
    try {
      localStorage.setItem(REFERRAL_CODE_KEY, ref);
    } catch {
      // Storage unavailable: the click is still reported.
    }
    void recordAffiliateClick(ref, document.referrer || 'direct');
  }, [ref]);
}

// A `?ref=` parameter on any page is stored as referralCode and reported once (§4.6).
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { storeReferralCode } from '@/lib/referral';

import { recordAffiliateClick } from '../api/record-click';

export function useReferralCapture(): void {
  const [params] = useSearchParams();
  const ref = params.get('ref');
  useEffect(() => {
    if (!ref) return;
    storeReferralCode(ref);
    void recordAffiliateClick(ref, document.referrer || 'direct');
  }, [ref]);
}

// Copying to the clipboard with feedback either way: "Copied" for two seconds and the caller's
// toast, or a failure toast saying to copy by hand (never silent, never "Paste failed").
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { notify } from '@/components/ui/toaster';

/** How long a copy button says "Copied" (spec/exchange.md §9). */
export const COPY_FEEDBACK_MS = 2000;

export function useCopy() {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = useCallback(
    async (text: string, successMessage?: string): Promise<boolean> => {
      try {
        if (!navigator.clipboard) throw new Error('No clipboard in this context');
        await navigator.clipboard.writeText(text);
      } catch (error) {
        console.warn('Copy failed', error);
        setCopied(false);
        notify(t('copy.copyFailed'), {
          description: t('copy.copyFailedDescription'),
          variant: 'destructive',
        });
        return false;
      }
      setCopied(true);
      notify(successMessage ?? t('copy.copied'));
      return true;
    },
    [t],
  );

  return { copied, copy };
}

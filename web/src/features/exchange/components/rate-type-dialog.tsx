// 'What's the difference?' (spec/exchange.md §2): the button is in the widget, the dialog
// loads when first opened (it is not part of the landing page's first screen).
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { lazyWithTexts } from '@/lib/i18n';

const RateTypeExplanation = lazyWithTexts(() => import('./rate-type-explanation'));

export function RateTypeDialog({ floatFee, fixedFee }: { floatFee: string; fixedFee: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <button
        type="button"
        className="inline-flex min-h-11 items-center text-sm font-medium text-teal-800 underline underline-offset-2"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        {t('exchange.difference')}
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <RateTypeExplanation
            open={open}
            onClose={() => setOpen(false)}
            floatFee={floatFee}
            fixedFee={fixedFee}
          />
        </Suspense>
      ) : null}
    </>
  );
}

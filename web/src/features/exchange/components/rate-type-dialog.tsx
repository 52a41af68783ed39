// 'What's the difference?' (spec/exchange.md §2), on the browser's own modal dialog.
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';

export function RateTypeDialog({ floatFee, fixedFee }: { floatFee: string; fixedFee: string }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className="text-sm font-medium text-teal-800 underline underline-offset-2"
        onClick={() => dialog.current?.showModal()}
      >
        {t('exchange.difference')}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="rate-type-title"
        className="m-auto max-w-md rounded-xl p-0 backdrop:bg-slate-900/50"
      >
        <div className="space-y-3 p-6">
          <h2 id="rate-type-title" className="text-lg font-semibold">
            {t('exchange.differenceTitle')}
          </h2>
          <p className="text-sm text-slate-700">
            {t('exchange.differenceFloat', { fee: floatFee })}
          </p>
          <p className="text-sm text-slate-700">
            {t('exchange.differenceFixed', { fee: fixedFee })}
          </p>
          <div className="flex justify-end">
            <Button variant="outline" onClick={() => dialog.current?.close()}>
              {t('exchange.close')}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

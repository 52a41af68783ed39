// The float-or-fixed explanation, in a dialog (loaded by rate-type-dialog.tsx when asked for).
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatPercent } from '@/lib/format';

export default function RateTypeExplanation({
  open,
  onClose,
  floatFee,
  fixedFee,
}: {
  open: boolean;
  onClose: () => void;
  floatFee: string;
  fixedFee: string;
}) {
  const { t, i18n } = useTranslation();
  const percent = (fee: string) => formatPercent(fee, i18n.language);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('exchange.differenceTitle')}
      className="max-w-md"
      footer={
        <Button variant="outline" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      <p className="text-sm text-slate-700">
        {t('exchange.differenceFloat', { fee: percent(floatFee) })}
      </p>
      <p className="text-sm text-slate-700">
        {t('exchange.differenceFixed', { fee: percent(fixedFee) })}
      </p>
    </Dialog>
  );
}

// A fixed quote moved between the screen and the order: the new receive amount, confirmed by
// the customer before any order is made. Loaded when it is needed.
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatAmount } from '@/lib/format';

export default function AmountChangedDialog({
  shown,
  now,
  coin,
  onConfirm,
  onCancel,
}: {
  /** The receive amount the customer was shown, and the one the order would now give. */
  shown: string;
  now: string;
  coin: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const amount = (value: string) => `${formatAmount(value, i18n.language)} ${coin}`;
  return (
    <Dialog
      open
      onClose={onCancel}
      title={t('exchange.amountChanged.title')}
      description={t('exchange.amountChanged.text', { shown: amount(shown), now: amount(now) })}
      footer={
        <>
          <Button variant="outline" data-autofocus onClick={onCancel}>
            {t('exchange.amountChanged.cancel')}
          </Button>
          <Button onClick={onConfirm}>
            {t('exchange.amountChanged.confirm', { amount: amount(now) })}
          </Button>
        </>
      }
    >
      <p data-testid="new-receive-amount" className="text-2xl font-semibold break-all">
        {amount(now)}
      </p>
    </Dialog>
  );
}

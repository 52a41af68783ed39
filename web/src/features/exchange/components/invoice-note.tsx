// Under a Lightning invoice in the widget: what it asks for once the server has checked it, else
// how to make one. Loaded only when the receive coin is paid out over Lightning.
import { useTranslation } from 'react-i18next';

import { formatAmount, formatTime } from '@/lib/format';

import type { CheckedInvoice } from '../lib/lightning';

export default function InvoiceNote({
  id,
  invoice,
  coin,
}: {
  id: string;
  invoice: CheckedInvoice | null;
  coin: string;
}) {
  const { t, i18n } = useTranslation();
  if (!invoice) {
    return (
      <p id={id} className="mt-1 text-xs text-slate-600">
        {t('exchange.lightning.invoiceHint')}
      </p>
    );
  }
  return (
    <p id={id} role="status" className="mt-1 text-sm font-medium text-emerald-700">
      {t('exchange.lightning.invoiceChecked', {
        amount: formatAmount(invoice.amount, i18n.language),
        coin,
        time: formatTime(invoice.expiresAt, i18n.language),
      })}
    </p>
  );
}

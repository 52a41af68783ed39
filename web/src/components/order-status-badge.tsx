// An order's status as a badge, in the reader's language (spec/accounts-and-pages.md §4.2).
import { useTranslation } from 'react-i18next';

import { Badge } from '@/components/ui/badge';
import { isOrderStatus, statusTone } from '@/lib/order-status';

export function OrderStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const upper = status.toUpperCase();
  return (
    <Badge data-testid="order-status" tone={statusTone(upper)}>
      {isOrderStatus(upper) ? t(`order.status.${upper}`) : status}
    </Badge>
  );
}

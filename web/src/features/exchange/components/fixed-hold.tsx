// A fixed quote's hold: how long the amount on screen stands before it is asked again (it is
// refreshed then, or at a tap), and that the order locks it. Loaded when a fixed rate is chosen.
import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FIXED_QUOTE_HOLD_MS } from '../hooks/use-live-quote';

export default function FixedHold({
  fetchedAt,
  onRefresh,
}: {
  fetchedAt: number;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((fetchedAt + FIXED_QUOTE_HOLD_MS - now) / 1000));
  return (
    <div className="mt-1 flex items-center justify-between gap-2 text-xs text-slate-700">
      <span data-testid="fixed-hold">
        {t('exchange.fixedHold', { time: `0:${String(left).padStart(2, '0')}` })}
      </span>
      <button
        type="button"
        onClick={onRefresh}
        aria-label={t('exchange.refreshQuote')}
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-teal-800 hover:bg-slate-100"
      >
        <RefreshCw aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

// Pieces shared by the order-created view and the order page.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { progressOf } from '@/lib/order-status';

export function ProgressBar({ status }: { status: string }) {
  const { t } = useTranslation();
  const value = progressOf(status);
  return (
    <div
      role="progressbar"
      aria-label={t('order.progress')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className="h-full rounded-full bg-teal-600 transition-all"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}

/** Seconds left until `deadline` (Unix seconds), ticking every second. */
export function useSecondsLeft(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor(deadline - now / 1000));
}

/** `m:ss` of a number of seconds. */
export function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Time left until `deadline`, under its name: the deposit window ("Time remaining") or a fixed
 * rate's lock — each says which it is, and what its end means.
 */
export function Countdown({
  deadline,
  label,
  endedText,
  testId,
}: {
  deadline: number;
  label?: string;
  endedText?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const left = useSecondsLeft(deadline);
  return (
    <div className="text-right" data-testid={testId}>
      <p className="text-xs text-slate-600">{label ?? t('order.timeLeft')}</p>
      <p className="font-mono text-lg font-semibold" aria-live="off">
        {left > 0 ? clock(left) : (endedText ?? t('order.expired'))}
      </p>
    </div>
  );
}

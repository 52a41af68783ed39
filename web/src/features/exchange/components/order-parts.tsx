// Pieces shared by the order-created view and the order page.
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { notify } from '@/components/ui/toaster';
import { cn } from '@/lib/utils';

import { TIMINGS } from '../lib/constants';

/** The progress of spec/exchange.md §4: NEW 20, CONFIRMING 40, EXCHANGE 60, SENDING 80, COMPLETED 100. */
export function progressOf(status: string): number {
  return { NEW: 20, CONFIRMING: 40, EXCHANGE: 60, SENDING: 80, COMPLETED: 100 }[status] ?? 20;
}

const BADGE_TONES: Record<string, string> = {
  COMPLETED: 'bg-emerald-100 text-emerald-900',
  REFUNDED: 'bg-slate-200 text-slate-800',
  EXPIRED: 'bg-slate-200 text-slate-800',
  FAILED: 'bg-red-100 text-red-900',
  EMERGENCY: 'bg-amber-100 text-amber-950',
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = [
    'NEW',
    'CONFIRMING',
    'EXCHANGE',
    'SENDING',
    'COMPLETED',
    'EXPIRED',
    'EMERGENCY',
    'REFUNDED',
    'FAILED',
  ] as const;
  const label = (known as readonly string[]).includes(status)
    ? t(`order.status.${status as (typeof known)[number]}`)
    : status;
  return (
    <span
      data-testid="order-status"
      className={cn(
        'rounded-full px-2.5 py-1 text-xs font-semibold',
        BADGE_TONES[status] ?? 'bg-teal-100 text-teal-900',
      )}
    >
      {label}
    </span>
  );
}

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

export function Countdown({ deadline }: { deadline: number }) {
  const { t } = useTranslation();
  const left = useSecondsLeft(deadline);
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, '0');
  return (
    <div className="text-right">
      <p className="text-xs text-slate-600">{t('order.timeLeft')}</p>
      <p className="font-mono text-lg font-semibold" aria-live="off">
        {left > 0 ? `${minutes}:${seconds}` : t('order.expired')}
      </p>
    </div>
  );
}

/** A copy button with 2 s of "Copied" feedback and its toast. */
export function CopyButton({ value, what, toast }: { value: string; what: string; toast: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), TIMINGS.copyFeedbackMs);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      aria-label={copied ? t('order.copied') : t('order.copy', { what })}
      className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
      onClick={() => {
        void navigator.clipboard
          ?.writeText(value)
          .then(() => {
            setCopied(true);
            notify(toast);
          })
          .catch(() =>
            notify(t('toast.pasteFailed'), {
              description: t('toast.pasteFailedDescription'),
              variant: 'destructive',
            }),
          );
      }}
    >
      {copied ? (
        <Check aria-hidden="true" className="size-4 text-emerald-700" />
      ) : (
        <Copy aria-hidden="true" className="size-4" />
      )}
    </button>
  );
}

export function formatTime(unixSeconds: number | null | undefined, language: string): string {
  if (!unixSeconds) return '—';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(unixSeconds * 1000),
  );
}

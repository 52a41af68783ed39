// Toasts (spec/exchange.md §9): one visible at a time — a newer toast replaces the current
// one. Small enough to live in the landing page's bundle (a toast library alone weighed ~9 KB
// gzip, most of the budget's remaining room).
import { X } from 'lucide-react';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

import { cn } from '@/lib/utils';

export const TOAST_LIMIT = 1;
const DURATION_MS = 5000;

type Variant = 'default' | 'destructive' | 'success' | 'warning';

interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: Variant;
}

let current: Toast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(toast: Toast | null) {
  current = toast;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast with a title and an optional description; `destructive` for failures. */
export function notify(
  title: string,
  { description, variant = 'default' }: { description?: string; variant?: Variant } = {},
): void {
  emit({ id: nextId++, title, variant, ...(description ? { description } : {}) });
}

export function dismissToast(): void {
  emit(null);
}

const TONES: Record<Variant, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  warning: 'border-amber-300 bg-amber-50 text-amber-950',
  destructive: 'border-red-300 bg-red-50 text-red-950',
};

export function Toaster() {
  const { t } = useTranslation();
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => {
      if (current?.id === toast.id) emit(null);
    }, DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex justify-center px-4"
    >
      {toast ? (
        <div
          key={toast.id}
          role={toast.variant === 'destructive' ? 'alert' : 'status'}
          data-toast=""
          data-variant={toast.variant}
          className={cn(
            'pointer-events-auto flex w-full max-w-sm gap-3 rounded-xl border p-4 shadow-lg',
            TONES[toast.variant],
          )}
        >
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold">{toast.title}</p>
            {toast.description ? (
              <p className="mt-1 text-sm opacity-90">{toast.description}</p>
            ) : null}
          </div>
          <button
            type="button"
            aria-label={t('common.close')}
            onClick={dismissToast}
            className="shrink-0 rounded p-1 opacity-70 hover:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ) : null}
    </div>
  );
}

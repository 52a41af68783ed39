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

/**
 * Shows a toast with a title and an optional description; `destructive` for failures. Returns
 * its id: a toast about a cause that can go away (a wrong amount, a failed call) is dismissed
 * with it when the cause is gone.
 */
export function notify(
  title: string,
  { description, variant = 'default' }: { description?: string; variant?: Variant } = {},
): number {
  const id = nextId++;
  emit({ id, title, variant, ...(description ? { description } : {}) });
  return id;
}

/** Dismisses the toast `id` if it still shows (a newer one stays), or whatever shows. */
export function dismissToast(id?: number): void {
  if (id === undefined || current?.id === id) emit(null);
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
    // At the bottom of the screen (the right-hand corner on wider ones): never over the logo,
    // the menu or the sandbox banner.
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-[max(1rem,env(safe-area-inset-bottom))] z-[100] flex justify-center px-4 sm:justify-end"
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
            onClick={() => dismissToast()}
            className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded opacity-70 hover:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ) : null}
    </div>
  );
}

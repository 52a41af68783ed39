// Toasts (spec/exchange.md §9): one visible at a time.
import { Toaster as Sonner, toast } from 'sonner';

export const TOAST_LIMIT = 1;

export function Toaster() {
  return <Sonner visibleToasts={TOAST_LIMIT} position="top-center" richColors closeButton />;
}

/** A toast with a title and an optional description; `destructive` for failures. */
export function notify(
  title: string,
  {
    description,
    variant = 'default',
  }: { description?: string; variant?: 'default' | 'destructive' | 'success' | 'warning' } = {},
): void {
  const options = description ? { description } : undefined;
  if (variant === 'destructive') toast.error(title, options);
  else if (variant === 'success') toast.success(title, options);
  else if (variant === 'warning') toast.warning(title, options);
  else toast(title, options);
}

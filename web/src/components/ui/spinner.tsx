import { cn } from '@/lib/utils';

export function Spinner({ className, label }: { className?: string; label: string }) {
  return (
    <div role="status" aria-live="polite" className={cn('flex justify-center py-16', className)}>
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-4 border-teal-600 border-t-transparent"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}

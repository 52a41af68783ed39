// A boxed message: an error (announced at once), a warning, a notice or a success.
import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';

import { cn } from '@/lib/utils';

const alertVariants = cva('rounded-lg border p-3 text-sm', {
  variants: {
    tone: {
      error: 'border-red-200 bg-red-50 text-red-800',
      warning: 'border-amber-200 bg-amber-50 text-amber-950',
      info: 'border-teal-200 bg-teal-50 text-teal-900',
      neutral: 'border-slate-200 bg-slate-100 text-slate-800',
    },
  },
  defaultVariants: { tone: 'info' },
});

type AlertProps = HTMLAttributes<HTMLDivElement> & VariantProps<typeof alertVariants>;

export function Alert({ tone, className, role, ...props }: AlertProps) {
  return (
    <div
      role={role ?? (tone === 'error' ? 'alert' : 'status')}
      className={cn(alertVariants({ tone }), className)}
      {...props}
    />
  );
}

// A small label: a status, a permission, a network. One shape, a few tones.
import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';

import { cn } from '@/lib/utils';

export const badgeVariants = cva('inline-flex items-center font-semibold', {
  variants: {
    tone: {
      neutral: 'bg-slate-100 text-slate-800',
      muted: 'bg-slate-200 text-slate-800',
      info: 'bg-teal-100 text-teal-900',
      success: 'bg-emerald-100 text-emerald-900',
      warning: 'bg-amber-100 text-amber-950',
      danger: 'bg-red-100 text-red-900',
      /** Loud: something the reader must not miss (a required deposit tag). */
      attention: 'bg-amber-600 font-bold text-white',
    },
    size: {
      md: 'rounded-full px-2.5 py-0.5 text-xs',
      sm: 'rounded px-1.5 py-0.5 text-[10px] uppercase',
    },
  },
  defaultVariants: { tone: 'neutral', size: 'md' },
});

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export function Badge({
  tone,
  size,
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone, size }), className)} {...props} />;
}

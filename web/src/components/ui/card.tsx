// The white rounded box most blocks of the site sit in.
import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';

import { cn } from '@/lib/utils';

export const cardVariants = cva('rounded-2xl border', {
  variants: {
    tone: {
      default: 'border-slate-200 bg-white',
      dashed: 'border-dashed border-slate-300 bg-white',
      highlight: 'border-2 border-teal-600 bg-teal-50',
      warning: 'border-amber-300 bg-amber-50',
    },
    padding: {
      none: '',
      sm: 'p-4',
      md: 'p-5',
      lg: 'p-6',
      responsive: 'p-4 sm:p-6',
      roomy: 'p-10',
    },
  },
  defaultVariants: { tone: 'default', padding: 'md' },
});

type CardProps = HTMLAttributes<HTMLElement> &
  VariantProps<typeof cardVariants> & {
    as?: 'div' | 'section' | 'li' | 'article' | 'form';
  };

export function Card({ as: Element = 'div', tone, padding, className, ...props }: CardProps) {
  return <Element className={cn(cardVariants({ tone, padding }), className)} {...props} />;
}

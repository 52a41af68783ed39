// The text input of forms; `Field` (field.tsx) labels it and wires its hint and error.
import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

export const inputClass =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500 focus:border-teal-600 focus:outline-2 focus:outline-teal-600 aria-[invalid=true]:border-red-600';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(inputClass, className)} {...props} />;
}

// A titled card: one block of an account page (profile, API keys, affiliate).
import type { ReactNode } from 'react';

import { Card } from './card';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card as="section" aria-label={title} className="sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-4 space-y-4">{children}</div>
    </Card>
  );
}

// The frame of the sign-in, sign-up and password pages.
import type { ReactNode } from 'react';

import { PageMeta } from '@/components/seo/page-meta';
import { Card } from '@/components/ui/card';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <PageMeta title={title} noindex />
      <Card padding="lg" className="shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </Card>
      {footer ? <div className="mt-6 text-center text-sm text-slate-700">{footer}</div> : null}
    </section>
  );
}

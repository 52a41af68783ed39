import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { Toaster } from '@/components/ui/toaster';

import { ErrorBoundary } from './error-boundary';

export function AppProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        {children}
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

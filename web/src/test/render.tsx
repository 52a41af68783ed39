// Renders a component tree with the app's providers, a memory router and English texts.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

import { initI18n } from '@/lib/i18n';

export async function renderRoutes(routes: RouteObject[], initialPath: string) {
  await initI18n('en');
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const result = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, client };
}

export function page(text: string): ReactElement {
  return <p>{text}</p>;
}

// The build's prerender (scripts/prerender.mjs): a page's first screen as HTML, in one language,
// so the browser paints it before any script has run; the app then hydrates it (main.tsx).
// Queries stay pending here, as in the browser's first render, so both render the same thing.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { siteConfigQueryOptions, type SiteConfig } from '@/lib/site-config';
import { initI18n } from '@/lib/i18n';
import type { LanguageCode } from '@/lib/languages';
import { createQueryClient } from '@/lib/query-client';

export { LANGUAGES } from '@/lib/languages';

const handler = createStaticHandler(routes);

/** The HTML inside `#root` for `path` in `language`, rendered with `config`. */
export async function render(
  path: string,
  language: LanguageCode,
  config: SiteConfig,
): Promise<string> {
  await initI18n(language);
  const context = await handler.query(new Request(`http://prerender${path}`));
  if (context instanceof Response) throw new Error(`${path} redirects`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const client = createQueryClient();
  client.setQueryData(siteConfigQueryOptions().queryKey, config);
  const app = (
    <StrictMode>
      <AppProvider client={client}>
        {/* No hydration data: the routes have no loaders, and an inline script would break the CSP. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>
  );
  // The first pass waits for the page's lazy chunk and texts; the second, with them at hand,
  // renders plain HTML, without the inline scripts a streamed render reveals boundaries with.
  const { prelude } = await prerender(app);
  await prelude.cancel();
  return renderToString(app);
}

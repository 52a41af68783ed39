import './index.css';

import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { createRouter } from '@/app/router';
import { initI18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

/**
 * The server writes each route's head for crawlers and link previews; once the app runs, its
 * own tags (title, description, robots, language alternates) take over, so the server's copies
 * of those go.
 */
function handOverHead() {
  for (const node of document.head.querySelectorAll('[data-server-head]')) node.remove();
}

/** How long the first render waits for the page's code before showing the layout without it. */
const PAGE_WAIT_MS = 300;

/**
 * Loads the lazy page of the first route before the first render (the server preloads its
 * chunk with the entry script), so the page paints together with the layout instead of after
 * a Suspense fallback, which React holds for a while before revealing what replaces it.
 */
async function preloadFirstPage(router: ReturnType<typeof createRouter>) {
  const pages = router.state.matches.flatMap((match) => {
    const type: unknown = (match.route.element as ReactElement | null | undefined)?.type;
    const preload = (type as { preload?: unknown } | undefined)?.preload;
    return typeof preload === 'function' ? [preload as () => Promise<void>] : [];
  });
  const loaded = Promise.all(pages.map((preload) => preload())).catch(() => undefined);
  await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, PAGE_WAIT_MS))]);
}

async function start() {
  // The page's language is loaded before the first paint: no flash of English.
  await initI18n();
  handOverHead();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  const router = createRouter();
  await preloadFirstPage(router);
  createRoot(root).render(
    <StrictMode>
      <AppProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
}

void start();

import './index.css';

import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { createRouter } from '@/app/router';
import { forgetLegacyToken } from '@/lib/auth';
import { i18n, initI18n, rememberLanguageForServer } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

/**
 * The server writes each route's head for crawlers and link previews; once the app runs, its
 * own tags (title, description, robots, language alternates) take over, so the server's copies
 * of those go.
 */
function handOverHead() {
  for (const node of document.head.querySelectorAll('[data-server-head]')) node.remove();
}

async function start() {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  // What keeps a prerendered page's typing through hydration loads beside the texts, outside
  // the entry chunk; without it the page is still taken over.
  const keeping = root.dataset.prerendered
    ? import('@/lib/typed-before-hydration').catch(() => null)
    : null;
  // The page's language is loaded before the first paint: no flash of English.
  await initI18n();
  rememberLanguageForServer();
  // The session is an HttpOnly cookie now: a token an older version stored readably goes.
  forgetLegacyToken();
  handOverHead();
  const app = (
    <StrictMode>
      <AppProvider client={createQueryClient()}>
        <RouterProvider router={createRouter()} />
      </AppProvider>
    </StrictMode>
  );
  // The server may have sent the page's first screen, prerendered in one language (src/http/
  // spa.rs): the app takes it over, with whatever was typed into it meanwhile, when that is the
  // language it resolved, else renders anew.
  if (root.dataset.prerendered && root.dataset.prerendered === i18n.resolvedLanguage) {
    (await keeping)?.keepTypedThroughHydration(root);
    hydrateRoot(root, app);
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
}

void start();

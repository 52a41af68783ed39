/// <reference types="vitest/config" />
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, minifySync, type Plugin } from 'vite';

/**
 * The pre-paint script (src/theme/theme-init.js: the theme, and clicks no code answers yet) as a
 * classic `<script>` at the end of `<head>`: the CSP forbids inline scripts, so builds emit it as
 * a hashed, immutable asset. It runs before the body is parsed, so the first paint has the chosen
 * theme.
 */
function themeInit(): Plugin {
  const source = fileURLToPath(new URL('./src/theme/theme-init.js', import.meta.url));
  let src = '/src/theme/theme-init.js';
  let code = '';
  return {
    name: 'ferry-theme-init',
    configResolved(config) {
      if (config.command !== 'build' || config.build.ssr) return;
      // Minified: it counts toward the first screen's JavaScript budget.
      const minified = minifySync('theme-init.js', readFileSync(source, 'utf8'));
      if (minified.errors.length > 0) {
        throw new Error(`theme-init.js: ${minified.errors.map((e) => e.message).join('; ')}`);
      }
      code = minified.code;
      src = `/assets/theme-${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`;
    },
    generateBundle() {
      if (code) this.emitFile({ type: 'asset', fileName: src.slice(1), source: code });
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src }, injectTo: 'head' }],
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), themeInit()],
  // The year the prerendered pages were built in (lib/use-current-year.ts).
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The currency catalogue is shared with the server: one file for both.
      '@catalogue': fileURLToPath(new URL('../catalogue/currencies.json', import.meta.url)),
      '@popular-pairs': fileURLToPath(new URL('../catalogue/popular-pairs.json', import.meta.url)),
      // React Router exports only its development build (remix-run/react-router#12532, #14753):
      // builds take its production one, without the dev-only warnings.
      ...(command === 'build'
        ? {
            'react-router': fileURLToPath(
              new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
            ),
          }
        : {}),
    },
  },
  server: {
    fs: { allow: ['..'] },
    // `make dev`: the Rust server answers the API on 8080 while Vite serves the app with HMR.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
  build: {
    // The server reads it to preload each route's chunks with the page (src/http/spa.rs).
    manifest: 'manifest.json',
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
  },
}));

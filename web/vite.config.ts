/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss()],
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

/**
 * The dashboard's build (scripts/build.mjs runs it into dist/dashboard/): Preact through Vite, every
 * asset bundled and served by the server itself under /dashboard/ (no CDN, works offline).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    emptyOutDir: true,
    // Under the dashboard's CSP (script-src 'self'): no inline script, not even the module preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built by scripts/build.mjs into dist/console; the daemon serves it at / (src/features/console/console.routes.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline scripts or data-URL modules: the page's Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});

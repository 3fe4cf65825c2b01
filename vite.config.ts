import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { precompressPlugin } from './scripts/precompress.ts';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), precompressPlugin()],
  resolve: {
    // React 19 has useSyncExternalStore: @xstate/react's imports of the pre-18 shims get React's own
    // (issue 39: ~220 B gzip less in the first load). The non-shim with-selector calls React's directly.
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'react' },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // Every browser the console supports has <link rel="modulepreload">: no polyfill in the first load (issue 39).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The first load is a few larger files, not ~40 small ones (each a round trip on a slow
        // network): every module the entry needs statically goes to `vendor` (packages; changes
        // rarely, stays cached) or `app` (our code). Lazy routes keep their own chunks.
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/v3.0': 'http://127.0.0.1:3000',
      '/v4.0': 'http://127.0.0.1:3000',
      '/api': 'http://127.0.0.1:3000',
      '/management': 'http://127.0.0.1:3000',
      '/__dev': 'http://127.0.0.1:3000',
    },
  },
});

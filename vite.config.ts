import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { precompressPlugin } from './scripts/precompress';

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), precompressPlugin()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
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

import { defineConfig } from 'vitest/config';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [vanillaExtractPlugin()],
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'machines/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['machines/test-harness/coverage-setup.ts'],
        },
      },
      {
        // Views against machine states (src/test-harness/render-view.tsx), in jsdom.
        plugins: [vanillaExtractPlugin()],
        test: {
          name: 'views',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/test-harness/setup-views.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 240_000,
          // Every file starts its own server (free port, throw-away data folder) and browser
          // (e2e/harness.ts), so files run side by side: two workers (scripts/test.sh) fill the
          // time one journey spends waiting (a scheduled publication's minute, a live page's poll).
          fileParallelism: true,
        },
      },
    ],
  },
});

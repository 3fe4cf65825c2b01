import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

/**
 * Issue 39: Vitest's default is one worker fewer than the cores, one worker on a 2-core machine, which
 * leaves a core idle once the main process has transformed the files. The unit and view tests are
 * CPU-bound and independent per file: at least two workers. (The server project keeps the default:
 * npm test runs it on PGlite and on PostgreSQL side by side, one worker each on 2 cores.)
 */
const CPU_BOUND_WORKERS = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [vanillaExtractPlugin()],
        test: {
          name: 'unit',
          maxWorkers: CPU_BOUND_WORKERS,
          // Issue 40: the media pipeline's tests use no database (ffmpeg only): here, run once, not once per database side.
          include: ['common/**/*.test.ts', 'machines/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts', 'server/media-encode/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['machines/test-harness/coverage-setup.ts'],
        },
      },
      {
        // Views against machine states (src/test-harness/render-view.tsx), in jsdom.
        plugins: [vanillaExtractPlugin()],
        test: {
          name: 'views',
          maxWorkers: CPU_BOUND_WORKERS,
          // A file's first test also pays for jsdom and the page's imports: 5 s (the default) was
          // missed under load (load 18-20) by tests that pass in 1-3 s on their own.
          testTimeout: 20_000,
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/test-harness/setup-views.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'server/media-encode/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          // Issue 39: a worker runs its files one after another in one module graph instead of
          // importing the server (Fastify, Mercurius, Drizzle, PGlite: ~3-4 s of CPU a file) again for
          // each of ~85 files: 12 files 54.5 -> 19.6 s CPU, 165 -> 70 s wall (load 16-18). Safe
          // because every file builds its own app and database (server/test/kit.ts) and none mocks a
          // module (server/test/no-module-mocks.test.ts): a vi.mock here would silently meet a module
          // another file already loaded. The whole PGlite run that stalled on revisions.test.ts (6 Dec)
          // was not this: the publish hook's video rule then read outside the bulk status's
          // transaction and waited forever on PGlite's one connection (fixed in 34aebc2); at 34aebc2^
          // revisions.test.ts alone hangs with isolation too (no result in 300 s), at 34aebc2 it
          // finishes in 45 s. Whole runs with this on: PGlite 1,160 tests, PostgreSQL 1,167, none stalled.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 90_000,
          // A file's beforeAll may make its seed setting's template (a first start: SEED_SCALE 1 seeds a
          // world) while the server tests run beside the browser stage (scripts/test.sh): at load 20-27,
          // 240 s was missed by first starts (6 Dec, issue 39). Setup time only; no test waits longer.
          hookTimeout: 420_000,
          // Every file starts its own server (free port, throw-away data folder) and browser
          // (e2e/harness.ts), so files run side by side: two workers (scripts/test.sh) fill the
          // time one journey spends waiting (a scheduled publication's minute, a live page's poll).
          fileParallelism: true,
        },
      },
    ],
  },
});

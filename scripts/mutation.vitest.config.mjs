/**
 * The vitest settings Stryker runs mutants with (stryker.config.mjs): the server project's own settings
 * (node, PGlite, its timeouts) limited to the test files scripts/mutation.mjs chose (MUTATION_TESTS).
 */
import { defineConfig } from 'vitest/config';

const include = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    name: 'server',
    include: include.length ? include : ['server/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

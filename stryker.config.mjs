/**
 * StrykerJS for one module at a time: `npm run mutation -- <file>[:lines]` (scripts/mutation.mjs) sets
 * MUTATION_MUTATE (what to mutate) and MUTATION_TESTS (the test files related to it, comma separated)
 * and runs `stryker run stryker.config.mjs`. Mutants run in a sandbox copy (never in place: other work
 * shares the tree), with the vitest runner over the server project's settings (PGlite, no services).
 * Reports go to reports/mutation/ (gitignored). Not part of `npm test`.
 */
const mutate = (process.env.MUTATION_MUTATE ?? '').split(',').filter(Boolean);
const name = process.env.MUTATION_NAME ?? 'module';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'scripts/mutation.vitest.config.mjs', related: false },
  mutate,
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  ignorePatterns: ['/data', '/dist', '/dist-server', '/e2e', '/bench', '/docs', '/public', '*.log'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};

#!/usr/bin/env node
/**
 * `npm run mutation -- <file>[:from-to[+from-to…]] [--tests a.test.ts,b.test.ts] [--concurrency n] [--incremental]`
 * `npm run mutation -- <directory>|<file>,<file>… [--tests …] [--concurrency n] [--incremental]`
 *
 * Runs StrykerJS (stryker.config.mjs) on ONE module with the tests related to it (or on several modules
 * at once: a directory's non-test .ts files, or files joined by commas, with the union of their related
 * tests; the reports builder is `server/domain/reports/build.ts,server/domain/reports/build`): the map below for the
 * modules whose guarding tests are known (a module reached only through the HTTP app is imported by
 * dozens of test files, and running them all for every mutant would take hours on two cores), else
 * the test files that import the module directly. `:from-to` limits mutation to those lines (several
 * ranges joined by +). The HTML
 * and JSON reports land in reports/mutation/<name>.html|json. Not part of `npm test`.
 *
 * Stryker cannot mutate SQL inside template strings (server/db/rollups.ts is mostly that): the
 * reconciliation tests guard the rollup SQL. The vitest runner (9.6) counts a test file that fails to
 * load as a surviving mutant: check such survivors by hand.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** The tests that guard a module (repository-relative paths; missing files are skipped). */
const RELATED = {
  // The reconciliation suite recomputes every report column from raw rows (cohorts, LTV, real time and
  // payments included), which reports.test.ts checks only in part: both guard build.ts. Slow (each
  // mutant runs the reconciliation tests that reach it): run with --incremental after a first run.
  // build.ts is the registry; the builders are in build/ by report family. report-builder.test.ts
  // recomputes every report from rollup rows given by hand (no database: the whole builder's ~940
  // mutants run in minutes); the database suites check the same reports end to end and take hours
  // under mutation: add them with --tests for a run of one family's lines.
  ...Object.fromEntries(['build', 'build/audience', 'build/engagement', 'build/playback', 'build/qos', 'build/realtime', 'build/revenue', 'build/shared']
    .map((file) => [`server/domain/reports/${file}.ts`, ['server/report-builder.test.ts']])),
  'server/domain/reports/stats.ts': ['server/reports.test.ts'],
  'server/domain/reports/params.ts': ['server/reports.test.ts'],
  // rollups.test.ts: what a rebuild of a range, of one site or of all, and the fold touch; asOf; the
  // refusal of a bad day. The SQL itself (which Stryker cannot mutate) is guarded by the other two.
  'server/db/rollups.ts': ['server/rollups.test.ts', 'server/reports.test.ts', 'server/reconciliation.test.ts'],
  'server/db/report-repository.ts': ['server/reports.test.ts', 'server/reconciliation.test.ts'],
};

const USAGE = 'usage: npm run mutation -- <file>[:from-to[+from-to…]] [--tests a.test.ts,b.test.ts] [--concurrency n] [--incremental]';

function parseArgs(argv) {
  const out = { target: null, tests: null, concurrency: '2', incremental: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tests') out.tests = argv[++i]?.split(',').filter(Boolean) ?? [];
    else if (a === '--concurrency') out.concurrency = argv[++i];
    else if (a === '--incremental') out.incremental = true;
    else if (!a.startsWith('--') && !out.target) out.target = a;
    else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (!out.target) throw new Error(USAGE);
  if (!/^[1-9]\d*$/.test(out.concurrency ?? '')) throw new Error(`--concurrency: must be a whole number ≥ 1\n${USAGE}`);
  return out;
}

function listTests(dir, acc = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listTests(path, acc);
    else if (/\.test\.tsx?$/.test(entry.name)) acc.push(path);
  }
  return acc;
}

/** Test files whose relative imports resolve to the module (without extension, .js or .ts). */
function importersOf(file) {
  const target = resolve(file).replace(/\.[cm]?[jt]sx?$/, '');
  return ['server', 'common', 'machines', 'src', 'scripts'].filter((d) => existsSync(d)).flatMap((d) => listTests(d)).filter((test) => {
    const source = readFileSync(test, 'utf8');
    return [...source.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)]
      .some(([, spec]) => resolve(dirname(test), spec).replace(/\.[cm]?[jt]sx?$/, '') === target);
  }).map((test) => relative(process.cwd(), test));
}

const args = parseArgs(process.argv.slice(2));
const [target, lines] = args.target.split(':');
/** The modules to mutate: a file, a directory's non-test .ts files, or several of either joined by commas. */
const modules = target.split(',').filter(Boolean).flatMap((path) => {
  if (!existsSync(path)) throw new Error(`${path}: no such file`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f)).sort().map((f) => join(path, f));
}).map((path) => relative(process.cwd(), resolve(path)));
if (lines && modules.length !== 1) throw new Error(`${lines}: line ranges apply to one file only\n${USAGE}`);
if (lines && !/^\d+-\d+(\+\d+-\d+)*$/.test(lines)) throw new Error(`${lines}: lines must be from-to, several joined by +\n${USAGE}`);
const module = modules.join(', ');
const tests = (args.tests ?? [...new Set(modules.flatMap((m) => RELATED[m] ?? importersOf(m)))]).filter((t) => existsSync(t));
if (tests.length === 0) throw new Error(`${module}: no related test file found; name them with --tests`);
const name = (modules.length === 1 ? basename(modules[0]).replace(/\.[^.]+$/, '') : basename(target.split(',')[0]).replace(/\.[^.]+$/, '') + '-all')
  + (lines ? `-${lines.replaceAll('+', '_')}` : '');

console.log(`mutating ${module}${lines ? ` lines ${lines}` : ''} with ${tests.join(', ')} (concurrency ${args.concurrency})`);
const result = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', ...(args.incremental ? ['--incremental'] : [])], {
  stdio: 'inherit',
  env: {
    ...process.env,
    MUTATION_MUTATE: lines ? lines.split('+').map((range) => `${modules[0]}:${range}`).join(',') : modules.join(','),
    MUTATION_TESTS: tests.join(','),
    MUTATION_NAME: name,
    MUTATION_CONCURRENCY: args.concurrency,
  },
});
console.log(`reports: reports/mutation/${name}.html and .json`);
process.exit(result.status ?? 1);

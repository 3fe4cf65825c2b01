/**
 * Vitest setup for machine tests: when PATH_COVERAGE_DIR is set (by `npm run test:paths`), each test
 * file writes the merged coverage of every machine it measured, for the report to collect.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { coverageRegistry, mergeReports } from './coverage';

afterAll(() => {
  const dir = process.env.PATH_COVERAGE_DIR;
  if (!dir || coverageRegistry.size === 0) return;
  mkdirSync(dir, { recursive: true });
  const merged = Object.fromEntries([...coverageRegistry].map(([id, reports]) => [id, mergeReports(reports.map((report) => report()))]));
  const file = (expect.getState().testPath ?? 'unknown').replace(/[^a-z0-9]+/gi, '_');
  writeFileSync(join(dir, `${file}.json`), JSON.stringify(merged));
});

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isOlderThanSources, newestMtime } from '../scripts/file-age.mjs';
import { isDistStale } from './build-if-stale';

const root = mkdtempSync(join(tmpdir(), 'cms-stale-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('dist is stale when missing or older than any source file', () => {
  mkdirSync(join(root, 'src', 'views'), { recursive: true });
  writeFileSync(join(root, 'src', 'views', 'a.tsx'), 'x');
  writeFileSync(join(root, 'index.html'), 'x');
  expect(isDistStale(root)).toBe(true);
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), 'built');
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'src', 'views', 'a.tsx'), past, past);
  utimesSync(join(root, 'index.html'), past, past);
  expect(isDistStale(root)).toBe(false);
  const future = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'src', 'views', 'a.tsx'), future, future);
  expect(isDistStale(root)).toBe(true);
});

it('the file age (scripts/file-age.mjs, also the server bundle\'s check) skips node_modules and dot entries, and reads a missing path as never written', () => {
  const tree = join(root, 'aged');
  mkdirSync(join(tree, 'node_modules'), { recursive: true });
  mkdirSync(join(tree, '.cache'), { recursive: true });
  writeFileSync(join(tree, 'kept.ts'), 'x');
  writeFileSync(join(tree, 'node_modules', 'dep.js'), 'x');
  writeFileSync(join(tree, '.cache', 'entry'), 'x');
  const kept = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
  const later = new Date(Date.now() + 120_000);
  utimesSync(join(tree, 'kept.ts'), kept, kept);
  utimesSync(join(tree, 'node_modules', 'dep.js'), later, later);
  utimesSync(join(tree, '.cache', 'entry'), later, later);
  expect(newestMtime(tree)).toBe(kept.getTime());
  expect(newestMtime(join(tree, 'missing'))).toBe(0);
  writeFileSync(join(root, 'out.js'), 'built');
  const built = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'out.js'), built, built);
  expect(isOlderThanSources(join(root, 'out.js'), root, ['aged'])).toBe(false);
  expect(isOlderThanSources(join(root, 'out.js'), root, ['aged', 'aged/node_modules/dep.js'])).toBe(true);
  expect(isOlderThanSources(join(root, 'missing.js'), root, ['aged'])).toBe(true);
});

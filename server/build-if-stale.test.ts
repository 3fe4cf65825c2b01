import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
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

/**
 * The bundle budget (issue 21): the sign-in route's initial JavaScript — index.html's module scripts,
 * modulepreloads and their static imports — stays within the gzip bytes and file count written in
 * bench/budget.json. Not a timing test: it reads the production build (dist/, built by scripts/test.sh
 * before the browser tests) and compresses it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialJs, staticImports } from '../scripts/bundle-size';

const DIST = join(process.cwd(), 'dist');
const budget = (JSON.parse(readFileSync(join(process.cwd(), 'bench', 'budget.json'), 'utf8')) as {
  signInInitialJs: { gzipBytes: number; maxFiles: number; goalGzipBytes: number };
}).signInInitialJs;

describe('sign-in route bundle budget', () => {
  it('has a production build to measure (run `NODE_ENV=production npx vite build` first)', () => {
    expect(existsSync(join(DIST, 'index.html'))).toBe(true);
  });

  it(`initial JS is at most ${budget.gzipBytes} bytes gzip in at most ${budget.maxFiles} files`, () => {
    const initial = initialJs(DIST);
    expect(initial.files.length).toBeGreaterThan(0);
    expect(initial.files.length, initial.files.join('\n')).toBeLessThanOrEqual(budget.maxFiles);
    expect(initial.gzip).toBeLessThanOrEqual(budget.gzipBytes);
  });

  it('the budget is written down with its goal (the goal is no looser than the budget)', () => {
    expect(budget.goalGzipBytes).toBeLessThanOrEqual(budget.gzipBytes);
  });

  it('the static-import scanner follows imports and skips dynamic ones', () => {
    expect(staticImports('import{a as b}from"./x.js";import"./y.js";export{c}from"./z.js";const m=()=>import("./lazy.js");'))
      .toEqual(['./x.js', './y.js', './z.js']);
  });
});

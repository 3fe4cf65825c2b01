/**
 * One date format across the console (issue 30): views, machines and adapters write dates only
 * through common/display-format.ts (the site's zone, en-GB). This check reads their sources and
 * refuses the browser's own date formatting, which follows the operator's computer rather than the
 * site (`toLocaleDateString` gave 11/25/2026 in one area and 25/11/2026 in another), and number
 * `toLocaleString` too, so a date cannot hide behind it (numbers use Intl.NumberFormat).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['src/views', 'src/adapters', 'machines'];

/** What a view may not call to write a date; common/display-format.ts is the one place that may. */
const OWN_DATE_FORMATTING = /\.toLocaleDateString\(|\.toLocaleTimeString\(|\.toLocaleString\(|\bIntl\.DateTimeFormat\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function offendersIn(files: readonly string[]): string[] {
  return files.flatMap((path) => readFileSync(path, 'utf8').split('\n')
    .map((line, i) => (OWN_DATE_FORMATTING.test(line) ? `${relative(ROOT, path)}:${i + 1}: ${line.trim()}` : null))
    .filter((hit): hit is string => hit !== null));
}

describe('one date format: views, machines and adapters never format a date on their own', () => {
  it('finds no toLocaleDateString / toLocaleTimeString / toLocaleString / Intl.DateTimeFormat outside common/display-format.ts', () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    expect(offendersIn(files)).toEqual([]);
  });

  it('the pattern catches each way a view could format a date itself', () => {
    for (const line of [
      "new Date(iso).toLocaleDateString()",
      "new Date(iso).toLocaleString(undefined, { dateStyle: 'medium' })",
      "d.toLocaleTimeString('en-GB', { timeZone: 'UTC' })",
      "const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });",
    ]) expect(OWN_DATE_FORMATTING.test(line), line).toBe(true);
    for (const line of ["formatDateTime(iso, zone)", "new Intl.NumberFormat('en-US').format(n)", "toLocaleStringish"]) {
      expect(OWN_DATE_FORMATTING.test(line), line).toBe(false);
    }
  });
});

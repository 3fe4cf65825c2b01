import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Issue 39: no machine file over this many lines; a bigger machine is split (setup, actions, one file per big state). */
const MAX_LINES = 300;

/** The non-test .ts files of machines/ (machines/test-harness is the tests' own code). */
function machineFiles(): string[] {
  return readdirSync('machines', { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join('machines', e.name));
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('machine file size (issue 39)', () => {
  it(`no non-test file in machines/ has more than ${MAX_LINES} lines`, () => {
    const files = machineFiles();
    expect(files.length).toBeGreaterThan(0);
    const tooLong = files
      .map((file) => ({ file, lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines (at most ${MAX_LINES}; split it like machines/auth.*)`);
    expect(tooLong).toEqual([]);
  });

  it('counts lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a\nb\n')).toBe(2);
  });
});

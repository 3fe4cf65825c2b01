import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A string only @statelyai/inspect's code carries. */
const INSPECT_MARKER = 'https://stately.ai/inspect';

function bundleText(dir: string): string {
  return readdirSync(join(dir, 'assets')).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, 'assets', f), 'utf8')).join('\n');
}

describe('inspector in the build output', () => {
  it('the production build (dist/) contains no @statelyai/inspect code', () => {
    expect(bundleText('dist')).not.toContain(INSPECT_MARKER);
  });

  it('the inspect build (VITE_STATELY_INSPECT=true) does', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cms-inspect-build-'));
    try {
      execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
        env: { ...process.env, NODE_ENV: 'production', VITE_STATELY_INSPECT: 'true' },
        stdio: 'pipe',
      });
      expect(bundleText(outDir)).toContain(INSPECT_MARKER);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function machineFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return machineFiles(path);
    return name.endsWith('.machine.ts') ? [relative(process.cwd(), path)] : [];
  });
}

/** Minimal glob matcher for the Stately CLI patterns we use (`**`, `*`). */
function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '(?:.*/)?')
    .replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}$`);
}

describe('stately.config.json', () => {
  const config = JSON.parse(readFileSync('stately.config.json', 'utf8')) as {
    $schema: string; version: string; defaultXStateVersion: number; include: string[];
  };

  it('has the statelyai.json shape', () => {
    expect(config.$schema).toBe('https://stately.ai/schemas/statelyai.json');
    expect(config.version).toBe('1.0.0');
    expect(config.defaultXStateVersion).toBe(5);
  });

  it('includes every machines/**/*.machine.ts file', () => {
    const files = machineFiles('machines');
    expect(files.length).toBeGreaterThanOrEqual(5);
    const patterns = config.include.map(globToRegExp);
    const unmatched = files.filter((file) => !patterns.some((re) => re.test(file)));
    expect(unmatched).toEqual([]);
  });
});

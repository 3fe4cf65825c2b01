import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles } from './import-cycles';

describe('import graph (issue 26)', () => {
  it('has no cycle in server/, src/, machines/ or common/', () => {
    expect(findImportCycles(['server', 'src', 'machines', 'common'])).toEqual([]);
  }, 30_000);

  it('finds a cycle, a type-only one and one through a dynamic import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'one.ts'), "import { two } from './two';\nexport const one = two;\n");
    writeFileSync(join(dir, 'a', 'two.ts'), "import type { three } from '../b/three';\nexport const two: three = 2;\n");
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'three.ts'), "export type three = number;\nexport const load = () => import('../a/one');\n");
    writeFileSync(join(dir, 'b', 'alone.ts'), "import { load } from './three';\nexport const alone = load;\n");
    expect(findImportCycles(['a', 'b'], dir)).toEqual([['a/one.ts', 'a/two.ts', 'b/three.ts', 'a/one.ts']]);
  });
});

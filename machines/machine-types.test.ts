/**
 * Issue 39: one way to type a machine. A setup's `types` are `machineTypes<{…}>()` (it types the children
 * too), never `typed<T>()` entries, a typed `SetupTypes` constant or `{} as T` casts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { machineTypes } from './machine-types';

const DIR = join(import.meta.dirname, '.');

/** The helper itself. */
const HELPERS = new Set(['machine-types.ts']);

/** Every non-test source file of machines/ that calls `setup(`. */
function setupFiles(): { file: string; text: string }[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !HELPERS.has(file))
    .map((file) => ({ file, text: readFileSync(join(DIR, file), 'utf8') }))
    .filter(({ text }) => /\bsetup\(\{/.test(text) && /from 'xstate'/.test(text));
}

describe('machine types (issue 39)', () => {
  it('every machine types its setup with machineTypes<{…}>() and no other spelling', () => {
    const offenders = setupFiles()
      .flatMap(({ file, text }) => [
        ...(/\btyped<|\bSetupTypes</.test(text) ? [`${file}: typed<> or SetupTypes<>`] : []),
        ...(/^\s*\w+: \{\} as /m.test(text) ? [`${file}: {} as`] : []),
        ...(/^\s*types[,:]/m.test(text) && !/types: machineTypes</.test(text) ? [`${file}: types without machineTypes`] : []),
      ]);
    expect(offenders).toEqual([]);
  });

  it('finds the machines it checks', () => {
    const files = setupFiles().map(({ file }) => file);
    expect(files).toContain('network.setup.ts');
    expect(files).toContain('lasting-undo.machine.ts');
  });

  it('types a machine without casts: the context and input it declares are the ones it runs with', () => {
    const machine = setup({ types: machineTypes<{ context: { count: number }; input: { start: number } }>() })
      .createMachine({ context: ({ input }) => ({ count: input.start }) });
    expect(createActor(machine, { input: { start: 3 } }).start().getSnapshot().context).toEqual({ count: 3 });
    expect(machineTypes()).toEqual({});
  });
});

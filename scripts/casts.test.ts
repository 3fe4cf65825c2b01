import { describe, expect, it } from 'vitest';
import { castsIn, findCasts, isCountedSource } from './casts';

/**
 * The most `as` casts the non-test code may hold (issue 39: ~500 at its start, 230 its goal, 210 reached). Lower it when casts go;
 * never raise it: type the value instead (a guard from common/one-of.ts, a machine's setup types).
 */
const MAX_CASTS = 210;

describe('casts in the non-test code (issue 39)', () => {
  const casts = findCasts();

  it(`at most ${MAX_CASTS} \`as\` casts (not \`as const\`) in src, machines, server and common`, () => {
    expect(casts.length, casts.map((c) => `${c.file}:${c.line} ${c.text}`).join('\n')).toBeLessThanOrEqual(MAX_CASTS);
  }, 60_000);

  it('no cast of an actor\'s children or of the actor system', () => {
    expect(casts.filter((c) => c.actorTree).map((c) => `${c.file}:${c.line} ${c.text}`)).toEqual([]);
  });

  it('counts `as T` on the syntax tree, not `as const`, not words in strings or comments', () => {
    const source = [
      "const a = 1 as number;",
      "const b = ['x'] as const;",
      "const c = (x as unknown) as string;",
      "// y as string",
      "const d = 'z as string';",
      "const e = <T,>(v: unknown) => v satisfies unknown;",
      "const f = { g: 1 as const, h: 2 as 2 };",
    ].join('\n');
    expect(castsIn(source, 'a.ts').map((c) => [c.line, c.text, c.actorTree])).toEqual([
      [1, '1 as number', false],
      [3, '(x as unknown) as string', false],
      [3, 'x as unknown', false],
      [7, '2 as 2', false],
    ]);
  });

  it('marks a cast of `children` or `system` anywhere along the accessed chain', () => {
    const source = [
      "const a = snapshot.children.editor as EditorRef;",
      "const b = system.get('notifier') as NotifierRef;",
      "const c = (self.system.get('x')! as Ref);",
      "const d = snapshot.context.children as X;",
      "const e = snapshot.context.items[0] as Item;",
      "const f = childrenOf(snapshot) as X;",
      "const g = snap['children'].x as X;",
    ].join('\n');
    expect(castsIn(source, 'm.tsx').map((c) => c.actorTree)).toEqual([true, true, true, true, false, false, false]);
  });

  it('counts non-test sources only', () => {
    expect(isCountedSource('src/api/client.ts')).toBe(true);
    expect(isCountedSource('src/views/Page.tsx')).toBe(true);
    expect(isCountedSource('machines/test-harness/paths.ts')).toBe(false);
    expect(isCountedSource('src/api/client.test.ts')).toBe(false);
    expect(isCountedSource('src/views/Page.test.tsx')).toBe(false);
    expect(isCountedSource('src/test-harness/render-view.tsx')).toBe(false);
    expect(isCountedSource('server/test/kit.ts')).toBe(false);
    expect(isCountedSource('e2e/journey.ts')).toBe(false);
    expect(isCountedSource('src/vite-env.d.ts')).toBe(false);
    expect(isCountedSource('src/styles.css')).toBe(false);
    expect(isCountedSource('src/test-supportive.ts')).toBe(true);
  });
});

/**
 * The `as` casts of the non-test code (issue 39), read on the TypeScript syntax tree: every
 * `expr as T` except `as const`. Non-test code is src/, machines/, server/ and common/ without the
 * *.test.ts(x) files, src/test-harness/, machines/test-harness/, server/test/ and e2e/. scripts/casts.test.ts caps the count
 * and refuses any cast of an actor's children or of the actor system (`snapshot.children.x as …`,
 * `system.get(…) as …`): those are typed by the machine's setup instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface Cast {
  /** Repository-relative path (forward slashes). */
  file: string;
  line: number;
  /** The cast as written (whitespace squeezed). */
  text: string;
  /** The cast expression reads an actor's `children` or the actor `system`. */
  actorTree: boolean;
}

export const CAST_ROOTS = ['src', 'machines', 'server', 'common'] as const;

const EXCLUDED_DIRS = new Set(['src/test-harness', 'machines/test-harness', 'server/test', 'e2e', 'node_modules']);

/** Whether a repository-relative path is non-test source the count covers. */
export function isCountedSource(path: string): boolean {
  if (!/\.tsx?$/.test(path) || /\.d\.ts$/.test(path) || /\.test\.tsx?$/.test(path)) return false;
  return !path.split('/').some((_, i, parts) => EXCLUDED_DIRS.has(parts.slice(0, i + 1).join('/')) || parts[i] === 'node_modules');
}

/** The names along an expression's access chain (`a.b(c).d!` → d, b, a), through calls, `!` and parentheses. */
function chainNames(node: ts.Expression): string[] {
  const names: string[] = [];
  let current: ts.Expression = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isNonNullExpression(current)) current = current.expression;
    else if (ts.isCallExpression(current)) current = current.expression;
    else if (ts.isPropertyAccessExpression(current)) {
      names.push(current.name.text);
      current = current.expression;
    } else if (ts.isElementAccessExpression(current)) current = current.expression;
    else {
      if (ts.isIdentifier(current)) names.push(current.text);
      return names;
    }
  }
}

/** The casts of one source text (`as const` left out). */
export function castsIn(source: string, file: string): Cast[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Cast[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(sf) === 'const')) {
      const names = chainNames(node.expression);
      out.push({
        file,
        line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
        text: node.getText(sf).replace(/\s+/g, ' '),
        actorTree: names.includes('children') || names.includes('system'),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function listSources(root: string, dir: string, acc: string[]): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!EXCLUDED_DIRS.has(path) && entry.name !== 'node_modules') listSources(root, path, acc);
    } else if (isCountedSource(path)) acc.push(path);
  }
  return acc;
}

/** Every cast of the non-test code under `roots` (relative to `root`, the repository by default). */
export function findCasts(roots: readonly string[] = CAST_ROOTS, root = process.cwd()): Cast[] {
  return roots.flatMap((dir) => listSources(root, dir, [])).sort()
    .flatMap((path) => castsIn(readFileSync(join(root, path), 'utf8'), relative(root, join(root, path)).split('\\').join('/')));
}

/**
 * The import graph of our own TypeScript files (relative imports, `import type` and dynamic
 * `import()` included) and its cycles. `findImportCycles(['server', 'src'])` lists every cycle as
 * the files along it (first file repeated at the end); scripts/import-cycles.test.ts wants none.
 * Run `npx tsx scripts/import-cycles.ts server src` to print them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'migrations' ? [] : sourceFiles(full);
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `./x` → `x.ts`, `x.tsx` or `x/index.ts`; undefined for a package or a non-TS file. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  const candidates = [...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => join(base, `index${ext}`))];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

export function importGraph(roots: string[], cwd = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = roots.flatMap((root) => sourceFiles(resolve(cwd, root)));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((ref) => resolveImport(file, ref.fileName)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
    pending.push(...targets.filter((t) => !graph.has(t)));
  }
  return graph;
}

/** Every strongly connected component of more than one file (or a file importing itself), as one cycle through it. */
export function findImportCycles(roots: string[], cwd = process.cwd()): string[][] {
  const graph = importGraph(roots, cwd);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next); low.set(file, next); next++;
    stack.push(file); onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) { visit(target); low.set(file, Math.min(low.get(file)!, low.get(target)!)); }
      else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do { member = stack.pop()!; onStack.delete(member); component.push(member); } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      // Starts at the component's first file by name, so the answer does not depend on the walk.
      const start = [...component].sort()[0]!;
      cycles.push(cycleThrough(graph, new Set(component), start).map((f) => relative(cwd, f)));
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One concrete path start → … → start inside the component (breadth first, so a short one). */
function cycleThrough(graph: Map<string, string[]>, component: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) { previous.set(target, file); queue.push(target); }
    }
  }
  return [start, start];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const cycles = findImportCycles(process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['server', 'src']);
  for (const cycle of cycles) console.log(cycle.join(' → '));
  console.log(`${cycles.length} cycle(s)`);
  process.exitCode = cycles.length > 0 ? 1 : 0;
}

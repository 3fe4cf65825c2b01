/**
 * The initial JavaScript of a built page: the module scripts and modulepreloads its index.html names
 * and every module they import statically (dynamic import() excluded), with raw, gzip (level 9) and
 * brotli (quality 11) sizes. Used by the bundle-budget test (e2e/bundle-budget.test.ts) and
 * `npm run bench` (scripts/bench.ts).
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface InitialJs { files: string[]; raw: number; gzip: number; brotli: number }

/** `import x from "./a.js"`, `import{a}from"./b.js"`, `import"./c.js"`, `export{x}from"./d.js"`; not `import("./e.js")`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

export function gzipSize(body: Buffer): number {
  return gzipSync(body, { level: 9 }).length;
}

export function brotliSize(body: Buffer): number {
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** Measures the initial JS of `distDir/index.html` (or of the given entry URL paths). */
export function initialJs(distDir: string, entries?: string[]): InitialJs {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const roots = entries ?? [
    ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const seen = new Map<string, Buffer>();
  const queue = [...roots];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    const body = readFileSync(join(distDir, path.replace(/^\//, '')));
    seen.set(path, body);
    for (const spec of staticImports(body.toString('utf8'))) queue.push(posix.normalize(posix.join(posix.dirname(path), spec)));
  }
  let raw = 0, gzip = 0, brotli = 0;
  for (const body of seen.values()) {
    raw += body.length;
    gzip += gzipSize(body);
    brotli += brotliSize(body);
  }
  return { files: [...seen.keys()], raw, gzip, brotli };
}

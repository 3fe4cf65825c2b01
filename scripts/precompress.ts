/**
 * Build-time compression of the SPA: every .js, .css, .svg, .json and .html file of dist/ gets a
 * brotli (.br, quality 11) and a gzip (.gz, level 9) twin, which the server sends by Accept-Encoding
 * (server/http/spa.ts). Used as a Vite plugin (vite.config.ts) and runnable alone on a folder:
 * `npx tsx scripts/precompress.ts dist`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|map)$/;

/** Writes the .br and .gz twins of every compressible file under dir; returns how many files. */
export function precompressDir(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) { count += precompressDir(path); continue; }
    if (!COMPRESSIBLE.test(entry.name) || statSync(path).size === 0) continue;
    const body = readFileSync(path);
    writeFileSync(`${path}.br`, brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }));
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
    count++;
  }
  return count;
}

/** Vite plugin: precompress the output folder after every production build. */
export function precompressPlugin() {
  let outDir = 'dist';
  return {
    name: 'cms-precompress',
    apply: 'build' as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const dir = process.argv[2] ?? 'dist';
  console.log(`precompressed ${precompressDir(dir)} files in ${dir}`);
}

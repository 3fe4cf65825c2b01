// Compiles the server once into dist-server/main.js (esbuild: one ESM bundle, packages stay in
// node_modules), so `npm start` runs JavaScript instead of compiling TypeScript at every start.
// `import.meta.url` in each source file is rewritten to that file's own location in the tree, so
// paths it resolves (server/db/migrations, server/data/*.txt, the repo root) stay where they are.
// Run alone: node scripts/build-server.mjs
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isOlderThanSources } from './file-age.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT_FILE = join(ROOT, 'dist-server', 'main.js');
const SOURCES = ['server', 'common', 'package.json', 'package-lock.json', 'scripts/build-server.mjs', 'scripts/file-age.mjs'];

/** True when dist-server/main.js is missing or older than any server or common source. */
export function isServerStale() {
  return isOlderThanSources(OUT_FILE, ROOT, SOURCES);
}

const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromOut = relative(dirname(OUT_FILE), args.path).split('\\').join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

export async function buildServer() {
  const { build } = await import('esbuild');
  const result = await build({
    write: false,
    entryPoints: [join(ROOT, 'server', 'main.ts')],
    outfile: OUT_FILE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownImportMetaUrl],
  });
  // Written beside and renamed into place: a second start compiling at the same time never reads half a file.
  mkdirSync(dirname(OUT_FILE), { recursive: true });
  for (const file of result.outputFiles.sort((a) => (a.path === OUT_FILE ? 1 : -1))) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  await buildServer();
  console.log(`built ${relative(ROOT, OUT_FILE)} in ${Date.now() - t0} ms`);
}

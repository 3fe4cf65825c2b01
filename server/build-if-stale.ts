/**
 * `npm start` builds the SPA when dist/ is missing or older than its sources, so a fresh clone
 * needs nothing but `npm install && npm start`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isOlderThanSources } from '../scripts/file-age.mjs';

/** What the Vite build reads. */
const SPA_SOURCES = ['src', 'machines', 'public', 'index.html', 'vite.config.ts', 'package.json'];

/** True when dist/index.html is missing or older than the newest source file. */
export function isDistStale(root: string, distDir = join(root, 'dist')): boolean {
  return isOlderThanSources(join(distDir, 'index.html'), root, SPA_SOURCES);
}

/** Runs `vite build` when stale. Returns false when a needed build failed. */
export function buildIfStale(root: string, log: (msg: string) => void = console.log): boolean {
  if (!isDistStale(root)) return true;
  log('Building the web app (dist/ is missing or older than its sources)...');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Always a production build, whatever NODE_ENV the server itself runs under (tests run it as 'test').
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) {
    log('The web app build failed; the API still starts.' + (existsSync(join(root, 'dist', 'index.html')) ? ' Serving the previous build.' : ' No web app to serve.'));
    return false;
  }
  return true;
}

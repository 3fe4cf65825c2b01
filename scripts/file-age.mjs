// How old a build is against its sources: one helper for the SPA's (server/build-if-stale.ts) and the
// server bundle's (scripts/build-server.mjs) "is it stale?" check. Plain node ESM, so
// scripts/build-server.mjs runs it before anything is compiled; its types are file-age.d.mts.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time (ms) of a file or of any file under a directory (node_modules and dot entries skipped); 0 when missing. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** True when `output` is missing or older than any file of `sources` (paths relative to `root`). */
export function isOlderThanSources(output, root, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => newestMtime(join(root, source)) > built);
}

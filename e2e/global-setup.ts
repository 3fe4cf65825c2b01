/**
 * Once before the browser tests: compile the server (scripts/build-server.mjs, what `npm start` runs),
 * so every test server starts from JavaScript instead of compiling TypeScript through tsx at each of
 * the ~30 starts and restarts of the run (measured under load: 34–65 s vs 55–93 s to the first
 * "running at" on an empty data folder).
 */
import { execFileSync } from 'node:child_process';

export default function compileServer(): void {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
}

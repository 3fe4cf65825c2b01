/**
 * Once before the browser tests: compile the server (scripts/build-server.mjs, what `npm start` runs),
 * so every test server starts from JavaScript instead of compiling TypeScript through tsx at each of
 * the ~30 starts and restarts of the run (measured under load: 34–65 s vs 55–93 s to the first
 * "running at" on an empty data folder).
 *
 * Issue 39: also a folder of this run for the data-folder templates of e2e/harness.ts (CMS_E2E_TEMPLATES,
 * read by the test workers, which start after this): the first server of each seed setting fills
 * one, later servers with that setting start from a copy instead of migrating and seeding again.
 * Removed when the run ends. CMS_E2E_TEMPLATES=off: every server starts from an empty folder, as before.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (process.env.CMS_E2E_TEMPLATES === 'off') return () => undefined;
  const templates = mkdtempSync(join(tmpdir(), 'cms-e2e-templates-'));
  process.env.CMS_E2E_TEMPLATES = templates;
  return () => rmSync(templates, { recursive: true, force: true });
}

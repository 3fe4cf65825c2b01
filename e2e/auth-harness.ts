/**
 * Helpers for the sign-in, password and session browser tests (issues 3, 4, 5), on top of support.ts:
 * a quick-starting server, the SMS outbox read by phone number, header/cookie probes, screenshots.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_ACCOUNTS, demoAccount } from '../server/db/demo-accounts';
import { OUTBOX_HEADERS, SCREENSHOT_DIR, SEED_PASSWORD, startServer, type RunningServer } from './harness';

export { DEMO_ACCOUNTS, demoAccount, SEED_PASSWORD };

/**
 * The real server with cheap password hashing (the seed hashes nine accounts, every sign-in hashes
 * once) and without the stale-build check (the run command builds first; another engineer's half-saved
 * source must not trigger a rebuild in the middle of a run).
 */
export function startAuthServer(env: Record<string, string> = {}, dataDir?: string): Promise<RunningServer> {
  return startServer({ SKIP_BUILD: '1', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', LOG_LEVEL: 'warn', ...env }, dataDir);
}

export interface OutboxMessage { id: string; to: string; body: string; createdAt: string }

export async function outbox(baseUrl: string, to: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${baseUrl}/__dev/outbox?to=${encodeURIComponent(to)}`, { headers: OUTBOX_HEADERS });
  return (await response.json()) as OutboxMessage[];
}

/** Ids of the messages already sent to `to`: pass them to `nextOtp` to wait for a fresh one. */
export async function outboxIds(baseUrl: string, to: string): Promise<Set<string>> {
  return new Set((await outbox(baseUrl, to)).map((m) => m.id));
}

/** The code of the newest message to `to` that is not among `seen`; waits up to 10 s for it. */
export async function nextOtp(baseUrl: string, to: string, seen: Set<string> = new Set()): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const fresh = (await outbox(baseUrl, to)).filter((m) => !seen.has(m.id));
    const code = fresh[0] && /\b(\d{6})\b/.exec(fresh[0].body)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no new code for ${to} in the outbox`);
}

/** A six-digit code that is certainly not `code`. */
export function wrongCode(code: string, offset = 1): string {
  return String((Number(code) + offset) % 1_000_000).padStart(6, '0');
}

/** The labels of the header's area tabs, in order. */
export async function headerTabs(page: Page): Promise<string[]> {
  await page.getByTestId('header').waitFor();
  return (await page.getByRole('navigation', { name: 'Areas' }).getByRole('link').allTextContents()).map((t) => t.trim());
}

export async function openUserMenu(page: Page): Promise<void> {
  const menu = page.getByTestId('user-menu');
  const open = await menu.evaluate((el) => (el as HTMLDetailsElement).open);
  if (!open) await menu.locator('summary').click();
}

export async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

/** GET /api/auth/verify with a token and key, as the app does on load: the status code. */
export async function verifyStatus(baseUrl: string, token: string, apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/auth/verify`, { headers: { Authorization: `Bearer ${token}`, xApiKey: apiKey } });
  return response.status;
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Fills the sign-in form on the current page (which must be '/') and submits it. */
export async function submitCredentials(page: Page, username: string, password = SEED_PASSWORD): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Path of the page's URL (no origin, no query). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    s.on('error', reject);
  });
}

/**
 * A server on a port and data directory that survive a restart, so a test can change the database
 * while the server is down (PGlite has one user) and carry on in the same browser page at the same
 * origin. Used to age codes and reset tokens: the server has no TTL setting, and waiting 5 or 15
 * minutes is not an option.
 */
export interface RestartableServer {
  current: RunningServer;
  readonly url: string;
  /** Stops the server, runs `sql` on its database, starts it again; resolves the affected row count. */
  restartWith(sql: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startRestartableServer(env: Record<string, string> = {}): Promise<RestartableServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-restart-'));
  const start = () => startAuthServer({ ...env, PORT: String(port) }, dataDir);
  const handle: RestartableServer = {
    current: await start(),
    get url() {
      return handle.current.url;
    },
    async restartWith(sql) {
      await handle.current.stop();
      const { PGlite } = await import('@electric-sql/pglite');
      const db = new PGlite(dataDir);
      const result = await db.query(sql);
      await db.close();
      handle.current = await start();
      return result.affectedRows ?? 0;
    },
    async stop() {
      await handle.current.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

/**
 * SECURITY.md C-DUR-1: the server is killed with SIGKILL in the middle of a stream of writes and
 * restarted on the same data. Every write it acknowledged is there, whole (the account as sent, its
 * audit row), and nothing is there half written. The server runs as a child process exactly as
 * `npm start` runs it: on a PGlite data directory when DATABASE_URL is unset, else on that
 * PostgreSQL database (`npm test` runs the server project on both; scripts/with-fresh-postgres.mjs
 * gives the PostgreSQL run a fresh database). Bounded: at most STREAM_MS of writes, one kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './test/ports';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { ADMIN_AUDIT_ACTIONS } from '../common/admin-contract';
import { API_PATHS } from '../common/constants';
import { openDb, type DbHandle } from './db/client';
import { auditEvents, staffUsers } from './db/schema';
import { isolatedDatabaseUrl, pgliteTemplate, TEST_SEED_PASSWORD } from './test/kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const sharedDatabaseUrl = process.env.DATABASE_URL || undefined;
// On PostgreSQL the server gets a database of its own: the real server's sign-in windows (per
// address, per account) must not count the sign-ins other test files made in the run's shared database.
const own = sharedDatabaseUrl ? await isolatedDatabaseUrl(sharedDatabaseUrl) : undefined;
const databaseUrl = own?.url;
const dataDir = mkdtempSync(join(tmpdir(), 'cms-crash-'));
const STREAM_MS = 3_000;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await own?.drop();
});

const jwtSecret = randomBytes(32).toString('hex');

/** Starts `server/main.ts` like `npm start` and waits until it listens. */
async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test', SKIP_BUILD: '1', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      JWT_SECRET: jwtSecret, SEED_PASSWORD: TEST_SEED_PASSWORD, SEED_SCALE: '0',
      ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1',
      API_RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('CMS Tools is running at')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening:\n${output.slice(-2000)}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function signIn(base: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}${API_PATHS.login}`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@demo.test', password: TEST_SEED_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { accessToken } = await login.json() as { accessToken: string };
  const info = await fetch(`${base}${API_PATHS.loginInfo}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const { managementXApiKey } = await info.json() as { managementXApiKey: string };
  return { authorization: `Bearer ${accessToken}`, xapikey: managementXApiKey, 'content-type': 'application/json' };
}

function account(run: string, n: number) {
  return {
    email: `crash-${run}-${n}@demo.test`,
    displayName: `Crash ${run} ${n}`,
    phoneNumber: `+1555${String(n).padStart(7, '0')}`,
    twoFactorOnLogin: n % 2 === 0,
    roles: n % 3 === 0 ? { Content: 'write', Admin: 'read' } : { Content: 'read' },
  };
}

async function withDb<T>(fn: (db: DbHandle['db']) => Promise<T>): Promise<T> {
  const handle = await openDb({ databaseUrl, dataDir, migrate: false });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

it(`SIGKILL during a stream of writes loses no acknowledged write and leaves no half copy (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, { timeout: 150_000 }, async () => {
  if (!databaseUrl) {
    // A migrated data directory from the shared template (initialising PGlite from scratch takes 2-10 s here).
    const template = await pgliteTemplate();
    const handle = await openDb({ dataDir, ...(template ? { loadDataDir: template } : {}) });
    await handle.close();
  }
  const run = randomBytes(4).toString('hex');
  const t0 = Date.now();
  const first = await startServer();
  const startedIn = Date.now() - t0;
  const headers = await signIn(first.base);

  // Four writers in parallel; each acknowledged (201) account is remembered.
  const acknowledged = new Set<string>();
  const sent = new Map<string, ReturnType<typeof account>>();
  let next = 0;
  let stop = false;
  const writer = async () => {
    while (!stop) {
      const body = account(run, next++);
      sent.set(body.email, body);
      try {
        const res = await fetch(`${first.base}${API_PATHS.admin}/staff`, { method: 'POST', headers, body: JSON.stringify(body) });
        if (res.status === 201) acknowledged.add(body.email);
        else expect.fail(`create answered ${res.status}: ${await res.text()}`);
      } catch {
        return; // The connection died with the server.
      }
    }
  };
  const writers = Array.from({ length: 4 }, writer);
  const started = Date.now();
  while (acknowledged.size < 10 || Date.now() - started < STREAM_MS / 2) {
    if (Date.now() - started > STREAM_MS * 4) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;
  stop = true;
  await Promise.all(writers);
  expect(acknowledged.size).toBeGreaterThan(0);

  // Restart on the same data: it starts, and the data is consistent.
  const second = await startServer();
  const restartedAt = Date.now() - t0;
  await signIn(second.base);
  if (!databaseUrl) {
    // PGlite is single-process: stop the server before reading its directory.
    const closed = new Promise((resolve) => second.child.once('exit', resolve));
    second.child.kill('SIGTERM');
    await closed;
  }
  const { rows, audits } = await withDb(async (db) => ({
    rows: await db.select().from(staffUsers).where(like(staffUsers.username, `crash-${run}-%`)),
    audits: await db.select().from(auditEvents).where(and(eq(auditEvents.action, ADMIN_AUDIT_ACTIONS.created))),
  }));
  if (databaseUrl) second.child.kill('SIGTERM');

  const stored = new Map(rows.map((row) => [row.username, row]));
  expect(stored.size).toBe(rows.length);
  const audited = new Set(audits.map((a) => a.detail.targetUsername));
  for (const email of acknowledged) {
    expect(stored.has(email), `acknowledged ${email} is there`).toBe(true);
    expect(audited.has(email), `acknowledged ${email} has its audit row`).toBe(true);
  }
  // Every stored account (acknowledged or caught in flight) is whole: exactly what was sent.
  for (const row of rows) {
    const body = sent.get(row.username)!;
    expect(body, row.username).toBeDefined();
    expect({ displayName: row.displayName, phoneNumber: row.phoneNumber, twoFactorOnLogin: row.twoFactorOnLogin, roles: row.roles })
      .toEqual({ displayName: body.displayName, phoneNumber: body.phoneNumber, twoFactorOnLogin: body.twoFactorOnLogin, roles: body.roles });
  }
  console.info(`crash test (${databaseUrl ? 'PostgreSQL' : 'PGlite'}): ${acknowledged.size} acknowledged, ${rows.length} stored, ${sent.size} sent; first start ${startedIn} ms, restart done at ${restartedAt} ms, total ${Date.now() - t0} ms`);
});

/**
 * Issue 37, item 2: two instances started together on an empty PostgreSQL, as the README shows
 * (`PORT=3001 npm start & PORT=3002 npm start &`), both serve, and neither answers before the
 * database it serves is complete. Each round gets an empty database of its own and starts two real
 * processes at the same moment, running what `npm start` runs (scripts/start.mjs imports the
 * compiled server, dist-server/main.js of scripts/build-server.mjs, compiled once before the rounds), with a small viewers' world (SEED_SCALE 0.02, so the
 * seed has a sites-and-accounts part and a world-and-rollups part, the two the instances used to
 * see apart). From the moment it is spawned each instance is asked, every few milliseconds, for the
 * second site's world (the players' roster, read with the site's demo ingestion key): its first
 * answer must be a 200 with the same world it shows at the end of the round; a demo account of that
 * site must then sign in (200), and at that moment the database must already hold every demo site,
 * account, world (ingestion key) and rollup the seed writes. Neither process may exit (the pg-boss `create_queue` deadlock crashed one in 4 of 10).
 *
 * The rounds need PostgreSQL: they run in the PostgreSQL stage of `npm test` (DATABASE_URL set).
 * Beside them, in one process on both databases: two preparations asked at once seed once and
 * return only when the data is whole; on PostgreSQL, two job queues (pg-boss) started at once on a
 * database without their schema, 10 times, never deadlock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort } from './test/ports';
import { fileURLToPath } from 'node:url';
import { count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INGEST_KEY_HEADER, INGEST_ROSTER_PATH, type IngestRoster } from '../common/ingest-contract';
import { DEMO_ACCOUNTS, DEMO_SITES } from './db/demo-accounts';
import { openDb } from './db/client';
import { ingestionKeys, sites, staffUsers, subscribers } from './db/schema';
import { demoIngestionKey } from './db/seed-world';
import { prepareDemoDatabase } from './demo/prepare';
import { createContentScheduler } from './domain/content-scheduler';
import { createSchedulerStore } from './db/stores';
import { isolatedDatabaseUrl, openTestDb, TEST_SEED_PASSWORD } from './test/kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const sharedDatabaseUrl = process.env.DATABASE_URL || undefined;
const ROUNDS = 10;
/** Rounds started at once (two processes each): the machine has 2 cores. */
const PARALLEL = 5;
const SEED_SCALE = '0.02';
/** A demo account of the second site, written by the seed's last account insert. */
const PROBE_ACCOUNT = DEMO_ACCOUNTS.filter((a) => !a.twoFactorOnLogin).at(-1)!;

const children = new Set<ChildProcess>();
/** dist-server/main.js, compiled before the rounds (what scripts/start.mjs imports). */
let serverFile = '';
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

interface Completeness { sites: number; accounts: number; keys: number; rollupSites: number; subscribers: number }

/** What the seed has written so far, read straight from the database. */
async function completeness(url: string): Promise<Completeness> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = async (table: string) => (await client.query(`SELECT to_regclass($1) AS t`, [table])).rows[0].t !== null;
    if (!await exists('public.sites')) return { sites: 0, accounts: 0, keys: 0, rollupSites: 0, subscribers: 0 };
    const { rows: [row] } = await client.query(`SELECT
      (SELECT count(*)::int FROM sites WHERE site_internal_name = ANY($1)) AS sites,
      (SELECT count(*)::int FROM staff_users) AS accounts,
      (SELECT count(*)::int FROM ingestion_keys) AS keys,
      (SELECT count(DISTINCT site_id)::int FROM daily_playback_rollups) AS "rollupSites",
      (SELECT count(*)::int FROM subscribers) AS subscribers`, [Object.values(DEMO_SITES)]);
    return row as Completeness;
  } finally {
    await client.end();
  }
}

interface Started {
  /** The first answer: the second site's roster (its world, read with its demo ingestion key). */
  firstRoster: { status: number; subscribers: number; content: number };
  /** Then a demo account of the second site signing in. */
  firstStatus: number;
  seenAtFirstAnswer: Completeness;
  base: string;
  output: () => string;
  child: ChildProcess;
  runningLine: Promise<void>;
}

/** The second site's world as its players' simulator sees it (a development route, the demo ingestion key; no staff sign-in). */
async function roster(base: string): Promise<Response> {
  return fetch(`${base}${INGEST_ROSTER_PATH}?limit=5000`, { headers: { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.northwind) }, signal: AbortSignal.timeout(30_000) });
}

async function rosterOf(answer: Response): Promise<Started['firstRoster']> {
  if (answer.status !== 200) return { status: answer.status, subscribers: 0, content: 0 };
  const body = await answer.json() as IngestRoster;
  return { status: 200, subscribers: body.subscribers.length, content: body.content.length };
}

/** Starts one instance like `npm start` and asks it to sign in from the moment it is spawned. */
async function startInstance(url: string, jwtSecret: string): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverFile], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test', SKIP_BUILD: '1', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: url,
      JWT_SECRET: jwtSecret, SEED_PASSWORD: TEST_SEED_PASSWORD, SEED_SCALE, REDIS_URL: '',
      ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1',
      API_RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'error', PG_POOL_MAX: '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  let exited: string | null = null;
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.once('exit', (code, signal) => { exited = `${code ?? signal}`; });
  const runningLine = new Promise<void>((resolve, reject) => {
    const check = () => { if (output.includes('CMS Tools is running at')) resolve(); };
    child.stdout!.on('data', check);
    child.once('exit', () => reject(new Error(`instance on port ${port} exited (${exited}) before it said it was running:\n${output.slice(-3000)}`)));
  });
  runningLine.catch(() => undefined);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited !== null) throw new Error(`instance on port ${port} exited (${exited}) before answering:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`instance on port ${port} did not answer within 90 s:\n${output.slice(-3000)}`);
    const answer = await roster(base).catch(() => null);
    if (answer) {
      const firstRoster = await rosterOf(answer);
      const login = await fetch(`${base}${API_PATHS.login}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: PROBE_ACCOUNT.username, password: TEST_SEED_PASSWORD }),
        signal: AbortSignal.timeout(30_000),
      });
      const seenAtFirstAnswer = await completeness(url);
      return { firstRoster, firstStatus: login.status, seenAtFirstAnswer, base, output: () => output, child, runningLine };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
  children.delete(child);
}

interface RoundResult {
  round: number; ms: number; first: [number, number]; seen: [Completeness, Completeness]; final: Completeness; alive: boolean;
  firstRosters: Started['firstRoster'][]; finalRosters: Started['firstRoster'][];
}

async function round(n: number): Promise<RoundResult> {
  const own = await isolatedDatabaseUrl(sharedDatabaseUrl!);
  const jwtSecret = randomBytes(32).toString('hex');
  const t0 = Date.now();
  const started: Started[] = [];
  try {
    const [a, b] = await Promise.all([startInstance(own.url, jwtSecret), startInstance(own.url, jwtSecret)]);
    started.push(a!, b!);
    await Promise.all([a!.runningLine, b!.runningLine]);
    const ms = Date.now() - t0;
    // Both still serve after both said they were running.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const alive = started.every((s) => s.child.exitCode === null && s.child.signalCode === null);
    const finalRosters = await Promise.all(started.map(async (s) => rosterOf(await roster(s.base))));
    return {
      round: n, ms, first: [a!.firstStatus, b!.firstStatus], seen: [a!.seenAtFirstAnswer, b!.seenAtFirstAnswer], final: await completeness(own.url), alive,
      firstRosters: started.map((s) => s.firstRoster), finalRosters,
    };
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
    await own.drop();
  }
}

if (sharedDatabaseUrl) {
  describe('two instances started together on an empty PostgreSQL (issue 37: real processes, like npm start)', () => {
    it(`${ROUNDS} rounds: both serve, neither answers before the seed is complete, neither crashes`, { timeout: 600_000 }, async () => {
      const probe = new pg.Client({ connectionString: sharedDatabaseUrl });
      await probe.connect().catch((error: unknown) => {
        throw new Error(`This test needs PostgreSQL at DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
      });
      await probe.end();
      // Compile the server once (as the first `npm start` would), so the rounds time the start itself.
      const build = await import('../scripts/build-server.mjs' as string) as { buildServer(): Promise<void>; isServerStale(): boolean; OUT_FILE: string };
      if (build.isServerStale()) await build.buildServer();
      serverFile = build.OUT_FILE;

      const t0 = Date.now();
      const results: RoundResult[] = [];
      for (let first = 0; first < ROUNDS; first += PARALLEL) {
        const batch = Array.from({ length: Math.min(PARALLEL, ROUNDS - first) }, (_, i) => round(first + i + 1));
        results.push(...await Promise.all(batch));
      }
      console.log(`startup-together: ${ROUNDS} rounds of two instances in ${((Date.now() - t0) / 1000).toFixed(1)} s `
        + `(${PARALLEL} at a time; per round ${results.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s)`);

      const full = results[0]!.final;
      expect(full.sites).toBe(Object.values(DEMO_SITES).length);
      expect(full.accounts).toBe(DEMO_ACCOUNTS.length);
      expect(full.keys).toBe(Object.values(DEMO_SITES).length);
      expect(full.rollupSites).toBe(Object.values(DEMO_SITES).length);
      expect(full.subscribers).toBeGreaterThan(0);
      for (const r of results) {
        expect({ round: r.round, first: r.first, alive: r.alive }).toEqual({ round: r.round, first: [200, 200], alive: true });
        // Each instance's very first answer already shows the second site's whole world, as its last does.
        expect(r.finalRosters[0]!.status).toBe(200);
        expect(r.finalRosters[0]!.subscribers).toBeGreaterThan(0);
        expect({ round: r.round, firstRosters: r.firstRosters }).toEqual({ round: r.round, firstRosters: r.finalRosters });
        // What each instance's first answer was given from: the whole seed, the same as at the end.
        expect({ round: r.round, seen: r.seen }).toEqual({ round: r.round, seen: [full, full] });
        expect({ round: r.round, final: r.final }).toEqual({ round: r.round, final: full });
      }
    });

    it('two job queues started at once on a database without pg-boss\'s schema: 10 rounds, no deadlock', { timeout: 120_000 }, async () => {
      const own = await isolatedDatabaseUrl(sharedDatabaseUrl!);
      const handles = [await openDb({ databaseUrl: own.url }), await openDb({ databaseUrl: own.url, migrate: false })];
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      try {
        const failures: string[] = [];
        for (let round = 0; round < 10; round += 1) {
          await handles[0]!.db.execute(sql`DROP SCHEMA IF EXISTS pgboss CASCADE`);
          const schedulers = handles.map((dbHandle) => createContentScheduler({ dbHandle, store: createSchedulerStore(dbHandle.db), log, config: { pollSeconds: 60 } }));
          const started = await Promise.allSettled(schedulers.map((s) => s.start()));
          for (const s of started) if (s.status === 'rejected') failures.push(`round ${round}: ${String(s.reason)}`);
          await Promise.all(schedulers.map((s) => s.stop()));
        }
        expect(failures).toEqual([]);
      } finally {
        for (const handle of handles) await handle.close();
        await own.drop();
      }
    });
  });
}

/**
 * In one process, the steps the rounds above exercise, on both databases: two preparations asked at
 * once (two connections on PostgreSQL, one on PGlite) seed once, and each returns (the start would
 * then listen) only when the demo data is whole; before, the second returned between the first's
 * sites and its world.
 */
describe(`the start-up steps asked twice at once (${sharedDatabaseUrl ? 'PostgreSQL: two connections' : 'PGlite: one process'})`, () => {
  it('two preparations seed once, and each returns only when the demo data (sites, accounts, world) is whole', { timeout: 120_000 }, async () => {
    const own = sharedDatabaseUrl ? await isolatedDatabaseUrl(sharedDatabaseUrl) : null;
    const first = own ? await openDb({ databaseUrl: own.url }) : await openTestDb();
    const second = own ? await openDb({ databaseUrl: own.url, migrate: false }) : first;
    try {
      const config = { seed: true, seedPassword: TEST_SEED_PASSWORD, seedScale: 0.01, production: false, argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 } };
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as never;
      const seenAfter = async () => {
        const db = first.db;
        const n = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]!.n);
        const [viewlift] = await db.select({ id: sites.id }).from(sites).where(eq(sites.siteInternalName, DEMO_SITES.viewlift));
        return {
          sites: await n(db.select({ n: count() }).from(sites)),
          accounts: await n(db.select({ n: count() }).from(staffUsers)),
          keys: await n(db.select({ n: count() }).from(ingestionKeys)),
          viewers: viewlift ? await n(db.select({ n: count() }).from(subscribers).where(eq(subscribers.siteId, viewlift.id))) > 0 : false,
        };
      };
      const [one, two] = await Promise.all([
        prepareDemoDatabase(first, { config, log }).then(async (r) => ({ ...r, seen: await seenAfter() })),
        prepareDemoDatabase(second, { config, log }).then(async (r) => ({ ...r, seen: await seenAfter() })),
      ]);
      expect([one.seeded, two.seeded].sort()).toEqual([false, true]);
      const whole = { sites: Object.values(DEMO_SITES).length, accounts: DEMO_ACCOUNTS.length, keys: Object.values(DEMO_SITES).length, viewers: true };
      expect(one.seen).toEqual(whole);
      expect(two.seen).toEqual(whole);
    } finally {
      if (second !== first) await second.close();
      await first.close();
      await own?.drop();
    }
  });
});

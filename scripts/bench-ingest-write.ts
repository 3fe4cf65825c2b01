/**
 * The consumer's database write alone (issue 42): `writeBatches` (server/db/ingest-repository.ts) timed
 * flush by flush, without NATS, HTTP or the fold, so a change to its SQL can be measured on its own.
 *
 * `npm run bench:ingest-write -- [--flushes 40] [--events 10000] [--players 20000] [--heartbeat 1] [--events-file F] [--steps] [--explain] [--apply-every N]`
 *
 * The npm script runs it on a fresh PostgreSQL database (scripts/with-fresh-postgres.mjs sets
 * DATABASE_URL, dropped afterwards); `npx tsx scripts/bench-ingest-write.ts` uses the DATABASE_URL
 * given, or PGlite in memory without one. It seeds the demo sites and the small world
 * (as bench:ingest's server does), gives the raw tables a day partition for each kept day (a
 * production database's shape, as server/ingest-kill.test.ts does), then writes `--flushes` flushes
 * of `--events` events made by the simulated players (scripts/player-sim.ts: a start, a heartbeat every
 * `--heartbeat` s, an end), cut as bench:ingest's producer and consumers cut them: batches of up to
 * 500 events, up to 10,000 events a flush. The first flushes are mostly session starts (every player
 * starts within the first heartbeat), the rest mostly heartbeats of known sessions, as in steady load.
 *
 * `--events-file F`: the flushes are read from F when it exists, else made and saved there, so two
 * versions of the write can be given the very same events; the fingerprint printed at the end (the
 * flushes' sessions and their counters, their heartbeats, the dirty slices, the dead letters) must
 * then be equal.
 * Then the first 3 flushes are written again (a redelivery): nothing may be written twice.
 *
 * One connection (PG_POOL_MAX=1): its server process's CPU time (/proc/<pid>/stat, 10 ms ticks) is
 * PostgreSQL's part of each flush; this process's CPU is the consumer's part. `--steps`: the time of
 * each statement of the write, by its first words (measured around the driver's call: adds a little).
 * `--explain`: every statement's plan with its actual times in the server's log (auto_explain).
 * BENCH_VERBOSE=1: a line per flush (its PostgreSQL CPU, and with `--steps` its statements' times).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PlayerEvent } from '../common/ingest-contract';
import { INGEST_MAX_EVENTS } from '../common/ingest-contract';
import { openDb, type Db } from '../server/db/client';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { applySessionCounters, siteRoster, writeBatches, WrittenSessions, type QueuedBatch } from '../server/db/ingest-repository';
import { SessionCounters } from '../server/db/ingest-session-counters';
import { ensureRawHistoryDays } from '../server/db/raw-history';
import { queryRows, seedSmallWorld } from '../server/db/seed-world';
import { prepareDemoDatabase } from '../server/demo/prepare';
import { createPlayers } from './player-sim';

const { values } = parseArgs({
  options: {
    flushes: { type: 'string', default: '40' },
    events: { type: 'string', default: '10000' },
    players: { type: 'string', default: '20000' },
    heartbeat: { type: 'string', default: '1' },
    'events-file': { type: 'string' },
    steps: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    'apply-every': { type: 'string', default: '0' },
  },
});
const flushCount = Number(values.flushes);
const eventsPerFlush = Number(values.events);
const playerCount = Number(values.players);
const heartbeatS = Number(values.heartbeat);

const databaseUrl = process.env.DATABASE_URL || undefined;
// The seed's handle: the start-up lock holds a connection of its own while the seed uses another.
const setup = await openDb(databaseUrl ? { databaseUrl } : { dataDir: 'memory://' });
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
console.log(`${databaseUrl ? 'PostgreSQL' : 'PGlite (in memory)'}; load at start ${load()}`);

const setupAt = performance.now();
await prepareDemoDatabase(setup, {
  config: { seed: true, seedPassword: undefined, seedScale: 0, production: false, argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 } },
  log: { info: () => undefined, warn: () => undefined },
});
await seedSmallWorld(setup.db);
// The writes' handle: one connection (PG_POOL_MAX, read when the pool is made), so its server
// process's CPU is the write's PostgreSQL CPU. PGlite has one connection anyway (the seed's).
let handle = setup;
if (databaseUrl) {
  await setup.close();
  process.env.PG_POOL_MAX = '1';
  handle = await openDb({ databaseUrl, migrate: false });
}
const db = handle.db;
const [site] = await queryRows<{ id: string }>(db, sql`SELECT id::text FROM sites WHERE site_internal_name = ${DEMO_SITES.viewlift}`);
const siteId = site!.id;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
await ensureRawHistoryDays(db, Array.from({ length: 92 }, (_, i) => dayOf(Date.now() - (90 - i) * 86_400_000)));
const roster = await siteRoster(db, siteId, 500);

/** The flushes: each a list of batches of up to 500 events, up to `eventsPerFlush` events in all. */
function makeFlushes(): PlayerEvent[][][] {
  const start = Date.now();
  const players = createPlayers(roster, playerCount, heartbeatS, start);
  const flushes: PlayerEvent[][][] = [];
  let pending: PlayerEvent[] = [];
  let flush: PlayerEvent[][] = [];
  let inFlush = 0;
  for (let t = start; flushes.length < flushCount; t += 20) {
    pending.push(...players.step(t));
    while (pending.length >= INGEST_MAX_EVENTS && flushes.length < flushCount) {
      const batch = pending.slice(0, Math.min(INGEST_MAX_EVENTS, eventsPerFlush - inFlush));
      pending = pending.slice(batch.length);
      flush.push(batch);
      inFlush += batch.length;
      if (inFlush >= eventsPerFlush) {
        flushes.push(flush);
        flush = [];
        inFlush = 0;
      }
    }
  }
  return flushes;
}

/**
 * The flushes of `--events-file` (made, or read and put on this database's roster: every fresh
 * database's viewers and titles have ids of their own, in the same order).
 */
function loadFlushes(): PlayerEvent[][][] {
  const file = values['events-file'];
  if (!file || !existsSync(file)) {
    const made = makeFlushes();
    if (file) writeFileSync(file, JSON.stringify({ roster, flushes: made }));
    return made;
  }
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { roster: typeof roster; flushes: PlayerEvent[][][] };
  if (saved.roster.subscribers.length !== roster.subscribers.length || saved.roster.content.length !== roster.content.length) {
    throw new Error(`${file} was made on a world of ${saved.roster.subscribers.length} viewers and ${saved.roster.content.length} titles, not this one's`);
  }
  const ids = new Map([
    ...saved.roster.subscribers.map((s, i) => [s.id, roster.subscribers[i]!.id] as const),
    ...saved.roster.content.map((c, i) => [c.id, roster.content[i]!.id] as const),
  ]);
  for (const e of saved.flushes.flat(2)) {
    if (e.type !== 'session.start') continue;
    e.subscriberId = ids.get(e.subscriberId)!;
    e.contentId = ids.get(e.contentId)!;
  }
  return saved.flushes;
}
const flushes = loadFlushes();
// Days before the first event's (a file made earlier) and after: the partitions a production database has.
const firstAt = Date.parse(flushes[0]![0]![0]!.at);
await ensureRawHistoryDays(db, [dayOf(firstAt - 86_400_000), dayOf(firstAt), dayOf(firstAt + 86_400_000)]);
console.log(`setup ${((performance.now() - setupAt) / 1000).toFixed(1)} s: ${flushes.length} flushes, ${flushes.flat(2).length} events, ${roster.subscribers.length} viewers, ${roster.content.length} titles`);

// --steps: the write's statements timed by their first words.
const dialect = new PgDialect();
const stepTimes = new Map<string, { ms: number; n: number }>();
const stepOf = (query: SQL) => {
  const text = dialect.sqlToQuery(query).sql.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
  const into = /^(INSERT INTO \w+|UPDATE \w+|SELECT count\(pg_advisory|SELECT \w+ FROM sites|SELECT[^(]*FROM (?:\w+|json_to_recordset)|WITH|ANALYZE|SELECT raw_history)/.exec(text);
  return into ? into[1]! : text.slice(0, 40);
};
const timed = (runner: Pick<Db, 'execute'>) => new Proxy(runner, {
  get(target, key, receiver) {
    if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
    return async (query: SQL) => {
      const began = performance.now();
      try {
        return await target.execute(query);
      } finally {
        const step = stepOf(query);
        const s = stepTimes.get(step) ?? { ms: 0, n: 0 };
        s.ms += performance.now() - began;
        s.n += 1;
        stepTimes.set(step, s);
      }
    };
  },
});
const writeDb: Db = values.steps ? new Proxy(db, {
  get(target, key, receiver) {
    if (key === 'execute') return timed(target).execute;
    if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
    return <T>(fn: (tx: Db) => Promise<T>) => target.transaction((tx) => fn(timed(tx as unknown as Db) as Db));
  },
}) : db;

/** The CPU time (ms) of the connection's server process so far, or null (PGlite, or not on this machine). */
async function backendCpuMs(): Promise<number | null> {
  if (!databaseUrl) return null;
  const [row] = await queryRows<{ pid: number }>(db, sql`SELECT pg_backend_pid() AS pid`);
  try {
    const fields = readFileSync(`/proc/${row!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime: fields 14 and 15 of stat (11 and 12 after the command), in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

interface Flush { ms: number; pgCpuMs: number | null; nodeCpuMs: number; events: number; written: number; duplicates: number }
async function writeFlush(batches: PlayerEvent[][], known: WrittenSessions, counters?: SessionCounters, apply = false): Promise<Flush> {
  const queued: QueuedBatch[] = batches.map((events) => ({ siteId, events }));
  const cpuBefore = await backendCpuMs();
  const nodeBefore = process.cpuUsage();
  const began = performance.now();
  const result = await writeBatches(writeDb, queued, known, counters);
  // --apply-every N: what the sessions' rows are owed is written after every N-th flush, in its time.
  if (counters && apply) await applySessionCounters(writeDb, counters);
  const ms = performance.now() - began;
  const node = process.cpuUsage(nodeBefore);
  const cpuAfter = await backendCpuMs();
  return {
    ms, pgCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, nodeCpuMs: (node.user + node.system) / 1000,
    events: batches.reduce((n, b) => n + b.length, 0), written: result.written, duplicates: result.duplicates,
  };
}

function summary(label: string, runs: Flush[]): string {
  const events = runs.reduce((n, r) => n + r.events, 0);
  const ms = runs.reduce((n, r) => n + r.ms, 0);
  const pg = runs.every((r) => r.pgCpuMs !== null) ? runs.reduce((n, r) => n + r.pgCpuMs!, 0) : null;
  const nodeCpu = runs.reduce((n, r) => n + r.nodeCpuMs, 0);
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  return `${label}: ${runs.length} flushes, ${events} events in ${(ms / 1000).toFixed(2)} s = ${Math.round(events / (ms / 1000))} events/s; `
    + `per flush p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; `
    + `PostgreSQL CPU ${pg === null ? 'n/a' : `${(pg / runs.length).toFixed(0)} ms/flush (${Math.round(events / (pg / 1000))} events per CPU-s)`}; `
    + `consumer CPU ${(nodeCpu / runs.length).toFixed(0)} ms/flush`;
}

// --explain: every statement's plan with its times goes to the server's log (auto_explain; a superuser's connection).
if (values.explain) {
  await db.execute(sql`LOAD 'auto_explain'`);
  await db.execute(sql`SET auto_explain.log_min_duration = 0`);
  await db.execute(sql`SET auto_explain.log_analyze = on`);
}
const known = new WrittenSessions();
const runs: Flush[] = [];
/**
 * --apply-every N (N > 0): the write as a consumer with its sessions' counters in memory does it
 * (INGEST_SESSION_FLUSH_MS; server/db/ingest-session-counters.ts): heartbeats with each flush, the
 * sessions' rows after every N-th flush (at 20,000 events/s over two consumers, a flush of 10,000
 * every second each: N = 2 is a 2 s interval). 0: every session's row with each flush.
 */
const applyEvery = Number(values['apply-every']);
const counters = applyEvery > 0 ? new SessionCounters() : undefined;
console.log(`load before the writes ${load()}${counters ? `; sessions' rows written after every ${applyEvery} flushes` : ''}`);
for (const [i, batches] of flushes.entries()) {
  const stepsBefore = new Map([...stepTimes].map(([step, s]) => [step, s.ms]));
  const run = await writeFlush(batches, known, counters, counters !== undefined && ((i + 1) % applyEvery === 0 || i === flushes.length - 1));
  runs.push(run);
  if (process.env.BENCH_VERBOSE) {
    // With --steps, the flush's own statements (over 5 ms), by their first words.
    const own = [...stepTimes].map(([step, s]) => [step, s.ms - (stepsBefore.get(step) ?? 0)] as const).filter(([, ms]) => ms >= 5);
    const steps = own.length === 0 ? '' : `; ${own.map(([step, ms]) => `${step.slice(0, 28)} ${ms.toFixed(0)}`).join(', ')}`;
    console.log(`flush ${i + 1}: ${run.events} events, ${run.written} written, ${run.duplicates} duplicates, ${run.ms.toFixed(0)} ms, PostgreSQL CPU ${run.pgCpuMs ?? 'n/a'} ms${steps}`);
  }
}
const loadAfter = load();
const startsFlushes = Math.max(1, Math.min(runs.length - 1, Math.ceil((playerCount / eventsPerFlush) * 1.5)));
console.log(summary('all flushes', runs));
console.log(summary(`first ${startsFlushes} (the players' starts)`, runs.slice(0, startsFlushes)));
if (runs.length > startsFlushes) console.log(summary('after them (mostly heartbeats)', runs.slice(startsFlushes)));
console.log(`load after the writes ${loadAfter}`);
const again = [];
for (const batches of flushes.slice(0, 3)) again.push(await writeFlush(batches, new WrittenSessions(), counters && new SessionCounters(), true));
console.log(summary('the first 3 flushes again (a redelivery)', again));

if (values.steps) {
  const rows = [...stepTimes].sort((a, b) => b[1].ms - a[1].ms);
  for (const [step, s] of rows) console.log(`  ${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(5)}x  ${step}`);
}

const written = runs.reduce((n, r) => n + r.written, 0);
// The sessions of the flushes only (the small world has sessions of its own, some of them recent).
const ids = JSON.stringify([...new Set(flushes.flat(2).map((e) => e.sessionId.toLowerCase()))]);
const [print] = await queryRows<Record<string, string | number>>(db, sql`
  WITH ids AS (SELECT value::uuid AS id FROM json_array_elements_text(${ids}::json))
  SELECT
    (SELECT count(*) FROM playback_sessions WHERE site_id = ${siteId}::uuid AND id IN (SELECT id FROM ids))::int AS sessions,
    (SELECT md5(string_agg(concat_ws('|', id, started_at, last_event_at, ended_at, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps,
        heartbeat_count, bitrate_kbps_sum, error_code, plan_id IS NULL, series_id IS NULL, startup_ms, os, app_version, region, stream_type), ',' ORDER BY id))
      FROM playback_sessions WHERE site_id = ${siteId}::uuid AND id IN (SELECT id FROM ids)) AS sessions_md5,
    (SELECT count(*) FROM player_heartbeats WHERE site_id = ${siteId}::uuid AND session_id IN (SELECT id FROM ids))::int AS heartbeats,
    (SELECT string_agg(day::text, ',' ORDER BY day) FROM dirty_rollup_slices WHERE site_id = ${siteId}::uuid) AS dirty_days,
    (SELECT count(*) FROM ingest_dead_letters WHERE site_id = ${siteId}::uuid)::int AS dead_letters`);
const again3 = again.reduce((n, r) => n + r.written, 0);
console.log(`written ${written} of ${runs.reduce((n, r) => n + r.events, 0)} events (again: ${again3} written); fingerprint ${JSON.stringify(print)}`);
await handle.close();
if (again3 !== 0) {
  console.error('a redelivered flush wrote events again');
  process.exit(1);
}

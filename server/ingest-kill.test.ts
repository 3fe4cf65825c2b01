/**
 * Issue 37, item 1: no accepted player event is lost when a consumer process dies.
 *
 * 200,000 events (INGEST_KILL_EVENTS) from 8 senders over thousands of overlapping sessions are
 * posted to `POST /v1/events` (every post must be answered 202) while the only consumer, an
 * `ingest:worker` PROCESS (scripts/ingest-worker.ts spawned as a child, with its fold worker), is
 * SIGKILLed twice and started again. Then: every accepted event is in the raw tables exactly once
 * (each session, its heartbeat count, its final counters and end), nothing went to the dead letters,
 * the rollups equal a recomputation from those raw rows, and the stream and the rollup slices
 * drained within 60 s of the last kill.
 *
 * Registered only in the PostgreSQL pass of the server tests (DATABASE_URL: the child shares the
 * test's database; on PGlite there is no second process to share it with). Needs NATS with JetStream
 * at NATS_TEST_URL (default nats://127.0.0.1:4222): fails at once with a message naming it.
 * INGEST_KILL_RUNS (default 1) repeats the whole run; INGEST_KILL_ACK_WAIT_MS sets the consumer's
 * ack wait (default: INGEST_ACK_WAIT_MS's, 10 s; the old consumer gave heartbeats up at 30 s, the
 * old default).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { createPlayers } from '../scripts/player-sim';
import { DEMO_SITES } from './db/demo-accounts';
import { siteRoster } from './db/ingest-repository';
import { ensureRawHistoryDays } from './db/raw-history';
import { siteDayOf } from '../common/site-day';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { DEFAULT_ACK_WAIT_MS, loadIngestConfig } from './domain/ingest-pipeline';
import { connectTestJetStream, NATS_TEST_URL } from './test/nats';
import { createTestApp, type TestApp } from './test/kit';

const NATS_URL = NATS_TEST_URL;
const onPostgres = Boolean(process.env.DATABASE_URL);
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
};
const RUNS = positive(process.env.INGEST_KILL_RUNS, 1);
const EVENTS = positive(process.env.INGEST_KILL_EVENTS, 200_000);
const ACK_WAIT_MS = positive(process.env.INGEST_KILL_ACK_WAIT_MS, DEFAULT_ACK_WAIT_MS);
const SENDERS = 8;
const BATCH = 500;
/** The promise of the issue: the stream is drained (written and folded) within this of the last kill. */
const DRAIN_WITHIN_MS = 60_000;
/** Six days ago: a day no other test file writes to (they use now - minutes, - 30 h and - 4 days). */
const BASE = Date.now() - 6 * 86_400_000;

interface Expected { heartbeats: number; watched: number; rebuffers: number; endedAt: string }

/** The senders' batches, generated up front: every sender's players start, beat every 20 s, end and start again. */
function generate(roster: Awaited<ReturnType<typeof siteRoster>>) {
  const perSender = Math.ceil(EVENTS / SENDERS);
  const senders: PlayerEvent[][][] = [];
  for (let s = 0; s < SENDERS; s += 1) {
    const players = createPlayers(roster, 100, 20, BASE);
    const events: PlayerEvent[] = [];
    for (let t = BASE; events.length < perSender; t += 1000) events.push(...players.step(t));
    events.length = Math.min(events.length, perSender);
    // A session cut off by the length ends with the rest at the end.
    const open = new Map<string, PlayerEvent>();
    for (const e of events) {
      if (e.type === 'session.end') open.delete(e.sessionId);
      else open.set(e.sessionId, e);
    }
    const last = Date.parse(events[events.length - 1]!.at) + 1000;
    for (const [sessionId, e] of open) {
      const watched = e.type === 'heartbeat' ? e.watchedSeconds : 0;
      const rebuffers = e.type === 'heartbeat' ? e.rebufferCount : 0;
      const rebufferMs = e.type === 'heartbeat' ? e.rebufferMs : 0;
      events.push({ type: 'session.end', eventId: randomUUID(), sessionId, at: new Date(last).toISOString(), watchedSeconds: watched, rebufferCount: rebuffers, rebufferMs });
    }
    const batches: PlayerEvent[][] = [];
    for (let i = 0; i < events.length; i += BATCH) batches.push(events.slice(i, i + BATCH));
    senders.push(batches);
  }
  const expected = new Map<string, Expected>();
  for (const e of senders.flat(2)) {
    const row = expected.get(e.sessionId) ?? { heartbeats: 0, watched: 0, rebuffers: 0, endedAt: '' };
    if (e.type === 'heartbeat') row.heartbeats += 1;
    if (e.type === 'session.end') Object.assign(row, { watched: e.watchedSeconds, rebuffers: e.rebufferCount, endedAt: e.at });
    expected.set(e.sessionId, row);
  }
  return { senders, expected, events: senders.flat(2).length };
}

let t: TestApp;
let nc: NatsConnection;
let jsm: JetStreamManager;
let siteId: string;
/** The site's zone: its rollup slices are its days (issue 38); the raw partitions stay UTC days (`day`). */
let zone = 'UTC';

beforeAll(async () => {
  if (!onPostgres) return;
  ({ nc, jsm } = await connectTestJetStream('server/ingest-kill.test.ts'));
  t = await createTestApp({ demo: true });
  await seedSmallWorld(t.db);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  zone = await siteTimeZone(t.db, siteId);
  // A production database's shape: a day partition for every kept day (INGEST_RETENTION_DAYS, 90),
  // so a look-up of a session by id that does not know its day meets them all.
  await ensureRawHistoryDays(t.db, Array.from({ length: 92 }, (_, i) => day(Date.now() - (90 - i) * 86_400_000)));
}, 180_000);

afterAll(async () => {
  await nc?.close();
  await t?.close();
});

/** `node --import tsx scripts/ingest-worker.ts`: one process, so SIGKILL reaches the consumer itself. */
function startWorker(stream: string, log: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts')], {
    env: {
      ...process.env, NATS_URL, INGEST_STREAM: stream, INGEST_ACK_WAIT_MS: String(ACK_WAIT_MS),
      // No retention pass under the other test files of this shared database.
      INGEST_MAINTENANCE_INTERVAL_MS: String(86_400_000),
      // Full priority (INGEST_WORKER_NICE's default is 10): the test's own processes share the machine with
      // it, and what is under test is what it writes, not whom it yields to.
      INGEST_WORKER_NICE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ingest worker was not ready within 60 s: ${log.slice(-20).join('')}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      log.push(chunk.toString());
      if (chunk.toString().includes('INGEST_WORKER_READY')) { clearTimeout(timer); resolve(child); }
    });
    child.stderr!.on('data', (chunk: Buffer) => { log.push(chunk.toString()); });
    child.once('exit', (code, signal) => { if (signal !== 'SIGKILL' && signal !== 'SIGTERM') log.push(`worker exited ${code ?? signal}\n`); });
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
  expect(child.signalCode).toBe('SIGKILL');
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function playbackSnapshot(days: string[]) {
  return queryRows(t.db, sql`
    SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
      rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
    FROM daily_playback_rollups WHERE site_id = ${siteId} AND day::text IN (SELECT value FROM json_array_elements_text(${JSON.stringify(days)}::json))
    ORDER BY network_id, day, dimension, dim_key`);
}

async function dirtySlices(days: string[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`
    SELECT count(*)::int AS n FROM dirty_rollup_slices WHERE site_id = ${siteId}
      AND day IN (SELECT value::date FROM json_array_elements_text(${JSON.stringify(days)}::json))`);
  return row!.n;
}

/** Runs the worker with `env` until it exits; its exit code and what it printed on stderr. */
async function workerRefusal(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, stderr };
}

// The PGlite pass: the embedded default has no separate consumer process to kill (its memory queue lives inside
// `npm start`); the worker refuses to start there and says what it needs, instead of consuming nothing.
if (!onPostgres) describe('the ingest worker on the embedded default (the kill runs need PostgreSQL and NATS: they run in the PostgreSQL stage)', () => {
  it('refuses to start without NATS_URL and DATABASE_URL, saying it needs both (exit 2)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NATS_URL;
    delete env.DATABASE_URL;
    const { code, stderr } = await workerRefusal(env);
    expect(code).toBe(2);
    expect(stderr).toContain('npm run ingest:worker needs NATS_URL (the JetStream the servers publish to) and DATABASE_URL (their PostgreSQL).');
  }, 60_000);

  it('refuses an INGEST_WORKER_NICE that is not a whole number from 0 to 19, before it connects to anything (exit 2)', async () => {
    // Nothing listens on port 1: the worker says what is wrong with its priority before it would connect.
    const { code, stderr } = await workerRefusal({ ...process.env, NATS_URL: 'nats://127.0.0.1:1', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', INGEST_WORKER_NICE: '-5' });
    expect(code).toBe(2);
    expect(stderr).toContain('INGEST_WORKER_NICE must be a whole number from 0 to 19.');
  }, 60_000);
});

if (onPostgres) describe(`${EVENTS} events from ${SENDERS} senders while the consumer process is SIGKILLed twice (needs PostgreSQL and NATS at NATS_TEST_URL)`, () => {
  for (let run = 1; run <= RUNS; run += 1) {
    it(`run ${run} of ${RUNS}: every accepted event is in the raw tables and the rollups once, and the stream drains within 60 s of the last kill`, async () => {
      const roster = await siteRoster(t.db, siteId, 500);
      const work = generate(roster);
      const stream = `INGEST_KILL_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
      const producer = await createTestApp({ db: t.dbHandle, ingest: { ...loadIngestConfig({}), natsUrl: NATS_URL, stream, ackWaitMs: ACK_WAIT_MS, consumers: 0, fold: false } });
      const log: string[] = [];
      let worker = await startWorker(stream, log);
      const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
      const started = Date.now();
      let lastKillAt = 0;
      try {
        let accepted = 0;
        let busy = 0;
        const refused: string[] = [];
        const kills = [0.4, 0.8].map((share) => Math.floor(work.events * share));
        let killing: Promise<void> = Promise.resolve();
        const send = async (batches: PlayerEvent[][]) => {
          for (const events of batches) {
            let res = await producer.post(INGEST_PATH, { events }, headers);
            // 503 means "send the same batch again later" (README): a player does.
            while (res.statusCode === 503) {
              busy += 1;
              await new Promise((r) => setTimeout(r, 200));
              res = await producer.post(INGEST_PATH, { events }, headers);
            }
            if (res.statusCode !== 202) refused.push(`${res.statusCode} ${res.body.slice(0, 300)}`);
            else accepted += events.length;
            if (kills.length > 0 && accepted >= kills[0]!) {
              kills.shift();
              killing = killing.then(async () => {
                await kill(worker);
                lastKillAt = Date.now();
                worker = await startWorker(stream, log);
              });
            }
          }
        };
        await Promise.all(work.senders.map(send));
        const sentMs = Date.now() - started;
        expect(refused).toEqual([]);
        expect(accepted).toBe(work.events);
        await killing;
        expect(lastKillAt).toBeGreaterThan(0);

        const days = [...new Set(work.senders.flat(2).map((e) => siteDayOf(e.at, zone)))];
        // Drained: nothing pending or unacknowledged in the stream, no rollup slice of these days left to fold.
        let drainedAt = 0;
        while (Date.now() - lastKillAt < DRAIN_WITHIN_MS + 120_000) {
          // Work-queue retention: the stream holds what is not yet acknowledged, on every partition.
          const info = await jsm.streams.info(stream);
          if (info.state.messages === 0 && (await dirtySlices(days)) === 0) {
            drainedAt = Date.now();
            break;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
        const drainMs = drainedAt === 0 ? -1 : drainedAt - lastKillAt;
        const slow = log.join('').split('\n').filter((l) => l.includes('slow event batch write'));
        console.log(`INGEST_KILL_RUN ${run}/${RUNS}: ${work.events} events, ${work.expected.size} sessions, sent in ${sentMs} ms (${busy} answers 503, sent again), drained ${drainMs} ms after the last kill (ack wait ${ACK_WAIT_MS} ms); ${slow.length} writes over 2 s${slow.length > 0 ? `, e.g. ${slow.slice(-3).join(' ')}` : ''}; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
        expect(drainedAt, `not drained ${DRAIN_WITHIN_MS + 120_000} ms after the last kill; worker log:\n${log.slice(-30).join('')}`).toBeGreaterThan(0);

        // Every session once, with every heartbeat and its final counters and end.
        const expected = [...work.expected].map(([id, e]) => ({ id, ...e }));
        const [raw] = await queryRows<{ sessions: number; rows: number; wrong: number; heartbeats: number; dead: number }>(t.db, sql`
          WITH x AS (
            SELECT * FROM json_to_recordset(${JSON.stringify(expected)}::json)
              AS x(id uuid, heartbeats integer, watched integer, rebuffers integer, "endedAt" timestamptz))
          SELECT
            (SELECT count(DISTINCT p.id)::int FROM playback_sessions p JOIN x ON p.site_id = ${siteId} AND p.id = x.id) AS sessions,
            (SELECT count(*)::int FROM playback_sessions p JOIN x ON p.site_id = ${siteId} AND p.id = x.id) AS rows,
            (SELECT count(*)::int FROM x LEFT JOIN playback_sessions p ON p.site_id = ${siteId} AND p.id = x.id
              WHERE p.id IS NULL OR p.heartbeat_count <> x.heartbeats OR p.watched_seconds <> x.watched
                OR p.rebuffer_count <> x.rebuffers OR p.ended_at IS DISTINCT FROM x."endedAt") AS wrong,
            (SELECT count(*)::int FROM player_heartbeats h JOIN x ON h.site_id = ${siteId} AND h.session_id = x.id) AS heartbeats,
            (SELECT count(*)::int FROM ingest_dead_letters d WHERE d.site_id = ${siteId}
              AND d.payload->>'sessionId' IN (SELECT id::text FROM x)) AS dead`);
        const heartbeatsSent = expected.reduce((n, e) => n + e.heartbeats, 0);
        expect(raw, `worker log:\n${log.filter((l) => /dropped|dead|not written/.test(l)).slice(-20).join('')}`)
          .toEqual({ sessions: work.expected.size, rows: work.expected.size, wrong: 0, heartbeats: heartbeatsSent, dead: 0 });

        // The rollups the consumer's fold left equal a recomputation from those raw rows.
        const folded = await playbackSnapshot(days);
        expect(folded.length).toBeGreaterThan(0);
        for (const d of days) await rebuildRollups(t.db, { siteId, from: d, to: d });
        expect(await playbackSnapshot(days)).toEqual(folded);
        expect(drainMs).toBeLessThanOrEqual(DRAIN_WITHIN_MS);
      } finally {
        if (worker.exitCode === null && worker.signalCode === null) {
          worker.kill('SIGTERM');
          await Promise.race([exited(worker), new Promise((r) => setTimeout(r, 10_000))]);
          if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
        }
        await producer.close();
        await jsm.streams.delete(stream).catch(() => undefined);
      }
    }, 900_000);
  }
});

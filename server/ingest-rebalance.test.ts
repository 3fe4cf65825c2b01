/**
 * Issue 42: a rebalance moves live sessions to another consumer process without double counting.
 *
 * Two `ingest:worker` PROCESSES (scripts/ingest-worker.ts) share a stream of 4 partitions (leases:
 * PostgreSQL advisory locks, server/db/ingest-leases.ts). 40 sessions, 10 on each partition, play
 * in four rounds:
 * 1. worker A alone: it takes every partition and writes each session's start and first heartbeats;
 * 2. worker B starts: A gives back half the partitions, B takes them (their sessions are live,
 *    halfway through); the next heartbeats are written by the new owner only (each worker's
 *    counters by partition, read with SIGUSR2, are checked exactly);
 * 3. A is SIGKILLed while heartbeats are being sent: B takes A's partitions at once (A's lease
 *    connection died with it) and A's unacknowledged messages come back after the ack wait;
 * 4. the sessions end.
 * Then every session is in the raw tables once, with every heartbeat, its final counters and end;
 * nothing went to the dead letters; the rollups equal a recomputation from those raw rows.
 *
 * Registered only in the PostgreSQL pass (DATABASE_URL: the workers share the test's database; the
 * embedded PGlite has one owner). Needs NATS with JetStream at NATS_TEST_URL (default
 * nats://127.0.0.1:4222): fails at once with a message naming it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { siteDayOf } from '../common/site-day';
import { DEMO_SITES } from './db/demo-accounts';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { partitionOf } from './domain/ingest-partitions';
import { loadIngestConfig } from './domain/ingest-pipeline';
import { connectTestJetStream, NATS_TEST_URL } from './test/nats';
import { createTestApp, firstSubscriberAndVideo, type TestApp } from './test/kit';

const NATS_URL = NATS_TEST_URL;
const onPostgres = Boolean(process.env.DATABASE_URL);
const PARTITIONS = 4;
const SESSIONS_PER_PARTITION = 10;
const HEARTBEATS = 6;
const ACK_WAIT_MS = 2000;
/** Two and a half days ago: a site day no other test file writes to (they use now - minutes, - 30 h, - 4, 5 and 6 days). */
const BASE = Date.now() - 60 * 3_600_000;

let t: TestApp;
let nc: NatsConnection;
let jsm: JetStreamManager;
let site: { id: string; subscriberId: string; contentId: string };
let zone = 'UTC';

beforeAll(async () => {
  ({ nc, jsm } = await connectTestJetStream('server/ingest-rebalance.test.ts'));
  t = await createTestApp({ demo: true });
  await seedSmallWorld(t.db);
  site = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  zone = await siteTimeZone(t.db, site.id);
}, 180_000);

afterAll(async () => {
  await nc?.close();
  await t?.close();
});

/** A worker process and what it printed. */
interface Worker {
  child: ChildProcess;
  out: string[];
}

interface WorkerStats { handled: Record<string, number>; partitions: number[] }

function startWorker(stream: string): Promise<Worker> {
  // `node --import tsx`: one process, so the SIGKILL reaches the consumer itself.
  const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts')], {
    env: {
      ...process.env, NATS_URL, INGEST_STREAM: stream, INGEST_PARTITIONS: String(PARTITIONS), INGEST_REBALANCE_MS: '200',
      INGEST_ACK_WAIT_MS: String(ACK_WAIT_MS), INGEST_FOLD_INTERVAL_MS: '500',
      // No retention pass under the other test files of this shared database.
      INGEST_MAINTENANCE_INTERVAL_MS: String(86_400_000),
      // Full priority (INGEST_WORKER_NICE's default is 10): the test's own processes share the machine with
      // it, and what is under test is what it writes, not whom it yields to.
      INGEST_WORKER_NICE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: Worker = { child, out: [] };
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    worker.out.push(...lines);
  });
  child.stderr!.on('data', (chunk: Buffer) => { worker.out.push(...chunk.toString().split('\n')); });
  return until(() => worker.out.some((l) => l.startsWith('INGEST_WORKER_READY')), 60_000, () => `worker not ready: ${worker.out.slice(-20).join('\n')}`).then(() => worker);
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The partitions the worker last said it owns ("ingest partitions owned" lines). */
function ownedBy(worker: Worker): number[] | null {
  const line = worker.out.filter((l) => l.startsWith('ingest partitions owned ')).at(-1);
  return line ? (JSON.parse(line.slice('ingest partitions owned '.length)) as { partitions: number[] }).partitions : null;
}

/** The worker's counters now (SIGUSR2). */
async function statsOf(worker: Worker): Promise<WorkerStats> {
  const before = worker.out.filter((l) => l.startsWith('INGEST_WORKER_STATS ')).length;
  worker.child.kill('SIGUSR2');
  await until(() => worker.out.filter((l) => l.startsWith('INGEST_WORKER_STATS ')).length > before, 10_000, () => 'no INGEST_WORKER_STATS');
  return JSON.parse(worker.out.filter((l) => l.startsWith('INGEST_WORKER_STATS ')).at(-1)!.slice('INGEST_WORKER_STATS '.length)) as WorkerStats;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

/** 40 sessions, 10 on each partition: start, HEARTBEATS heartbeats a minute apart, end. */
function sessions() {
  const byPartition = new Map<number, string[]>();
  while ([...byPartition.values()].reduce((n, ids) => n + ids.length, 0) < PARTITIONS * SESSIONS_PER_PARTITION) {
    const id = randomUUID();
    const k = partitionOf(site.id, id, PARTITIONS);
    const ids = byPartition.get(k) ?? [];
    if (ids.length < SESSIONS_PER_PARTITION) byPartition.set(k, [...ids, id]);
  }
  return [...byPartition].flatMap(([partition, ids]) => ids.map((sessionId, i) => {
    const startedAt = BASE + (partition * SESSIONS_PER_PARTITION + i) * 1000;
    const at = (minute: number) => new Date(startedAt + minute * 60_000).toISOString();
    const start: PlayerEvent = { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: site.subscriberId, contentId: site.contentId, deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Fastly', startupMs: 800 + i };
    const beats: PlayerEvent[] = Array.from({ length: HEARTBEATS }, (_, b) => ({
      type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(b + 1), playheadSeconds: 60 * (b + 1), watchedSeconds: 57 * (b + 1),
      bitrateKbps: 2000 + 500 * ((i + b) % 4), rebufferCount: Math.floor((b + 1) / 3), rebufferMs: 600 * Math.floor((b + 1) / 3),
    }));
    const end: PlayerEvent = { type: 'session.end', eventId: randomUUID(), sessionId, at: at(HEARTBEATS + 1), watchedSeconds: 57 * HEARTBEATS + 30, rebufferCount: 2, rebufferMs: 1200 };
    return { sessionId, partition, start, beats, end };
  }));
}

// The PGlite pass: the embedded database has one owner, so its one process takes no leases and
// consumes every partition (and the unpartitioned subject) alone.
if (!onPostgres) describe('partitions on the embedded default (needs NATS at NATS_TEST_URL; the rebalance runs in the PostgreSQL stage)', () => {
  it('consumes every partition and the unpartitioned subject in its one process', async () => {
    const stream = `INGEST_SOLO_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    const app = await createTestApp({ db: t.dbHandle, ingest: { ...loadIngestConfig({}), natsUrl: NATS_URL, stream, consumers: 1, partitions: PARTITIONS } });
    try {
      expect(app.app.ingest.owned()).toEqual([0, 1, 2, 3, 4]);
      const [s] = sessions();
      expect((await app.post(INGEST_PATH, { events: [s!.start, ...s!.beats, s!.end] }, { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) })).statusCode).toBe(202);
      await app.app.ingest.drain(30_000);
      expect(app.app.ingest.stats().handled).toEqual({ [s!.partition]: HEARTBEATS + 2 });
    } finally {
      await app.close();
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  });
});

if (onPostgres) describe('partition rebalance between consumer processes (needs PostgreSQL and NATS at NATS_TEST_URL)', () => {
  it('moves live sessions to the worker that takes their partition, on a join and on a SIGKILL, and counts every event once', async () => {
    const stream = `INGEST_REBALANCE_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    const producer = await createTestApp({ db: t.dbHandle, ingest: { ...loadIngestConfig({}), natsUrl: NATS_URL, stream, consumers: 0, fold: false, partitions: PARTITIONS } });
    const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
    const played = sessions();
    const post = async (events: PlayerEvent[]) => {
      // 503 means "send the same batch again later" (README): a player does.
      for (let tries = 0; ; tries += 1) {
        const res = await producer.post(INGEST_PATH, { events }, headers);
        if (res.statusCode === 202) return;
        expect(res.statusCode, res.body).toBe(503);
        expect(tries).toBeLessThan(50);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    /** Batches of 10 sessions' events (every partition mixed in a batch, as players of many sessions would send). */
    const postAll = async (pick: (s: (typeof played)[number]) => PlayerEvent[]) => {
      for (let i = 0; i < played.length; i += 10) await post(played.slice(i, i + 10).flatMap(pick));
    };
    const heartbeatsWritten = async () => (await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM player_heartbeats WHERE site_id = ${site.id}
        AND session_id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(played.map((s) => s.sessionId))}::json))`))[0]!.n;
    const eventsOn = (partitions: number[], pick: (s: (typeof played)[number]) => PlayerEvent[]) =>
      played.filter((s) => partitions.includes(s.partition)).reduce((n, s) => n + pick(s).length, 0);
    const all = Array.from({ length: PARTITIONS }, (_, k) => k);
    const round1 = (s: (typeof played)[number]) => [s.start, ...s.beats.slice(0, 2)];
    const round2 = (s: (typeof played)[number]) => s.beats.slice(2, 4);

    let a: Worker | null = null;
    let b: Worker | null = null;
    try {
      // 1. A alone takes every partition and writes the starts and first two heartbeats.
      a = await startWorker(stream);
      await until(() => ownedBy(a!)?.length === PARTITIONS, 20_000, () => `A owns ${JSON.stringify(ownedBy(a!))}`);
      await postAll(round1);
      await until(async () => (await heartbeatsWritten()) === played.length * 2, 30_000, () => 'round 1 not written');

      // 2. B joins: A gives back half, B takes them; the next heartbeats go to each partition's new owner.
      b = await startWorker(stream);
      await until(() => ownedBy(a!)?.length === PARTITIONS / 2 && ownedBy(b!)?.length === PARTITIONS / 2, 20_000,
        () => `A owns ${JSON.stringify(ownedBy(a!))}, B owns ${JSON.stringify(ownedBy(b!))}`);
      const ofA = ownedBy(a)!;
      const ofB = ownedBy(b)!;
      expect([...ofA, ...ofB].sort()).toEqual(all);
      await postAll(round2);
      await until(async () => (await heartbeatsWritten()) === played.length * 4, 30_000, () => 'round 2 not written');
      const [statsA, statsB] = await Promise.all([statsOf(a), statsOf(b)]);
      // What each wrote, partition by partition: A everything of round 1 and round 2 of its own; B
      // round 2 of the partitions it took, whose sessions A had started. Nothing twice.
      for (const k of all) {
        const mine = ofA.includes(k);
        expect(statsA.handled[k] ?? 0, `A, partition ${k}`).toBe(eventsOn([k], round1) + (mine ? eventsOn([k], round2) : 0));
        expect(statsB.handled[k] ?? 0, `B, partition ${k}`).toBe(mine ? 0 : eventsOn([k], round2));
      }

      // 3. A dies while heartbeats come: B takes its partitions at once, and A's unacknowledged
      // messages come back to B after the ack wait.
      const round3 = postAll((s) => s.beats.slice(4));
      await new Promise((r) => setTimeout(r, 50));
      a.child.kill('SIGKILL');
      await exited(a.child);
      await round3;
      await until(() => ownedBy(b!)?.length === PARTITIONS, 20_000, () => `B owns ${JSON.stringify(ownedBy(b!))} after A died`);

      // 4. The sessions end.
      await postAll((s) => [s.end]);
      const days = [...new Set(played.map((s) => siteDayOf(s.start.at, zone)))];
      await until(async () => {
        const info = await jsm.streams.info(stream);
        const [dirty] = await queryRows<{ n: number }>(t.db, sql`
          SELECT count(*)::int AS n FROM dirty_rollup_slices WHERE site_id = ${site.id} AND day IN (SELECT value::date FROM json_array_elements_text(${JSON.stringify(days)}::json))`);
        return info.state.messages === 0 && dirty!.n === 0;
      }, 60_000, () => `not drained; B: ${b!.out.slice(-15).join('\n')}`);

      const expected = played.map((s) => ({ id: s.sessionId, heartbeats: HEARTBEATS, watched: 57 * HEARTBEATS + 30, rebuffers: 2, endedAt: s.end.at }));
      const [raw] = await queryRows<{ sessions: number; rows: number; wrong: number; heartbeats: number; dead: number }>(t.db, sql`
        WITH x AS (
          SELECT * FROM json_to_recordset(${JSON.stringify(expected)}::json)
            AS x(id uuid, heartbeats integer, watched integer, rebuffers integer, "endedAt" timestamptz))
        SELECT
          (SELECT count(DISTINCT p.id)::int FROM playback_sessions p JOIN x ON p.site_id = ${site.id} AND p.id = x.id) AS sessions,
          (SELECT count(*)::int FROM playback_sessions p JOIN x ON p.site_id = ${site.id} AND p.id = x.id) AS rows,
          (SELECT count(*)::int FROM x LEFT JOIN playback_sessions p ON p.site_id = ${site.id} AND p.id = x.id
            WHERE p.id IS NULL OR p.heartbeat_count <> x.heartbeats OR p.watched_seconds <> x.watched
              OR p.rebuffer_count <> x.rebuffers OR p.ended_at IS DISTINCT FROM x."endedAt") AS wrong,
          (SELECT count(*)::int FROM player_heartbeats h JOIN x ON h.site_id = ${site.id} AND h.session_id = x.id) AS heartbeats,
          (SELECT count(*)::int FROM ingest_dead_letters d WHERE d.site_id = ${site.id} AND d.payload->>'sessionId' IN (SELECT id::text FROM x)) AS dead`);
      expect(raw).toEqual({ sessions: played.length, rows: played.length, wrong: 0, heartbeats: played.length * HEARTBEATS, dead: 0 });

      // The rollups B's fold left equal a recomputation from those raw rows.
      const snapshot = () => queryRows(t.db, sql`
        SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
          rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
        FROM daily_playback_rollups WHERE site_id = ${site.id} AND day::text IN (SELECT value FROM json_array_elements_text(${JSON.stringify(days)}::json))
        ORDER BY network_id, day, dimension, dim_key`);
      const folded = await snapshot();
      expect(folded.length).toBeGreaterThan(0);
      for (const d of days) await rebuildRollups(t.db, { siteId: site.id, from: d, to: d });
      expect(await snapshot()).toEqual(folded);
    } finally {
      for (const w of [a, b]) if (w && w.child.exitCode === null && w.child.signalCode === null) {
        w.child.kill('SIGTERM');
        await Promise.race([exited(w.child), new Promise((r) => setTimeout(r, 10_000))]);
        if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      }
      await producer.close();
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  }, 240_000);
});

/**
 * Ingestion through NATS JetStream (issue 31): exactly once when the same batch is published twice,
 * when NATS restarts mid-stream, and when a consumer process is killed (SIGKILL) between its commit
 * and its acknowledgement; two consumers in parallel on overlapping sessions never deadlock and leave
 * the same rows as one consumer, with rollups equal to a recomputation.
 *
 * Needs NATS with JetStream at NATS_TEST_URL (default nats://127.0.0.1:4222, running on every machine
 * of this kind and on CI) and, for the restart, the nats-server binary (NATS_SERVER_BIN, default
 * /usr/sbin/nats-server), which this file starts on a free port with its own store. Each test uses a
 * stream of its own, deleted afterwards. The SIGKILL test needs PostgreSQL (DATABASE_URL): the killed
 * consumer is another process and must share the test's database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort, waitForPort } from './test/ports';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { DEMO_SITES } from './db/demo-accounts';
import { ingestRetries } from './db/ingest-repository';
import { siteDayOf } from '../common/site-day';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { DEFAULT_WORKER_NICE, loadIngestConfig, startIngestPipeline, type IngestConfig, type IngestPipeline } from './domain/ingest-pipeline';
import { DEFAULT_INGEST_PARTITIONS, partitionOf } from './domain/ingest-partitions';
import { createIngestStore } from './db/stores';
import { connectTestJetStream, NATS_TEST_URL } from './test/nats';
import { createTestApp, firstSubscriberAndVideo, type SitePlayer, type TestApp } from './test/kit';

const NATS_URL = NATS_TEST_URL;
const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN || '/usr/sbin/nats-server';
const onPostgres = Boolean(process.env.DATABASE_URL);
/** Redelivery of an unacknowledged message after 2 s, so the SIGKILL test does not wait 30 s. */
const ACK_WAIT_MS = 2000;

let t: TestApp;
let nc: NatsConnection;
let jsm: JetStreamManager;
const streams: { jsm: JetStreamManager; name: string }[] = [];
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
let viewlift: SitePlayer;
/** The site's zone: its rollups' days are its own (issue 38). */
let zone = 'UTC';
/** Errors the pipelines of this file logged (a deadlock given up on, a batch not written). */
const logged: unknown[] = [];
const log = { warn: () => undefined, error: (obj: unknown) => { logged.push(obj); } };

const newStream = () => `INGEST_TEST_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

function ingestConfig(natsUrl: string, stream: string, overrides: Partial<IngestConfig> = {}): IngestConfig {
  return { ...loadIngestConfig({}), natsUrl, stream, ackWaitMs: ACK_WAIT_MS, foldIntervalMs: 200, ...overrides };
}

/** A producer-only app (no consumer, no fold worker) publishing to `stream`. */
async function producer(natsUrl: string, stream: string, partitions = DEFAULT_INGEST_PARTITIONS): Promise<TestApp> {
  const app = await createTestApp({ db: t.dbHandle, ingest: ingestConfig(natsUrl, stream, { consumers: 0, fold: false, partitions }) });
  streams.push({ jsm, name: stream });
  return app;
}

const consumers = (natsUrl: string, stream: string, overrides: Partial<IngestConfig> = {}) =>
  startIngestPipeline({ store: createIngestStore(t.db), log, config: ingestConfig(natsUrl, stream, overrides) });

/** Four days ago, so the rollup days compared here are not the ones other test files write to (now - minutes, - 30 h). */
const BASE = Date.now() - 4 * 86_400_000;

/** A whole played session: start, two heartbeats, end (watched 170 s). */
function playedSession(startedAt: number): PlayerEvent[] {
  const sessionId = randomUUID();
  const at = (minutes: number) => new Date(startedAt + minutes * 60_000).toISOString();
  return [
    { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'roku', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 1300 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 5000, rebufferCount: 0, rebufferMs: 0 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(2), playheadSeconds: 120, watchedSeconds: 115, bitrateKbps: 3000, rebufferCount: 1, rebufferMs: 2500 },
    { type: 'session.end', eventId: randomUUID(), sessionId, at: at(3), watchedSeconds: 170, rebufferCount: 1, rebufferMs: 2500 },
  ];
}

/**
 * What the database holds of these sessions: rows, watched seconds, heartbeats, and how many distinct
 * heartbeat event ids of `eventIds` the raw table holds (equal to `heartbeats` when each heartbeat was
 * stored once: exactly once by the raw tables' keys, issue 42; no per-event record since migration 0048).
 */
async function written(sessionIds: string[], eventIds: string[]) {
  const [row] = await queryRows<{ sessions: number; watched: number; heartbeats: number; heartbeatIds: number }>(t.db, sql`
    SELECT
      (SELECT count(*)::int FROM playback_sessions WHERE site_id = ${viewlift.id} AND id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(sessionIds)}::json))) AS sessions,
      (SELECT coalesce(sum(watched_seconds), 0)::int FROM playback_sessions WHERE site_id = ${viewlift.id} AND id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(sessionIds)}::json))) AS watched,
      (SELECT count(*)::int FROM player_heartbeats WHERE site_id = ${viewlift.id} AND session_id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(sessionIds)}::json))) AS heartbeats,
      (SELECT count(DISTINCT event_id)::int FROM player_heartbeats WHERE site_id = ${viewlift.id} AND event_id IN (SELECT value FROM json_array_elements_text(${JSON.stringify(eventIds)}::json))) AS "heartbeatIds"`);
  return row!;
}

/** The site's day of a moment: a rollup slice. */
const day = (ms: number) => siteDayOf(ms, zone);

async function playbackSnapshot(days: string[]) {
  return queryRows(t.db, sql`
    SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
      rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
    FROM daily_playback_rollups WHERE site_id = ${viewlift.id} AND day::text IN (SELECT value FROM json_array_elements_text(${JSON.stringify(days)}::json))
    ORDER BY network_id, day, dimension, dim_key`);
}

/** The folded rollups of these days equal a recomputation from the raw rows. */
async function expectRollupsRecomputed(days: string[]) {
  const folded = await playbackSnapshot(days);
  expect(folded.length).toBeGreaterThan(0);
  for (const d of [...new Set(days)]) await rebuildRollups(t.db, { siteId: viewlift.id, from: d, to: d });
  expect(await playbackSnapshot(days)).toEqual(folded);
}

beforeAll(async () => {
  ({ nc, jsm } = await connectTestJetStream('server/ingest-nats.test.ts'));
  t = await createTestApp({ demo: true });
  await seedSmallWorld(t.db);
  viewlift = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  zone = await siteTimeZone(t.db, viewlift.id);
}, 180_000);

afterAll(async () => {
  for (const { jsm: manager, name } of streams) await manager.streams.delete(name).catch(() => undefined);
  await nc?.close();
  await t?.close();
});

describe('JetStream ingestion (needs NATS at NATS_TEST_URL; PGlite or PostgreSQL)', () => {
  it('counts a batch published twice once: the duplicate window drops the copy, the raw tables’ keys the copy it cannot see', async () => {
    const stream = newStream();
    const app = await producer(NATS_URL, stream);
    try {
      const events = playedSession(BASE);
      for (let i = 0; i < 2; i += 1) {
        const res = await app.post(INGEST_PATH, { events }, headers);
        expect(res.statusCode).toBe(202);
      }
      // The same batch again with another message id, as a producer outside the window would send it.
      const copy = await jetstream(nc).publish(`${stream.toLowerCase()}.${viewlift.id}`, JSON.stringify(events), { msgID: 'a-later-copy' });
      expect(copy.duplicate).toBe(false);
      const info = await jsm.streams.info(stream);
      expect(info.state.last_seq).toBe(2);

      const pipeline = await consumers(NATS_URL, stream, { consumers: 1 });
      try {
        await pipeline.drain();
        expect(pipeline.stats()).toMatchObject({ written: 4, duplicates: 4 });
      } finally {
        await pipeline.close();
      }
      expect(await written([events[0]!.sessionId], events.map((e) => e.eventId))).toEqual({ sessions: 1, watched: 170, heartbeats: 2, heartbeatIds: 2 });
      await expectRollupsRecomputed([day(BASE)]);
    } finally {
      await app.close();
    }
  });

  it('runs two consumers in parallel over overlapping sessions without a deadlock, leaving the rows one consumer leaves and rollups equal to a recomputation', async () => {
    // 8 sessions; 48 batches of 3 sessions each (starts included, so any batch may come first), shuffled.
    let seed = 31;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const shuffled = <T,>(items: T[]) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const template = Array.from({ length: 8 }, (_, s) => ({ s, startedAt: BASE + 3_600_000 + s * 60_000 }));
    const plan = Array.from({ length: 48 }, () => shuffled(template).slice(0, 3).flatMap(({ s }) => [
      { s, k: 0 }, ...shuffled([1, 2, 3, 4, 5, 6, 7]).slice(0, 4).map((k) => ({ s, k })),
    ])).map(shuffled);
    const materialise = () => {
      const ids = template.map(() => ({ session: randomUUID(), events: new Map<number, string>() }));
      const event = (s: number, k: number): PlayerEvent => {
        const { session, events } = ids[s]!;
        if (!events.has(k)) events.set(k, randomUUID());
        const eventId = events.get(k)!;
        const at = new Date(template[s]!.startedAt + k * 60_000).toISOString();
        if (k === 0) return { type: 'session.start', eventId, sessionId: session, at, subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Fastly', startupMs: 900 + s };
        if (k === 7) return { type: 'session.end', eventId, sessionId: session, at, watchedSeconds: 420, rebufferCount: 2, rebufferMs: 1400 };
        return { type: 'heartbeat', eventId, sessionId: session, at, playheadSeconds: 60 * k, watchedSeconds: 55 * k, bitrateKbps: 1000 + 500 * ((s + k) % 5), rebufferCount: Math.floor(k / 3), rebufferMs: 700 * Math.floor(k / 3) };
      };
      return { ids, batches: plan.map((batch) => batch.map(({ s, k }) => event(s, k))) };
    };
    const rows = async (ids: { session: string }[]) => queryRows<Record<string, unknown>>(t.db, sql`
      SELECT x.n, started_at::text, last_event_at::text, ended_at::text, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, startup_ms,
        (SELECT count(*)::int FROM player_heartbeats h WHERE h.site_id = p.site_id AND h.session_id = p.id) AS heartbeats
      FROM json_array_elements_text(${JSON.stringify(ids.map((i) => i.session))}::json) WITH ORDINALITY AS x(id, n)
      LEFT JOIN playback_sessions p ON p.site_id = ${viewlift.id} AND p.id = x.id::uuid
      ORDER BY x.n`);

    const run = async (consumerCount: number) => {
      const stream = newStream();
      const app = await producer(NATS_URL, stream, 1);
      const work = materialise();
      try {
        // One partition, no leases (each pipeline holds it): two consumers of the same sessions at once,
        // as during a handover of a partition (issue 42), the case the session locks are for. Both are
        // pulling before anything is queued: started on a full stream, the first one ready could write
        // it all (in a few hundred ms on PGlite) before the second pulled once.
        const pipelines: IngestPipeline[] = await Promise.all(Array.from({ length: consumerCount }, () => consumers(NATS_URL, stream, { consumers: 1, maxMessagesPerWrite: 3, partitions: 1 })));
        try {
          for (const events of work.batches) expect((await app.post(INGEST_PATH, { events }, headers)).statusCode).toBe(202);
          await Promise.all(pipelines.map((p) => p.drain()));
          const stats = pipelines.map((p) => p.stats());
          if (consumerCount > 1) expect(stats.every((s) => s.written > 0)).toBe(true);
          expect(stats.reduce((n, s) => n + s.written, 0)).toBe(new Set(work.batches.flat().map((e) => e.eventId)).size);
        } finally {
          for (const p of pipelines) await p.close();
        }
      } finally {
        await app.close();
      }
      return rows(work.ids);
    };

    const deadlocksBefore = ingestRetries['40P01'] ?? 0;
    const errorsBefore = logged.length;
    const two = await run(2);
    expect(ingestRetries['40P01'] ?? 0).toBe(deadlocksBefore);
    expect(logged.slice(errorsBefore)).toEqual([]);
    const one = await run(1);
    expect(two.every((r) => r.started_at !== null)).toBe(true);
    const strip = (r: Record<string, unknown>[]) => r.map(({ n: _n, ...rest }) => rest);
    expect(strip(two)).toEqual(strip(one));
    await expectRollupsRecomputed([day(BASE + 3_600_000)]);
  }, 60_000);
});

describe('a batch whose session start is elsewhere in the stream (issue 37; needs NATS at NATS_TEST_URL; PGlite or PostgreSQL)', () => {
  const heartbeatsOf = (sessionId: string): PlayerEvent[] => [1, 2].map((k) => ({
    type: 'heartbeat', eventId: randomUUID(), sessionId, at: new Date(BASE + 7 * 3_600_000 + k * 60_000).toISOString(),
    playheadSeconds: 60 * k, watchedSeconds: 55 * k, bitrateKbps: 4000, rebufferCount: 0, rebufferMs: 0,
  }));
  const deadLettersOf = async (eventIds: string[]) => queryRows<{ reason: string }>(t.db, sql`
    SELECT reason FROM ingest_dead_letters WHERE site_id = ${viewlift.id} AND event_id IN (SELECT value FROM json_array_elements_text(${JSON.stringify(eventIds)}::json))`);

  it('waits while a consumer that died holds the earlier message with its start (the first message its partition still holds), past any grace, and is written once the start comes back', async () => {
    const stream = newStream();
    const app = await producer(NATS_URL, stream);
    try {
      const [startEvent] = playedSession(BASE + 7 * 3_600_000);
      const sessionId = startEvent!.sessionId;
      const beats = heartbeatsOf(sessionId);
      expect((await app.post(INGEST_PATH, { events: [startEvent] }, headers)).statusCode).toBe(202);
      expect((await app.post(INGEST_PATH, { events: beats }, headers)).statusCode).toBe(202);
      // A consumer of the session's partition takes the start and dies: it comes back only after the ack wait (2 s).
      const partition = partitionOf(viewlift.id, sessionId, DEFAULT_INGEST_PARTITIONS);
      const held = await (await jetstream(nc).consumers.get(stream, `ingest-writer-p${partition}`)).next({ expires: 5000 });
      expect(held?.seq).toBe(1);
      const pipeline = await consumers(NATS_URL, stream, { consumers: 1, startGraceMs: 0 });
      try {
        await pipeline.drain(30_000);
        expect(pipeline.stats()).toMatchObject({ written: 3, deadLettered: 0 });
      } finally {
        await pipeline.close();
      }
      expect(await written([sessionId], [startEvent!, ...beats].map((e) => e.eventId))).toEqual({ sessions: 1, watched: 110, heartbeats: 2, heartbeatIds: 2 });
      expect(await deadLettersOf(beats.map((e) => e.eventId))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('goes to the dead letters once every earlier message is acknowledged and its start is still nowhere', async () => {
    const stream = newStream();
    const app = await producer(NATS_URL, stream);
    try {
      const orphan = randomUUID();
      // Heartbeats of a session whose start never reached the stream (accepted: the producer does not look sessions up, issue 42).
      const placed = playedSession(BASE + 7 * 3_600_000);
      const beats = heartbeatsOf(orphan);
      expect((await app.post(INGEST_PATH, { events: placed }, headers)).statusCode).toBe(202);
      expect((await app.post(INGEST_PATH, { events: beats }, headers)).statusCode).toBe(202);
      const pipeline = await consumers(NATS_URL, stream, { consumers: 1, startGraceMs: 0 });
      try {
        await pipeline.drain(30_000);
        expect(pipeline.stats()).toMatchObject({ written: 4, deadLettered: 2 });
      } finally {
        await pipeline.close();
      }
      expect(await deadLettersOf(beats.map((e) => e.eventId))).toEqual([{ reason: 'session-start-missing' }, { reason: 'session-start-missing' }]);
      expect(await written([placed[0]!.sessionId], placed.map((e) => e.eventId))).toEqual({ sessions: 1, watched: 170, heartbeats: 2, heartbeatIds: 2 });
    } finally {
      await app.close();
    }
  });
});

function startNatsServer(port: number, storeDir: string): ChildProcess {
  const child = spawn(NATS_SERVER_BIN, ['-js', '-sd', storeDir, '-p', String(port), '-a', '127.0.0.1'], { stdio: 'ignore' });
  child.once('error', (error) => { throw new Error(`could not start ${NATS_SERVER_BIN} (set NATS_SERVER_BIN): ${error.message}`); });
  return child;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

describe('a NATS restart mid-stream (needs the nats-server binary; PGlite or PostgreSQL)', () => {
  it('loses nothing and counts nothing twice: players resend what was not answered 202', async () => {
    const port = await freePort();
    const storeDir = mkdtempSync(join(tmpdir(), 'ingest-nats-'));
    let server = startNatsServer(port, storeDir);
    const firstPid = server.pid;
    await waitForPort(port, 'nats-server');
    const url = `nats://127.0.0.1:${port}`;
    const stream = newStream();
    const app = await createTestApp({ db: t.dbHandle, ingest: ingestConfig(url, stream, { consumers: 1 }) });
    const sent: PlayerEvent[][] = [];
    const post = async (events: PlayerEvent[]) => {
      // A player resends the same batch until it is answered 202.
      for (;;) {
        const res = await app.post(INGEST_PATH, { events }, headers);
        if (res.statusCode === 202) return;
        expect(res.statusCode).toBe(503);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    try {
      for (let b = 0; b < 30; b += 1) {
        if (b === 10) {
          server.kill('SIGKILL');
          await exited(server);
          // Down for a moment while batches keep coming, then back on the same store.
          setTimeout(() => { server = startNatsServer(port, storeDir); }, 700);
        }
        const batch = Array.from({ length: 5 }, (_, s) => playedSession(BASE + 2 * 3_600_000 + (b * 5 + s) * 60_000)).flat();
        sent.push(batch);
        await post(batch);
      }
      await app.app.ingest.drain();
      const all = sent.flat();
      const sessionIds = [...new Set(all.map((e) => e.sessionId))];
      expect(await written(sessionIds, all.map((e) => e.eventId))).toEqual({ sessions: 150, watched: 150 * 170, heartbeats: 300, heartbeatIds: 300 });
      await expectRollupsRecomputed([...new Set(sent.map((batch) => day(Date.parse(batch[0]!.at))))]);
      // The batches after the tenth went to the restarted server.
      expect(server.pid).not.toBe(firstPid);
      expect(server.exitCode).toBeNull();
    } finally {
      await app.close();
      server.kill('SIGKILL');
      await exited(server);
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});

// Registered only on PostgreSQL (the server stage's second run): on PGlite there is no second process to
// share the database with, so there is nothing to run rather than a skipped test.
if (onPostgres) describe('a consumer process killed by SIGKILL between its commit and its acknowledgement (needs PostgreSQL: DATABASE_URL, shared with the child process)', () => {
  it('counts its batch once: the redelivery finds its rows by the raw tables’ keys and writes nothing', async () => {
    const stream = newStream();
    const app = await producer(NATS_URL, stream);
    // `node --import tsx`: one process, so the SIGKILL reaches the consumer itself (the tsx CLI would
    // be a parent whose death leaves its child running).
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts'), '--no-fold'], {
      env: { ...process.env, NATS_URL, INGEST_STREAM: stream, INGEST_ACK_WAIT_MS: String(ACK_WAIT_MS), INGEST_PAUSE_BEFORE_ACK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const lineSeen = (text: string, timeoutMs: number) => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the worker did not print ${text} within ${timeoutMs} ms: ${output}`)), timeoutMs);
      const check = () => { if (output.includes(text)) { clearTimeout(timer); resolve(); } };
      child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); check(); });
      child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
      check();
    });
    try {
      await lineSeen('INGEST_WORKER_READY', 30_000);
      // Started without INGEST_WORKER_NICE: below the servers' CPU priority (its default).
      expect(getPriority(child.pid!)).toBe(DEFAULT_WORKER_NICE);
      expect(DEFAULT_WORKER_NICE).toBe(10);
      const events = playedSession(BASE + 5 * 3_600_000);
      expect((await app.post(INGEST_PATH, { events }, headers)).statusCode).toBe(202);
      await lineSeen('INGEST_WRITTEN 4', 20_000);
      // Committed, not acknowledged: the rows are there and the message is pending.
      expect(await written([events[0]!.sessionId], events.map((e) => e.eventId))).toEqual({ sessions: 1, watched: 170, heartbeats: 2, heartbeatIds: 2 });
      const partition = partitionOf(viewlift.id, events[0]!.sessionId, DEFAULT_INGEST_PARTITIONS);
      expect((await jsm.consumers.info(stream, `ingest-writer-p${partition}`)).num_ack_pending).toBe(1);
      child.kill('SIGKILL');
      await exited(child);
      expect(child.signalCode).toBe('SIGKILL');

      const pipeline = await consumers(NATS_URL, stream, { consumers: 1 });
      try {
        await pipeline.drain();
        expect(pipeline.stats()).toMatchObject({ written: 0, duplicates: 4 });
      } finally {
        await pipeline.close();
      }
      expect(await written([events[0]!.sessionId], events.map((e) => e.eventId))).toEqual({ sessions: 1, watched: 170, heartbeats: 2, heartbeatIds: 2 });
      await expectRollupsRecomputed([day(Date.parse(events[0]!.at))]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await app.close();
    }
  }, 60_000);
});

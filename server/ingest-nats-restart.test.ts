/**
 * NATS restarted while players keep sending (issue 42): POST /v1/events answers only 202, or 503 with
 * a Retry-After header (never another 5xx); a player that resends each 503'd batch after its
 * Retry-After loses nothing, and nothing is counted twice: once drained, the raw tables hold exactly
 * the events answered 202.
 *
 * Needs the nats-server binary (NATS_SERVER_BIN, default /usr/sbin/nats-server): this file starts its
 * own on a free port with JetStream and a store directory of its own, stops it twice while batches
 * are in flight (SIGTERM, then SIGKILL) and starts it again on the same port and store after 1.5 s.
 * A full stream (its limit reached, new messages refused) answers 503 with Retry-After too, and stores
 * nothing of the refused batch. The database is the test run's (PGlite, or PostgreSQL with
 * DATABASE_URL: a database of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort, waitForPort } from './test/ports';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiscardPolicy, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { DEMO_SITES } from './db/demo-accounts';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { loadIngestConfig } from './domain/ingest-pipeline';
import { createTestApp, firstSubscriberAndVideo, openIsolatedTestDb, type SitePlayer, type TestApp } from './test/kit';

const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN || '/usr/sbin/nats-server';
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
/** Five days ago (the seeded world has sessions then too: this file's carry a CDN name of their own). */
const BASE = Date.now() - 5 * 86_400_000;
const CDN = `restart-test-${randomUUID().slice(0, 8)}`;

let t: TestApp;
let ownDb: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let viewlift: SitePlayer;

const startNatsServer = (port: number, storeDir: string): ChildProcess =>
  spawn(NATS_SERVER_BIN, ['-js', '-sd', storeDir, '-p', String(port), '-a', '127.0.0.1'], { stdio: 'ignore' });

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

/** A whole played session: start, two heartbeats, end (watched 170 s). */
function playedSession(startedAt: number): PlayerEvent[] {
  const sessionId = randomUUID();
  const at = (minutes: number) => new Date(startedAt + minutes * 60_000).toISOString();
  return [
    { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: CDN, startupMs: 1100 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 4000, rebufferCount: 0, rebufferMs: 0 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(2), playheadSeconds: 120, watchedSeconds: 115, bitrateKbps: 3000, rebufferCount: 1, rebufferMs: 900 },
    { type: 'session.end', eventId: randomUUID(), sessionId, at: at(3), watchedSeconds: 170, rebufferCount: 1, rebufferMs: 900 },
  ];
}

beforeAll(async () => {
  if (!existsSync(NATS_SERVER_BIN)) {
    throw new Error(`server/ingest-nats-restart.test.ts needs the nats-server binary at ${NATS_SERVER_BIN} (set NATS_SERVER_BIN; https://github.com/nats-io/nats-server): it starts and restarts its own`);
  }
  ownDb = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: ownDb.handle });
  await seedSmallWorld(t.db);
  viewlift = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await ownDb?.drop();
});

describe('NATS restarted while players send (needs the nats-server binary; PGlite or PostgreSQL)', () => {
  it('answers only 202 or 503 with Retry-After, and once the players resent their 503s the raw tables hold exactly the events answered 202', async () => {
    const port = await freePort();
    const storeDir = mkdtempSync(join(tmpdir(), 'ingest-nats-restart-'));
    let nats = startNatsServer(port, storeDir);
    const spawnError = new Promise<never>((_, reject) => nats.once('error', (error) => reject(new Error(`could not start ${NATS_SERVER_BIN} (NATS_SERVER_BIN): ${error.message}`))));
    await Promise.race([waitForPort(port, 'nats-server'), spawnError]);
    const stream = `INGEST_RESTART_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    const app = await createTestApp({
      db: ownDb.handle,
      config: { ingestBatchesPerMinute: 1_000_000 },
      ingest: { ...loadIngestConfig({}), natsUrl: `nats://127.0.0.1:${port}`, stream, consumers: 1, ackWaitMs: 2000, foldIntervalMs: 200 },
    });

    const answers: { status: number; retryAfter: string | undefined; sentAt: number }[] = [];
    const acceptedBatches: PlayerEvent[][] = [];
    /** When NATS was down: [stopped, started again]. */
    const outages: [number, number][] = [];
    let sessionNo = 0;
    let sending = true;

    /** One player: a batch of two whole sessions at a time, each resent after Retry-After until 202. */
    const player = async () => {
      while (sending) {
        const events = [playedSession(BASE + sessionNo++ * 60_000), playedSession(BASE + sessionNo++ * 60_000)].flat();
        for (;;) {
          const sentAt = Date.now();
          const res = await app.post(INGEST_PATH, { events }, headers);
          const retryAfter = res.headers['retry-after'];
          answers.push({ status: res.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, sentAt });
          if (res.statusCode === 202) {
            acceptedBatches.push(events);
            break;
          }
          if (res.statusCode !== 503 || typeof retryAfter !== 'string' || !/^\d+$/.test(retryAfter)) break;
          await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000));
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const restart = async (signal: NodeJS.Signals) => {
      const stoppedAt = Date.now();
      nats.kill(signal);
      await exited(nats);
      // Down for a moment while the players keep sending, then back on the same port and store.
      await new Promise((r) => setTimeout(r, 1500));
      nats = startNatsServer(port, storeDir);
      await waitForPort(port, 'nats-server');
      outages.push([stoppedAt, Date.now()]);
    };

    try {
      const players = Array.from({ length: 3 }, () => player());
      await new Promise((r) => setTimeout(r, 1500));
      await restart('SIGTERM');
      await new Promise((r) => setTimeout(r, 2500));
      await restart('SIGKILL');
      await new Promise((r) => setTimeout(r, 2500));
      sending = false;
      await Promise.all(players);

      // Every answer: 202, or 503 with a Retry-After in seconds; never another 5xx (nor anything else).
      const wrong = answers.filter((a) => a.status !== 202 && !(a.status === 503 && a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter) && Number(a.retryAfter) >= 1));
      expect(wrong).toEqual([]);
      // The players were sending while NATS was down (the restarts happened mid-stream), and after.
      expect(answers.filter((a) => outages.some(([from, to]) => a.sentAt >= from && a.sentAt <= to)).length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.sentAt > outages.at(-1)![1] && a.status === 202).length).toBeGreaterThan(0);
      expect(acceptedBatches.length).toBeGreaterThan(10);

      await app.app.ingest.drain(45_000);
      const accepted = acceptedBatches.flat();
      const sessionIds = [...new Set(accepted.map((e) => e.sessionId))].sort();
      // Exactly the sessions answered 202 (none missing, none extra: every session of this file's CDN),
      // each once, with both heartbeats and its end.
      const rows = await queryRows<{ id: string; watched_seconds: number; ended: boolean; heartbeats: number }>(t.db, sql`
        SELECT p.id::text, p.watched_seconds, p.ended_at IS NOT NULL AS ended,
          (SELECT count(*)::int FROM player_heartbeats h WHERE h.site_id = p.site_id AND h.session_id = p.id) AS heartbeats
        FROM playback_sessions p WHERE p.site_id = ${viewlift.id} AND p.cdn = ${CDN}
        ORDER BY p.id`);
      expect(rows.map((r) => r.id)).toEqual(sessionIds);
      expect(rows.filter((r) => r.watched_seconds !== 170 || !r.ended || r.heartbeats !== 2)).toEqual([]);
      const [heartbeats] = await queryRows<{ n: number }>(t.db, sql`
        SELECT count(*)::int AS n FROM player_heartbeats h JOIN playback_sessions p ON p.site_id = h.site_id AND p.id = h.session_id
        WHERE h.site_id = ${viewlift.id} AND p.cdn = ${CDN}`);
      expect(heartbeats!.n).toBe(accepted.filter((e) => e.type === 'heartbeat').length);
    } finally {
      sending = false;
      await app.close();
      nats.kill('SIGKILL');
      await exited(nats);
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a full stream (needs the nats-server binary)', () => {
  it('answers 503 with Retry-After, never 202, for a batch the stream refused, and stores nothing of it', async () => {
    const port = await freePort();
    const storeDir = mkdtempSync(join(tmpdir(), 'ingest-nats-full-'));
    const nats = startNatsServer(port, storeDir);
    const spawnError = new Promise<never>((_, reject) => nats.once('error', (error) => reject(new Error(`could not start ${NATS_SERVER_BIN} (NATS_SERVER_BIN): ${error.message}`))));
    await Promise.race([waitForPort(port, 'nats-server'), spawnError]);
    const url = `nats://127.0.0.1:${port}`;
    const stream = `INGEST_FULL_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
    const nc = await connect({ servers: url });
    let app: TestApp | undefined;
    try {
      // The stream as an operator may limit it: two messages at most, new ones refused when full.
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: stream, subjects: [`${stream.toLowerCase()}.>`], retention: RetentionPolicy.Workqueue, storage: StorageType.File, max_msgs: 2, discard: DiscardPolicy.New });
      // A producer only: nothing consumes, so the stream stays full.
      app = await createTestApp({ db: ownDb.handle, config: { ingestBatchesPerMinute: 1_000_000 }, ingest: { ...loadIngestConfig({}), natsUrl: url, stream, consumers: 0, fold: false } });
      for (let i = 0; i < 2; i += 1) expect((await app.post(INGEST_PATH, { events: playedSession(BASE + i * 60_000) }, headers)).statusCode).toBe(202);
      const refused = await app.post(INGEST_PATH, { events: playedSession(BASE + 2 * 60_000) }, headers);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect((await jsm.streams.info(stream)).state.messages).toBe(2);
    } finally {
      await app?.close();
      await nc.close();
      nats.kill('SIGKILL');
      await exited(nats);
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 30_000);
});

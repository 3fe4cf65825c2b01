/**
 * Raw history by day (issue 31, migration 0017; docs/data-model.md "Raw history"): the day
 * partitions events arrive for are created before the insert (and a row without its day lands in the
 * default partition, never a failed insert), retention drops old days and keeps the rollups and the
 * reports' answers, and a repeat counts once by the raw tables' keys (issue 42: consumers write no
 * row per event; migration 0048 dropped the per-event record, ingested_events, and the maintenance
 * no longer prunes one).
 *
 * A database of this file alone (openIsolatedTestDb): retention drops partitions and moves
 * raw_history_retention.kept_from for the whole database, which must not reach other test files'
 * data on the shared PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { REPORTS_PATH, type ReportAnswer } from '../common/reports';
import type { Db, DbHandle } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { foldDirtySlices, INGEST_WINDOW_DAYS, writeBatches } from './db/ingest-repository';
import {
  analyzeGrowingDays, dropExpiredRawHistory, ensureRawHistoryDays, rawHistoryKeptFrom, rawHistoryPartitions, runIngestMaintenance, utcDayOf,
} from './db/raw-history';
import { foldPlaybackDays, rebuildRollups } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { DEFAULT_RETENTION_DAYS, loadIngestConfig, MIN_RETENTION_DAYS, startIngestPipeline } from './domain/ingest-pipeline';
import { createIngestStore } from './db/stores';
import { DUPLICATE_WINDOW_MS } from './domain/ingest-queue';
import { createTestApp, firstSubscriberAndVideo, openIsolatedTestDb, type Session, type SitePlayer, type TestApp } from './test/kit';

const DAY_MS = 86_400_000;
let isolated: { handle: DbHandle; drop(): Promise<void> };
let t: TestApp;
let site: SitePlayer;
let analyst: Session;
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };

/** A played session: start, two heartbeats a minute apart, end. */
function playedSession(startedAt: Date, watched = 170): PlayerEvent[] {
  const sessionId = randomUUID();
  const at = (minutes: number) => new Date(startedAt.getTime() + minutes * 60_000).toISOString();
  return [
    { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: site.subscriberId, contentId: site.contentId, deviceType: 'roku', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 1300 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 5000, rebufferCount: 0, rebufferMs: 0 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(2), playheadSeconds: 120, watchedSeconds: 115, bitrateKbps: 3000, rebufferCount: 1, rebufferMs: 2500 },
    { type: 'session.end', eventId: randomUUID(), sessionId, at: at(3), watchedSeconds: watched, rebufferCount: 1, rebufferMs: 2500 },
  ];
}

const partitionOf = async (table: 'playback_sessions' | 'player_heartbeats', where: ReturnType<typeof sql>) =>
  (await queryRows<{ part: string }>(t.db, sql`SELECT tableoid::regclass::text AS part FROM ${sql.raw(table)} WHERE ${where}`)).map((r) => r.part);

const partitionNames = async () => (await rawHistoryPartitions(t.db)).map((p) => p.partition);
const suffix = (day: string) => day.replace(/-/g, '');

/** The site's playback rollups of [from, to], every column. */
const rollups = (from: string, to: string) => queryRows(t.db, sql`
  SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
    rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
  FROM daily_playback_rollups WHERE site_id = ${site.id} AND day BETWEEN ${from}::date AND ${to}::date
  ORDER BY network_id, day, dimension, dim_key`);

async function qos(from: string, to: string) {
  const res = await t.get(`${REPORTS_PATH}/qos?from=${from}&to=${to}`, analyst.headers);
  expect(res.statusCode).toBe(200);
  const body = res.json<ReportAnswer>();
  return { rows: body.rows, totals: body.totals };
}

beforeAll(async () => {
  isolated = await openIsolatedTestDb();
  // Folds and maintenance only when a test asks (drain folds); the maintenance timer has its own test.
  t = await createTestApp({ db: isolated.handle, demo: true, ingest: { consumers: 1, foldIntervalMs: 3_600_000, maintenanceIntervalMs: 3_600_000 } });
  await seedSmallWorld(t.db);
  site = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  const user = await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
  analyst = await t.login(user.username);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await isolated?.drop();
});

describe('day partitions', () => {
  it('are created for the days events arrive for, before the insert, and take the rows the default partition held for that day', async () => {
    const day = utcDayOf(Date.now() - 3 * DAY_MS);
    const noon = new Date(`${day}T12:00:00Z`);
    // The seeded world was written before any day partition existed: its sessions of that day are in
    // the default partition.
    const seededBefore = await queryRows<{ id: string; part: string }>(t.db, sql`
      SELECT id::text, tableoid::regclass::text AS part FROM playback_sessions
      WHERE site_id = ${site.id} AND started_at >= ${`${day}T00:00:00Z`}::timestamptz AND started_at < ${`${day}T00:00:00Z`}::timestamptz + interval '1 day'`);
    expect(seededBefore.length).toBeGreaterThan(0);
    expect(new Set(seededBefore.map((r) => r.part))).toEqual(new Set(['playback_sessions_default']));
    expect(await partitionNames()).not.toContain(`playback_sessions_p${suffix(day)}`);

    const events = playedSession(noon);
    const res = await t.post(INGEST_PATH, { events }, headers);
    expect(res.statusCode).toBe(202);
    await t.app.ingest.drain();

    const names = await partitionNames();
    expect(names).toContain(`playback_sessions_p${suffix(day)}`);
    expect(names).toContain(`player_heartbeats_p${suffix(day)}`);
    expect(await partitionOf('playback_sessions', sql`site_id = ${site.id} AND id = ${events[0]!.sessionId}`)).toEqual([`playback_sessions_p${suffix(day)}`]);
    expect(await partitionOf('player_heartbeats', sql`site_id = ${site.id} AND session_id = ${events[0]!.sessionId}`))
      .toEqual([`player_heartbeats_p${suffix(day)}`, `player_heartbeats_p${suffix(day)}`]);
    // The seeded sessions of that day moved into it, all of them.
    const seededAfter = await queryRows<{ id: string; part: string }>(t.db, sql`
      SELECT id::text, tableoid::regclass::text AS part FROM playback_sessions
      WHERE site_id = ${site.id} AND id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(seededBefore.map((r) => r.id))}::json))`);
    expect(seededAfter.map((r) => r.id).sort()).toEqual(seededBefore.map((r) => r.id).sort());
    expect(new Set(seededAfter.map((r) => r.part))).toEqual(new Set([`playback_sessions_p${suffix(day)}`]));

    // The session's counters and the day's rollups are what the raw rows say.
    const [session] = await queryRows<{ watched_seconds: number; heartbeat_count: number; avg_bitrate_kbps: number }>(t.db, sql`
      SELECT watched_seconds, heartbeat_count, avg_bitrate_kbps FROM playback_sessions WHERE site_id = ${site.id} AND id = ${events[0]!.sessionId}`);
    expect(session).toEqual({ watched_seconds: 170, heartbeat_count: 2, avg_bitrate_kbps: 4000 });
    const folded = await rollups(day, day);
    await rebuildRollups(t.db, { siteId: site.id, from: day, to: day });
    expect(await rollups(day, day)).toEqual(folded);
  });

  it('never refuse a row whose day has none: the default partition takes it, and the maintenance gives it its day', async () => {
    const day = utcDayOf(Date.now() - 5 * DAY_MS);
    expect(await partitionNames()).not.toContain(`player_heartbeats_p${suffix(day)}`);
    const eventId = `orphan-${randomUUID()}`;
    // A writer that does not ask for partitions (a script, the seed): the insert goes through.
    await t.db.execute(sql`
      INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps)
      VALUES (${site.id}, ${eventId}, ${randomUUID()}, ${`${day}T08:00:00Z`}::timestamptz, 1, 1, 1000)`);
    expect(await partitionOf('player_heartbeats', sql`event_id = ${eventId}`)).toEqual(['player_heartbeats_default']);

    const done = await runIngestMaintenance(t.db, { retentionDays: DEFAULT_RETENTION_DAYS, sessionStartDays: INGEST_WINDOW_DAYS });
    expect(done.split).toBeGreaterThan(0);
    expect(await partitionOf('player_heartbeats', sql`event_id = ${eventId}`)).toEqual([`player_heartbeats_p${suffix(day)}`]);
    // The seeded world's days left the default partitions too, and today and the next two days exist.
    const [left] = await queryRows<{ n: number }>(t.db, sql`
      SELECT (SELECT count(*) FROM playback_sessions_default) + (SELECT count(*) FROM player_heartbeats_default) AS n`);
    expect(Number(left!.n)).toBe(0);
    const names = await partitionNames();
    for (const n of [0, 1, 2]) expect(names).toContain(`playback_sessions_p${suffix(utcDayOf(Date.now() + n * DAY_MS))}`);
  });
});

describe('retention', () => {
  it('drops the day partitions older than it, keeps the rollups, and the reports of those days answer as before', async () => {
    // Two old days of the viewlift site (older than the seeded world's 30 days), written as consumers
    // write them and folded.
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const early = utcDayOf(today - 60 * DAY_MS);
    const late = utcDayOf(today - 50 * DAY_MS);
    const [from, to] = [utcDayOf(today - 65 * DAY_MS), utcDayOf(today - 45 * DAY_MS)];
    const sessions = [
      ...playedSession(new Date(`${early}T09:00:00Z`), 170), ...playedSession(new Date(`${early}T21:00:00Z`), 400),
      ...playedSession(new Date(`${late}T10:00:00Z`), 300),
    ];
    await writeBatches(t.db, [{ siteId: site.id, events: sessions }]);
    while (await foldDirtySlices(t.db) > 0) { /* until every mark is folded */ }
    const names = await partitionNames();
    for (const day of [early, late]) {
      expect(names).toContain(`playback_sessions_p${suffix(day)}`);
      expect(names).toContain(`player_heartbeats_p${suffix(day)}`);
    }

    // What the raw rows say, before they go.
    const raw = await queryRows<{ day: string; sessions: number; watched: number }>(t.db, sql`
      SELECT to_char((started_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS sessions, sum(watched_seconds)::int AS watched
      FROM playback_sessions WHERE site_id = ${site.id} AND started_at >= ${from}::date::timestamp AT TIME ZONE 'UTC'
        AND started_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'
      GROUP BY 1 ORDER BY 1`);
    expect(raw).toEqual([{ day: early, sessions: 2, watched: 570 }, { day: late, sessions: 1, watched: 300 }]);
    const rollupsBefore = await rollups(from, to);
    const allRows = rollupsBefore.filter((r) => (r as { dimension: string }).dimension === 'all');
    expect(allRows.map((r) => [(r as { day: string }).day, Number((r as { sessions: number }).sessions), Number((r as { watched_seconds: number }).watched_seconds)]))
      .toEqual(raw.map((r) => [r.day, r.sessions, r.watched]));
    const reportBefore = await qos(from, to);
    expect(reportBefore.totals.sessions).toBe(3);

    // 55 days kept: the day 55 days ago is the first one kept, `early` goes, `late` stays.
    const { dropped, keptFrom } = await dropExpiredRawHistory(t.db, 55);
    expect(keptFrom).toBe(utcDayOf(today - 55 * DAY_MS));
    expect(dropped.filter((n) => n.endsWith(suffix(early))).sort()).toEqual([`playback_sessions_p${suffix(early)}`, `player_heartbeats_p${suffix(early)}`]);
    expect(dropped.every((n) => n.slice(-8) < suffix(keptFrom))).toBe(true);
    expect(await rawHistoryKeptFrom(t.db)).toBe(keptFrom);
    const after = await partitionNames();
    expect(after).not.toContain(`playback_sessions_p${suffix(early)}`);
    expect(after).toContain(`playback_sessions_p${suffix(late)}`);
    expect(after.filter((n) => /_p\d{8}$/.test(n)).every((n) => n.slice(-8) >= suffix(keptFrom))).toBe(true);
    const [left] = await queryRows<{ sessions: number; heartbeats: number }>(t.db, sql`
      SELECT (SELECT count(*)::int FROM playback_sessions WHERE started_at < ${keptFrom}::date::timestamp AT TIME ZONE 'UTC') AS sessions,
        (SELECT count(*)::int FROM player_heartbeats WHERE at < ${keptFrom}::date::timestamp AT TIME ZONE 'UTC') AS heartbeats`);
    expect(left).toEqual({ sessions: 0, heartbeats: 0 });

    // Rollups untouched, and still after a rebuild and a fold of the range (no raw rows to rebuild them from).
    expect(await rollups(from, to)).toEqual(rollupsBefore);
    await rebuildRollups(t.db, { siteId: site.id, from, to });
    expect(await rollups(from, to)).toEqual(rollupsBefore);
    await t.db.transaction(async (tx) => foldPlaybackDays(tx, site.id, [early, late]));
    expect(await rollups(from, to)).toEqual(rollupsBefore);
    expect(await qos(from, to)).toEqual(reportBefore);
    expect((await qos(early, early)).totals.sessions).toBe(2);
  });

  it('deletes default-partition rows older than it, and never moves kept_from back', async () => {
    const keptBefore = await rawHistoryKeptFrom(t.db);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const eventId = `old-${randomUUID()}`;
    await t.db.execute(sql`
      INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps)
      VALUES (${site.id}, ${eventId}, ${randomUUID()}, ${new Date(today - 80 * DAY_MS).toISOString()}::timestamptz, 1, 1, 1000)`);
    expect(await partitionOf('player_heartbeats', sql`event_id = ${eventId}`)).toEqual(['player_heartbeats_default']);
    // A longer retention drops the row (older than 70 days) and leaves kept_from where it was.
    const { keptFrom } = await dropExpiredRawHistory(t.db, 70);
    expect(keptFrom).toBe(utcDayOf(today - 70 * DAY_MS));
    expect(await partitionOf('player_heartbeats', sql`event_id = ${eventId}`)).toEqual([]);
    expect(await rawHistoryKeptFrom(t.db)).toBe(keptBefore);
  });

  it('is read from INGEST_RETENTION_DAYS (default 90, at least 16) with the duplicate window from INGEST_DUPLICATE_WINDOW_MS', () => {
    expect(MIN_RETENTION_DAYS).toBe(16);
    expect(loadIngestConfig({})).toMatchObject({ retentionDays: 90, duplicateWindowMs: DUPLICATE_WINDOW_MS, maintenanceIntervalMs: 60_000 });
    expect(DUPLICATE_WINDOW_MS).toBe(120_000);
    expect(loadIngestConfig({ INGEST_RETENTION_DAYS: '30', INGEST_DUPLICATE_WINDOW_MS: '300000' })).toMatchObject({ retentionDays: 30, duplicateWindowMs: 300_000 });
    expect(loadIngestConfig({ INGEST_RETENTION_DAYS: '3' }).retentionDays).toBe(16);
    expect(loadIngestConfig({ INGEST_RETENTION_DAYS: 'forever' }).retentionDays).toBe(90);
  });
});

describe('exactly once without an idempotency record', () => {
  /** Whether a table named ingested_events (the per-event record before issue 42) exists: migration 0048 dropped it. */
  const perEventTable = async () =>
    (await queryRows<{ present: boolean }>(t.db, sql`SELECT to_regclass('ingested_events') IS NOT NULL AS present`))[0]!.present;
  const sessionRow = (id: string) => queryRows(t.db, sql`
    SELECT started_at, last_event_at, ended_at, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, heartbeat_count, bitrate_kbps_sum::int AS bitrate_kbps_sum
    FROM playback_sessions WHERE site_id = ${site.id} AND id = ${id}`);
  const heartbeatRows = (sessionId: string) => queryRows<{ event_id: string }>(t.db, sql`
    SELECT event_id FROM player_heartbeats WHERE site_id = ${site.id} AND session_id = ${sessionId} ORDER BY event_id, at`);

  it('counts a batch written again once by the raw tables\' keys, with no per-event table (dropped by migration 0048)', async () => {
    const events = playedSession(new Date(Date.now() - 30 * 60_000));
    const sessionId = events[0]!.sessionId;
    const first = await writeBatches(t.db, [{ siteId: site.id, events }]);
    expect(first).toEqual({ written: 4, duplicates: 0 });
    const row = await sessionRow(sessionId);
    // The same batch again (a redelivery): the raw keys refuse it, nothing changes.
    expect(await writeBatches(t.db, [{ siteId: site.id, events }])).toEqual({ written: 0, duplicates: 4 });
    expect(await sessionRow(sessionId)).toEqual(row);
    expect((await heartbeatRows(sessionId)).map((h) => h.event_id)).toEqual([events[1]!.eventId, events[2]!.eventId].sort());
    expect(await perEventTable()).toBe(false);
  });

  it('the same events again long after still count once (the raw tables\' keys), and a reused id with another time is a new heartbeat', async () => {
    const events = playedSession(new Date(Date.now() - 40 * 60_000));
    const sessionId = events[0]!.sessionId;
    const res = await t.post(INGEST_PATH, { events }, headers);
    expect(res.statusCode).toBe(202);
    await t.app.ingest.drain();
    const row = await sessionRow(sessionId);
    const day = utcDayOf(events[0]!.at);
    const dayRollups = await rollups(day, day);
    expect(row[0]).toMatchObject({ watched_seconds: 170, heartbeat_count: 2, bitrate_kbps_sum: 8000, avg_bitrate_kbps: 4000 });

    // No row per event (issue 42): the maintenance runs without the per-event table and changes nothing of what follows.
    const ids = events.map((e) => e.eventId);
    await runIngestMaintenance(t.db, { retentionDays: DEFAULT_RETENTION_DAYS, sessionStartDays: INGEST_WINDOW_DAYS });
    expect(await perEventTable()).toBe(false);
    expect(await sessionRow(sessionId)).toEqual(row);

    // The batch delivered again (a consumer back after a long outage): one session, two heartbeats,
    // the same counters, the same rollups; every event of it is a duplicate (start stored, heartbeats
    // by their key, the end already the session's end).
    const again = await writeBatches(t.db, [{ siteId: site.id, events }]);
    expect(again).toEqual({ written: 0, duplicates: 4 });
    await t.app.ingest.drain();
    expect(await sessionRow(sessionId)).toEqual(row);
    expect((await heartbeatRows(sessionId)).map((h) => h.event_id)).toEqual([ids[1]!, ids[2]!].sort());
    const [sessions] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM playback_sessions WHERE site_id = ${site.id} AND id = ${sessionId}`);
    expect(sessions!.n).toBe(1);
    expect(await rollups(day, day)).toEqual(dayRollups);
    // A second start of the session (another event id and time) never makes a second row either.
    const restart = { ...events[0]!, eventId: randomUUID(), at: new Date(Date.parse(events[0]!.at) + 5_000).toISOString() };
    await writeBatches(t.db, [{ siteId: site.id, events: [restart] }]);
    expect(await sessionRow(sessionId)).toEqual(row);

    // What no key catches: an id reused for another heartbeat (another time) is stored as a new
    // heartbeat (docs/data-model.md, "The window"; the stream's duplicate window drops only the same
    // batch published again). The same reused heartbeat again counts for nothing.
    const reused = { ...events[1]!, at: new Date(Date.parse(events[1]!.at) + 1_000).toISOString() } as PlayerEvent;
    expect(await writeBatches(t.db, [{ siteId: site.id, events: [reused] }])).toEqual({ written: 1, duplicates: 0 });
    expect((await heartbeatRows(sessionId)).map((h) => h.event_id)).toEqual([ids[1]!, ids[1]!, ids[2]!].sort());
    expect(await writeBatches(t.db, [{ siteId: site.id, events: [reused] }])).toEqual({ written: 0, duplicates: 1 });
  });
});

describe('the maintenance of a running pipeline', () => {
  it('runs every INGEST_MAINTENANCE_INTERVAL_MS in the fold worker: a row in a default partition gets its day', async () => {
    // A day before the seeded world's 30 days and after the retention test's cut: no partition yet.
    const day = utcDayOf(Date.now() - 40 * DAY_MS);
    expect(await partitionNames()).not.toContain(`player_heartbeats_p${suffix(day)}`);
    const eventId = `tick-${randomUUID()}`;
    await t.db.execute(sql`
      INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps)
      VALUES (${site.id}, ${eventId}, ${randomUUID()}, ${`${day}T08:00:00Z`}::timestamptz, 1, 1, 1000)`);
    const log = { warn: () => undefined, error: () => undefined };
    const pipeline = await startIngestPipeline({ store: createIngestStore(t.db), log, config: { ...loadIngestConfig({}), consumers: 0, fold: true, maintenanceIntervalMs: 1000 } });
    try {
      const deadline = Date.now() + 20_000;
      while ((await partitionOf('player_heartbeats', sql`event_id = ${eventId}`))[0] !== `player_heartbeats_p${suffix(day)}` && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await partitionOf('player_heartbeats', sql`event_id = ${eventId}`)).toEqual([`player_heartbeats_p${suffix(day)}`]);
    } finally {
      await pipeline.close();
    }
  });

  it('ensureRawHistoryDays is idempotent: a day asked for twice (or by two callers) is created once', async () => {
    const day = '2025-01-02';
    const created = await Promise.all([ensureRawHistoryDays(t.db, [day]), ensureRawHistoryDays(t.db, [day, day])]);
    expect(created[0]! + created[1]!).toBe(2);
    expect((await partitionNames()).filter((n) => n.endsWith(`_p${suffix(day)}`)).sort()).toEqual([`playback_sessions_p${suffix(day)}`, `player_heartbeats_p${suffix(day)}`]);
  });
});

describe('statistics of young day partitions (analyzeGrowingDays)', () => {
  /** The planner's statistics of a day's two partitions: reltuples -1 (never analyzed) or 0 (analyzed empty) is none. */
  const statsOf = async (day: string) => Object.fromEntries((await queryRows<{ name: string; reltuples: number }>(t.db, sql`
    SELECT relname AS name, reltuples::float8 AS reltuples FROM pg_class
    WHERE relname IN (${`playback_sessions_p${suffix(day)}`}, ${`player_heartbeats_p${suffix(day)}`})`))
    .map((r) => [r.name.startsWith('playback') ? 'sessions' : 'heartbeats', Number(r.reltuples)]));
  /** `n` sessions started on `day` (another writer's: straight into the table), and `n` heartbeats of that day. */
  async function addRows(day: string, sessions: number, heartbeats: number) {
    if (sessions > 0) {
      await t.db.execute(sql`
        INSERT INTO playback_sessions (id, site_id, network_id, subscriber_id, content_id, device_type, country, isp, cdn, started_at, last_event_at)
        SELECT gen_random_uuid(), ${site.id}::uuid, s.network_id, s.id, ${site.contentId}::uuid, 'roku', 'US', 'Comcast Xfinity', 'Akamai',
          ${`${day}T00:00:00Z`}::timestamptz + g * interval '1 second', ${`${day}T00:00:00Z`}::timestamptz + g * interval '1 second'
        FROM generate_series(1, ${sessions}) g, subscribers s WHERE s.id = ${site.subscriberId}::uuid`);
    }
    if (heartbeats > 0) {
      await t.db.execute(sql`
        INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps)
        SELECT ${site.id}::uuid, gen_random_uuid()::text, gen_random_uuid(), ${`${day}T00:00:00Z`}::timestamptz + g * interval '1 second', g, g, 3000
        FROM generate_series(1, ${heartbeats}) g`);
    }
  }
  /**
   * Another consumer process: the same database, a memory of its own (what this module keeps is per
   * database handle), and a count of the statements it sends.
   */
  function otherProcess() {
    const sent = { n: 0 };
    const db = new Proxy(t.db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
        return (query: Parameters<Db['execute']>[0]) => {
          sent.n += 1;
          return target.execute(query);
        };
      },
    });
    return { db, sent };
  }

  it('analyzes a partition without statistics after its first rows, and a day that has no rows yet costs no query', async () => {
    const day = '2031-03-04';
    const { db, sent } = otherProcess();
    await ensureRawHistoryDays(db, [day]);
    expect(await statsOf(day)).toEqual({ sessions: -1, heartbeats: -1 });
    // Fewer events than can make anything due: not even a look at the catalog.
    sent.n = 0;
    expect(await analyzeGrowingDays(db, new Map([[day, 100]]))).toEqual([]);
    expect(sent.n).toBe(0);

    await addRows(day, 1000, 1000);
    expect(await analyzeGrowingDays(db, new Map([[day, 2000]]))).toEqual([`playback_sessions_p${suffix(day)}`, `player_heartbeats_p${suffix(day)}`]);
    expect(await statsOf(day)).toEqual({ sessions: 1000, heartbeats: 1000 });
  });

  it('leaves a partition another process analyzed until the sessions have grown fourfold, and the heartbeats to autovacuum once they have statistics', async () => {
    const day = '2031-03-05';
    await ensureRawHistoryDays(t.db, [day]);
    await addRows(day, 1000, 1000);
    // Another process took the statistics (or autovacuum did).
    await t.db.execute(sql.raw(`ANALYZE playback_sessions_p${suffix(day)}, player_heartbeats_p${suffix(day)}`));
    expect(await statsOf(day)).toEqual({ sessions: 1000, heartbeats: 1000 });

    const { db, sent } = otherProcess();
    await ensureRawHistoryDays(db, [day]);
    sent.n = 0;
    // This process's first rows of the day: it looks (one query), and nothing is due.
    expect(await analyzeGrowingDays(db, new Map([[day, 1000]]))).toEqual([]);
    expect(sent.n).toBe(1);
    // Twice the rows (and ten times the heartbeats): not yet.
    await addRows(day, 1000, 9000);
    expect(await analyzeGrowingDays(db, new Map([[day, 10_000]]))).toEqual([]);
    expect(sent.n).toBe(2);
    expect(await statsOf(day)).toEqual({ sessions: 1000, heartbeats: 1000 });
    // At the pace it saw (the sessions grew by their first size in 10,000 events), nothing can be due
    // before the next thousands of events: no query.
    expect(await analyzeGrowingDays(db, new Map([[day, 500]]))).toEqual([]);
    expect(sent.n).toBe(2);
    // Over four times the pages of the last analyze: the sessions partition only, in one more statement than the look.
    await addRows(day, 2500, 20_000);
    expect(await analyzeGrowingDays(db, new Map([[day, 22_500]]))).toEqual([`playback_sessions_p${suffix(day)}`]);
    expect(sent.n).toBe(4);
    expect(await statsOf(day)).toEqual({ sessions: 4500, heartbeats: 1000 });
    // Analyzed: the same process, and the first, find nothing due right after.
    expect(await analyzeGrowingDays(db, new Map([[day, 1000]]))).toEqual([]);
    expect(await analyzeGrowingDays(t.db, new Map([[day, 1000]]))).toEqual([]);
  });
});

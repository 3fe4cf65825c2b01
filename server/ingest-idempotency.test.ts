/**
 * Exactly once without a row per event (issue 42; docs/data-model.md "The window"): consumers no
 * longer claim a row per event (the table that held them, `ingested_events`, is dropped by migration
 * 0048). A batch published again inside the duplicate
 * window is stored once by the queue; everything that comes again after that (a message delivered
 * again after a crash between commit and acknowledgement, a copy past the window, the same events
 * cut into other batches) is counted once by the raw tables' keys in the consumer's transaction,
 * and rollup slices are marked only from rows that transaction inserted or updated.
 *
 * A database of this file alone (openIsolatedTestDb): the rollups compared here are the site's whole
 * days, which other files' writes on a shared PostgreSQL must not move meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import type { DbHandle } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { dirtySliceCount, foldDirtySlices, writeBatches } from './db/ingest-repository';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { siteDayOf } from '../common/site-day';
import { createTestApp, firstSubscriberAndVideo, openIsolatedTestDb, type SitePlayer, type TestApp } from './test/kit';

let isolated: { handle: DbHandle; drop(): Promise<void> };
let t: TestApp;
let site: SitePlayer;
let zone: string;
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };

/** A played session: start, two heartbeats a minute apart, end (watched 170 s). */
function playedSession(startedAt: number): PlayerEvent[] {
  const sessionId = randomUUID();
  const at = (minutes: number) => new Date(startedAt + minutes * 60_000).toISOString();
  return [
    { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: site.subscriberId, contentId: site.contentId, deviceType: 'roku', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 1300 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 5000, rebufferCount: 0, rebufferMs: 0 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(2), playheadSeconds: 120, watchedSeconds: 115, bitrateKbps: 3000, rebufferCount: 1, rebufferMs: 2500 },
    { type: 'session.end', eventId: randomUUID(), sessionId, at: at(3), watchedSeconds: 170, rebufferCount: 1, rebufferMs: 2500, errorCode: 'E1' },
  ];
}

/** Everything stored of these sessions: their rows (every counter), their heartbeats, and whether a per-event record exists at all. */
async function raw(events: PlayerEvent[]) {
  const sessionIds = JSON.stringify([...new Set(events.map((e) => e.sessionId))]);
  const sessions = await queryRows(t.db, sql`
    SELECT id, started_at::text, last_event_at::text, ended_at::text, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps,
      heartbeat_count, bitrate_kbps_sum::int AS bitrate_kbps_sum, error_code
    FROM playback_sessions WHERE site_id = ${site.id} AND id IN (SELECT value::uuid FROM json_array_elements_text(${sessionIds}::json)) ORDER BY id`);
  const heartbeats = await queryRows(t.db, sql`
    SELECT event_id, at::text FROM player_heartbeats
    WHERE site_id = ${site.id} AND session_id IN (SELECT value::uuid FROM json_array_elements_text(${sessionIds}::json)) ORDER BY event_id, at`);
  const [record] = await queryRows<{ present: boolean }>(t.db, sql`SELECT to_regclass('ingested_events') IS NOT NULL AS present`);
  return { sessions, heartbeats, perEventTable: record!.present };
}

/** The site's playback rollups of these days, every column. */
const rollups = (days: string[]) => queryRows(t.db, sql`
  SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
    rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
  FROM daily_playback_rollups WHERE site_id = ${site.id} AND day::text IN (SELECT value FROM json_array_elements_text(${JSON.stringify(days)}::json))
  ORDER BY network_id, day, dimension, dim_key`);

async function foldAll(): Promise<void> {
  while ((await foldDirtySlices(t.db)) > 0) { /* fold until no slice is left */ }
}

/** The folded rollups of these days equal a recomputation from the raw rows (left rebuilt: the same). */
async function expectRollupsRecomputed(days: string[]) {
  const folded = await rollups(days);
  expect(folded.length).toBeGreaterThan(0);
  for (const d of new Set(days)) await rebuildRollups(t.db, { siteId: site.id, from: d, to: d });
  expect(await rollups(days)).toEqual(folded);
}

beforeAll(async () => {
  isolated = await openIsolatedTestDb();
  // Folds only when a test asks (foldAll, drain).
  t = await createTestApp({ db: isolated.handle, demo: true, ingest: { consumers: 1, foldIntervalMs: 3_600_000, duplicateWindowMs: 1 } });
  await seedSmallWorld(t.db);
  site = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  zone = await siteTimeZone(t.db, site.id);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await isolated?.drop();
});

describe('a batch written twice through the consumer path (redelivery past the duplicate window)', () => {
  it('changes nothing the second time: raw rows, session counters and rollups count every event once, and no slice is marked', async () => {
    const base = Date.now() - 5 * 86_400_000;
    const events = [...playedSession(base), ...playedSession(base + 3_600_000), ...playedSession(base + 7_200_000)];
    const batch = [{ siteId: site.id, events }];
    const days = [...new Set(events.map((e) => siteDayOf(Date.parse(e.at), zone)))];

    expect(await writeBatches(t.db, batch)).toEqual({ written: 12, duplicates: 0 });
    await foldAll();
    const once = await raw(events);
    expect(once.sessions).toHaveLength(3);
    expect(once.sessions).toEqual(once.sessions.map(() => expect.objectContaining({ watched_seconds: 170, heartbeat_count: 2, bitrate_kbps_sum: 8000, avg_bitrate_kbps: 4000, error_code: 'E1' })));
    expect(once.heartbeats).toHaveLength(6);
    // Consumers keep no row per event: there is no table for one (migration 0048).
    expect(once.perEventTable).toBe(false);
    const folded = await rollups(days);

    // The same batch again, as a consumer gets it after a crash between commit and acknowledgement.
    expect(await writeBatches(t.db, batch)).toEqual({ written: 0, duplicates: 12 });
    // Nothing was inserted or updated, so nothing is marked for a fold.
    expect(await dirtySliceCount(t.db)).toBe(0);
    expect(await raw(events)).toEqual(once);
    await foldAll();
    expect(await rollups(days)).toEqual(folded);
    await expectRollupsRecomputed(days);
  });

  it('counts the events once when they come again cut into other batches, beside new ones, before and after a fold', async () => {
    const base = Date.now() - 5 * 86_400_000 + 4 * 3_600_000;
    const first = playedSession(base);
    const second = playedSession(base + 600_000);
    const days = [...new Set([...first, ...second].map((e) => siteDayOf(Date.parse(e.at), zone)))];
    // The first session's start and one heartbeat, then (redelivered) the whole first session beside the second.
    expect(await writeBatches(t.db, [{ siteId: site.id, events: first.slice(0, 2) }])).toEqual({ written: 2, duplicates: 0 });
    expect(await writeBatches(t.db, [{ siteId: site.id, events: [...first].reverse() }, { siteId: site.id, events: second }]))
      .toEqual({ written: 6, duplicates: 2 });
    // Once more, whole, after the fold.
    await foldAll();
    const folded = await rollups(days);
    const stored = await raw([...first, ...second]);
    expect(stored.sessions).toHaveLength(2);
    expect(stored.sessions).toEqual(stored.sessions.map(() => expect.objectContaining({ watched_seconds: 170, heartbeat_count: 2, bitrate_kbps_sum: 8000 })));
    expect(stored.heartbeats).toHaveLength(4);
    expect(await writeBatches(t.db, [{ siteId: site.id, events: [...second, ...first] }])).toEqual({ written: 0, duplicates: 8 });
    expect(await dirtySliceCount(t.db)).toBe(0);
    expect(await raw([...first, ...second])).toEqual(stored);
    expect(await rollups(days)).toEqual(folded);
    await expectRollupsRecomputed(days);
  });

  it('through the queue and a consumer: the same batch published twice past the window is stored twice and counted once', async () => {
    const events = playedSession(Date.now() - 5 * 86_400_000 + 8 * 3_600_000);
    const days = [siteDayOf(Date.parse(events[0]!.at), zone)];
    const before = t.app.ingest.stats();
    expect((await t.post(INGEST_PATH, { events }, headers)).statusCode).toBe(202);
    await t.app.ingest.drain();
    const once = await raw(events);
    const folded = await rollups(days);
    // The duplicate window of this app is 1 ms: the copy is a new message of the queue.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await t.post(INGEST_PATH, { events }, headers)).statusCode).toBe(202);
    await t.app.ingest.drain();
    const after = t.app.ingest.stats();
    expect({ written: after.written - before.written, duplicates: after.duplicates - before.duplicates }).toEqual({ written: 4, duplicates: 4 });
    expect(await raw(events)).toEqual(once);
    expect(once.sessions).toEqual([expect.objectContaining({ watched_seconds: 170, heartbeat_count: 2 })]);
    expect(await rollups(days)).toEqual(folded);
    await expectRollupsRecomputed(days);
  });
});

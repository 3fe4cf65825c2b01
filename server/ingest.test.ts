/**
 * POST /v1/events: ingestion key, per-event refusal with nothing written, idempotency by event id,
 * site isolation, and rollups that equal a recomputation from the raw rows afterwards.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, INGEST_ROSTER_PATH, type IngestAccepted, type IngestRefused, type IngestRoster, type PlayerEvent } from '../common/ingest-contract';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { rebuildRollups } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, type TestApp } from './test-support';

let t: TestApp;
const key = demoIngestionKey(DEMO_SITES.viewlift);
const headers = { [INGEST_KEY_HEADER]: key };
let viewlift: { id: string; subscriberId: string; contentId: string };
let northwind: { id: string; subscriberId: string; contentId: string };

async function pickIds(site: string) {
  const { id } = await t.siteByName(site);
  const [row] = await queryRows<{ subscriber_id: string; content_id: string }>(t.db, sql`
    SELECT (SELECT id FROM subscribers WHERE site_id = ${id} ORDER BY created_at LIMIT 1) AS subscriber_id,
           (SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'video' ORDER BY title LIMIT 1) AS content_id`);
  return { id, subscriberId: row!.subscriber_id, contentId: row!.content_id };
}

/** A whole played session: start, two heartbeats, end. */
function playedSession(subscriberId: string, contentId: string, startedAt = new Date(Date.now() - 20 * 60_000)): PlayerEvent[] {
  const sessionId = randomUUID();
  const at = (minutes: number) => new Date(startedAt.getTime() + minutes * 60_000).toISOString();
  return [
    { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId, contentId, deviceType: 'roku', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 1300 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 58, bitrateKbps: 5000, rebufferCount: 0, rebufferMs: 0 },
    { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(2), playheadSeconds: 120, watchedSeconds: 115, bitrateKbps: 3000, rebufferCount: 1, rebufferMs: 2500 },
    { type: 'session.end', eventId: randomUUID(), sessionId, at: at(3), watchedSeconds: 170, rebufferCount: 1, rebufferMs: 2500 },
  ];
}

const send = (events: unknown, h: Record<string, string> = headers) => t.post(INGEST_PATH, { events }, h);

async function playbackSnapshot(siteId: string) {
  return queryRows(t.db, sql`
    SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
      rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
    FROM daily_playback_rollups WHERE site_id = ${siteId} ORDER BY network_id, day, dimension, dim_key`);
}

beforeAll(async () => {
  t = await createTestApp();
  await seedSmallWorld(t.db);
  viewlift = await pickIds(DEMO_SITES.viewlift);
  northwind = await pickIds(DEMO_SITES.northwind);
}, 180_000); // a shared 2-core machine can be slow to start PGlite and seed

afterAll(async () => {
  await t.close();
});

describe('the ingestion key', () => {
  it('is required, and a staff token is not one', async () => {
    const session = await t.login('admin@demo.test');
    const res = await send(playedSession(viewlift.subscriberId, viewlift.contentId), session.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.ingestKeyMissing });
  });

  it('must be a known key', async () => {
    const res = await send(playedSession(viewlift.subscriberId, viewlift.contentId), { [INGEST_KEY_HEADER]: 'ik_demo_nobody' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.ingestKeyInvalid });
  });
});

describe('a valid batch', () => {
  it('is written once: a resent batch counts as duplicates and changes nothing', async () => {
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    const first = await send(events);
    expect(first.statusCode).toBe(200);
    expect(first.json<IngestAccepted>()).toEqual({ success: true, accepted: 4, duplicates: 0 });
    const [session] = await queryRows<Record<string, unknown>>(t.db, sql`
      SELECT site_id, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, startup_ms, ended_at IS NOT NULL AS ended
      FROM playback_sessions WHERE id = ${events[0]!.sessionId}`);
    expect(session).toEqual({ site_id: viewlift.id, watched_seconds: 170, rebuffer_count: 1, rebuffer_seconds: 2, avg_bitrate_kbps: 4000, startup_ms: 1300, ended: true });

    const before = await playbackSnapshot(viewlift.id);
    const again = await send(events);
    expect(again.json<IngestAccepted>()).toEqual({ success: true, accepted: 0, duplicates: 4 });
    expect(await playbackSnapshot(viewlift.id)).toEqual(before);
    const [hb] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM player_heartbeats WHERE session_id = ${events[0]!.sessionId}`);
    expect(hb!.n).toBe(2);
  });

  it('counts an event repeated inside one batch once', async () => {
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    const res = await send([...events, events[1]]);
    expect(res.json<IngestAccepted>()).toEqual({ success: true, accepted: 4, duplicates: 1 });
  });

  it('takes heartbeats of a session started in an earlier batch, whatever their order', async () => {
    const [start, hb1, hb2, end] = playedSession(viewlift.subscriberId, viewlift.contentId);
    expect((await send([start])).statusCode).toBe(200);
    expect((await send([end, hb2])).json<IngestAccepted>().accepted).toBe(2);
    expect((await send([hb1])).json<IngestAccepted>().accepted).toBe(1);
    const [session] = await queryRows<{ watched_seconds: number; rebuffer_count: number }>(t.db, sql`
      SELECT watched_seconds, rebuffer_count FROM playback_sessions WHERE id = ${start!.sessionId}`);
    expect(session).toEqual({ watched_seconds: 170, rebuffer_count: 1 });
  });

  it('leaves rollups equal to a recomputation from the raw rows', async () => {
    const batch = [
      ...playedSession(viewlift.subscriberId, viewlift.contentId),
      ...playedSession(viewlift.subscriberId, viewlift.contentId, new Date(Date.now() - 30 * 3_600_000)),
    ];
    expect((await send(batch)).statusCode).toBe(200);
    const folded = await playbackSnapshot(viewlift.id);
    await rebuildRollups(t.db, { siteId: viewlift.id });
    expect(await playbackSnapshot(viewlift.id)).toEqual(folded);
  });
});

describe('a batch with bad events', () => {
  it('is refused whole with one message per bad event, and nothing of it is written', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    const { watchedSeconds: _dropped, ...noWatched } = good[2] as Extract<PlayerEvent, { type: 'heartbeat' }>;
    const events = [
      good[0],
      noWatched,
      { ...good[1], type: 'pause' },
      { ...good[3], rebufferMs: -1 },
      { ...good[1], eventId: randomUUID(), sessionId: 'not-a-uuid' },
      { ...good[1], eventId: randomUUID(), at: 'yesterday' },
      { ...good[1], eventId: randomUUID(), extra: true },
    ];
    const res = await send(events);
    expect(res.statusCode).toBe(400);
    const body = res.json<IngestRefused>();
    expect(body.message).toBe(OWN_MESSAGES.ingestBatchRefused(6, 7));
    expect(body.errors.map((e) => [e.index, e.message])).toEqual([
      [1, 'events[1].watchedSeconds is required.'],
      [2, 'events[2].type must be one of session.start, heartbeat, session.end.'],
      [3, 'events[3].rebufferMs must be >= 0.'],
      [4, 'events[4].sessionId must be a UUID.'],
      [5, 'events[5].at must be an ISO 8601 date-time.'],
      [6, 'events[6].extra is not allowed.'],
    ]);
    const written = await queryRows<{ n: number }>(t.db, sql`
      SELECT (SELECT count(*) FROM playback_sessions WHERE id = ${good[0]!.sessionId})::int
        + (SELECT count(*) FROM ingested_events WHERE event_id = ${good[0]!.eventId})::int AS n`);
    expect(written[0]!.n).toBe(0);
  });

  it('is refused when an event refers to another site or to nothing, and the good events stay unwritten', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    const foreign = playedSession(northwind.subscriberId, northwind.contentId);
    const orphan = { ...good[1], eventId: randomUUID(), sessionId: randomUUID() };
    const stale = { ...good[1], eventId: randomUUID(), at: new Date(Date.now() - 30 * 86_400_000).toISOString() };
    const res = await send([...good, foreign[0], orphan, stale]);
    expect(res.statusCode).toBe(400);
    const body = res.json<IngestRefused>();
    expect(body.errors.map((e) => e.message)).toEqual([
      `events[4].subscriberId ${northwind.subscriberId} is not a subscriber of this site.`,
      `events[4].contentId ${northwind.contentId} is not a content item of this site.`,
      `events[5].sessionId ${orphan.sessionId} has no session.start on this site.`,
      `events[6].at is older than 7 days (${stale.at}).`,
    ]);
    const [row] = await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM ingested_events WHERE event_id IN (${good[0]!.eventId}, ${good[1]!.eventId})`);
    expect(row!.n).toBe(0);
    // The same good events go through once the batch is fixed.
    expect((await send(good)).json<IngestAccepted>().accepted).toBe(4);
  });

  it('cannot touch a session of another site', async () => {
    const other = playedSession(northwind.subscriberId, northwind.contentId);
    const res = await send(other, { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.northwind) });
    expect(res.statusCode).toBe(200);
    const hijack = { ...other[1]!, eventId: randomUUID() };
    const refused = await send([hijack]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<IngestRefused>().errors[0]!.message).toBe(`events[0].sessionId ${hijack.sessionId} has no session.start on this site.`);
    const restart = await send([{ ...other[0], eventId: randomUUID(), subscriberId: viewlift.subscriberId, contentId: viewlift.contentId }]);
    expect(restart.json<IngestRefused>().errors[0]!.message).toBe(`events[0].sessionId ${other[0]!.sessionId} is already used.`);
  });

  it('is refused when empty or larger than the limit', async () => {
    const empty = await send([]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/events/);
    const many = Array.from({ length: INGEST_MAX_EVENTS + 1 }, () => playedSession(viewlift.subscriberId, viewlift.contentId)[0]);
    const big = await send(many);
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/events/);
  });
});

describe('the simulator roster (development only)', () => {
  it('lists entitled viewers and playable items of the key\'s site only', async () => {
    const res = await t.get(`${INGEST_ROSTER_PATH}?limit=50`, headers);
    expect(res.statusCode).toBe(200);
    const roster = res.json<IngestRoster>();
    expect(roster.subscribers.length).toBeGreaterThan(0);
    expect(roster.content.length).toBeGreaterThan(0);
    const [row] = await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM subscribers WHERE site_id = ${viewlift.id}
        AND id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(roster.subscribers.map((s) => s.id))}::json))`);
    expect(row!.n).toBe(roster.subscribers.length);
    expect((await t.get(INGEST_ROSTER_PATH)).statusCode).toBe(401);
  });
});

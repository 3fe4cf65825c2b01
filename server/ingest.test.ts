/**
 * POST /v1/events: ingestion key, per-event refusal with nothing queued, idempotency by event id,
 * site isolation, and rollups that equal a recomputation from the raw rows afterwards. Batches go
 * through the in-process queue here (the JetStream path: server/ingest-nats.test.ts); `drain()`
 * waits until what was accepted is written and folded.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATE_TIME_PATTERN, INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, INGEST_ROSTER_PATH, PLAYER_EVENT_SCHEMAS,
  type IngestAccepted, type IngestRefused, type IngestRoster, type PlayerEvent,
} from '../common/ingest-contract';
import { OWN_MESSAGES } from '../common/messages';
import type { Db } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { INGEST_TRANSACTION_ATTEMPTS, IngestBusy, writeBatches } from './db/ingest-repository';
import { IngestQueueUnavailable } from './domain/ingest-queue';
import { INGEST_KEY_FAILURES_PER_IP } from './domain/rate-limit';
import { rebuildRollups } from './db/rollups';
import { demoIngestionKey, queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, firstSubscriberAndVideo, type SitePlayer, type TestApp } from './test/kit';

let t: TestApp;
const key = demoIngestionKey(DEMO_SITES.viewlift);
const headers = { [INGEST_KEY_HEADER]: key };
let viewlift: SitePlayer;
let northwind: SitePlayer;

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
/** Everything accepted so far written by the consumers and folded into the rollups. */
const drain = () => t.app.ingest.drain();

async function playbackSnapshot(siteId: string) {
  return queryRows(t.db, sql`
    SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count,
      rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram
    FROM daily_playback_rollups WHERE site_id = ${siteId} ORDER BY network_id, day, dimension, dim_key`);
}

beforeAll(async () => {
  // Several consumers writing small groups, so batches over the same sessions meet in the database
  // (on PostgreSQL they run in parallel; PGlite has one connection).
  // A short grace for a start that never comes (the dead letters of the orphan tests): every earlier
  // message must be written too, so a start sent before its heartbeats never loses to it.
  t = await createTestApp({ demo: true, ingest: { consumers: 3, maxMessagesPerWrite: 2, foldIntervalMs: 60_000, startGraceMs: 2000 } });
  await seedSmallWorld(t.db);
  viewlift = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  northwind = await firstSubscriberAndVideo(t, DEMO_SITES.northwind);
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
  it('is answered 202 once queued and written once: a resent batch changes nothing', async () => {
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    const first = await send(events);
    expect(first.statusCode).toBe(202);
    expect(first.json<IngestAccepted>()).toEqual({ success: true, accepted: 4 });
    await drain();
    const [session] = await queryRows<Record<string, unknown>>(t.db, sql`
      SELECT site_id, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, startup_ms, ended_at IS NOT NULL AS ended
      FROM playback_sessions WHERE id = ${events[0]!.sessionId}`);
    expect(session).toEqual({ site_id: viewlift.id, watched_seconds: 170, rebuffer_count: 1, rebuffer_seconds: 2, avg_bitrate_kbps: 4000, startup_ms: 1300, ended: true });

    const before = await playbackSnapshot(viewlift.id);
    // Resent after it was written, and resent in other orders before (two copies in the queue).
    const again = await send(events);
    expect(again.statusCode).toBe(202);
    expect((await send([...events].reverse())).statusCode).toBe(202);
    await drain();
    expect(await playbackSnapshot(viewlift.id)).toEqual(before);
    // No row per event (issue 42; its table, ingested_events, dropped by migration 0048): the raw
    // tables' keys counted the copies once, one session and each heartbeat event id once.
    const [stored] = await queryRows<{ sessions: number; heartbeats: number; heartbeat_ids: number; per_event_table: boolean }>(t.db, sql`
      SELECT (SELECT count(*)::int FROM playback_sessions WHERE site_id = ${viewlift.id} AND id = ${events[0]!.sessionId}) AS sessions,
        (SELECT count(*)::int FROM player_heartbeats WHERE session_id = ${events[0]!.sessionId}) AS heartbeats,
        (SELECT count(DISTINCT event_id)::int FROM player_heartbeats WHERE site_id = ${viewlift.id} AND event_id IN (${events[1]!.eventId}, ${events[2]!.eventId})) AS heartbeat_ids,
        to_regclass('ingested_events') IS NOT NULL AS per_event_table`);
    expect(stored).toEqual({ sessions: 1, heartbeats: 2, heartbeat_ids: 2, per_event_table: false });
  });

  it('counts an event repeated inside one batch once', async () => {
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    const res = await send([...events, events[1]]);
    expect(res.statusCode).toBe(202);
    expect(res.json<IngestAccepted>()).toEqual({ success: true, accepted: 4 });
    await drain();
    const [hb] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM player_heartbeats WHERE session_id = ${events[0]!.sessionId}`);
    expect(hb!.n).toBe(2);
  });

  it('takes heartbeats of a session started in an earlier batch, whatever their order, before that start is written', async () => {
    const [start, hb1, hb2, end] = playedSession(viewlift.subscriberId, viewlift.contentId);
    // No drain in between: the producer looks nothing up, the consumer waits for the start.
    expect((await send([start])).statusCode).toBe(202);
    expect((await send([end, hb2])).json<IngestAccepted>().accepted).toBe(2);
    expect((await send([hb1])).json<IngestAccepted>().accepted).toBe(1);
    await drain();
    const [session] = await queryRows<{ watched_seconds: number; rebuffer_count: number }>(t.db, sql`
      SELECT watched_seconds, rebuffer_count FROM playback_sessions WHERE id = ${start!.sessionId}`);
    expect(session).toEqual({ watched_seconds: 170, rebuffer_count: 1 });
  });

  it('leaves rollups equal to a recomputation from the raw rows', async () => {
    const batch = [
      ...playedSession(viewlift.subscriberId, viewlift.contentId),
      ...playedSession(viewlift.subscriberId, viewlift.contentId, new Date(Date.now() - 30 * 3_600_000)),
    ];
    expect((await send(batch)).statusCode).toBe(202);
    await drain();
    const folded = await playbackSnapshot(viewlift.id);
    await rebuildRollups(t.db, { siteId: viewlift.id });
    expect(await playbackSnapshot(viewlift.id)).toEqual(folded);
  });
});

describe('a batch with bad events', () => {
  it('is refused whole with one message per bad event, and nothing of it is queued or written', async () => {
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
      [5, OWN_MESSAGES.ingestEventDateTime('events[5].at')],
      [6, 'events[6].extra is not allowed.'],
    ]);
    await drain();
    const written = await queryRows<{ n: number }>(t.db, sql`
      SELECT (SELECT count(*) FROM playback_sessions WHERE id = ${good[0]!.sessionId})::int
        + (SELECT count(*) FROM ingest_session_starts WHERE session_id = ${good[0]!.sessionId})::int
        + (SELECT count(*) FROM player_heartbeats WHERE session_id = ${good[0]!.sessionId})::int AS n`);
    expect(written[0]!.n).toBe(0);
  });

  it('is refused for an event out of the time bounds, checked without the database, and the good events stay unwritten', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    const stale = { ...good[1], eventId: randomUUID(), at: new Date(Date.now() - 30 * 86_400_000).toISOString() };
    const future = { ...good[2], eventId: randomUUID(), at: new Date(Date.now() + 60 * 60_000).toISOString() };
    const res = await send([...good, stale, future]);
    expect(res.statusCode).toBe(400);
    const body = res.json<IngestRefused>();
    expect(body.errors.map((e) => e.message)).toEqual([
      `events[4].at is older than 7 days (${stale.at}).`,
      `events[5].at is in the future (${future.at}).`,
    ]);
    await drain();
    const [row] = await queryRows<{ n: number }>(t.db, sql`
      SELECT (SELECT count(*) FROM player_heartbeats WHERE session_id = ${good[0]!.sessionId})::int
        + (SELECT count(*) FROM playback_sessions WHERE id = ${good[0]!.sessionId})::int AS n`);
    expect(row!.n).toBe(0);
    // The same good events go through once the batch is fixed.
    expect((await send(good)).json<IngestAccepted>().accepted).toBe(4);
    await drain();
    const [ok] = await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM player_heartbeats WHERE site_id = ${viewlift.id} AND event_id IN (${good[1]!.eventId}, ${good[2]!.eventId})`);
    expect(ok!.n).toBe(2);
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

describe('a batch with events that refer to another site or to nothing (issue 42: checked by the consumers)', () => {
  it('is accepted without a database look-up; the good events are written and the others kept as dead letters with their reason', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    const foreign = playedSession(northwind.subscriberId, northwind.contentId);
    const orphan = { ...good[1], eventId: randomUUID(), sessionId: randomUUID() };
    const res = await send([...good, foreign[0], orphan]);
    expect(res.statusCode).toBe(202);
    expect(res.json<IngestAccepted>()).toEqual({ success: true, accepted: 6 });
    await drain();
    const [session] = await queryRows<{ watched_seconds: number }>(t.db, sql`SELECT watched_seconds FROM playback_sessions WHERE id = ${good[0]!.sessionId}`);
    expect(session).toEqual({ watched_seconds: 170 });
    const letters = await queryRows<{ event_id: string; reason: string }>(t.db, sql`
      SELECT event_id, reason FROM ingest_dead_letters WHERE site_id = ${viewlift.id} AND event_id IN (${foreign[0]!.eventId}, ${orphan.eventId}) ORDER BY reason`);
    expect(letters).toEqual([{ event_id: orphan.eventId, reason: 'session-start-missing' }, { event_id: foreign[0]!.eventId, reason: 'subscriber-missing' }]);
    const [none] = await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM playback_sessions WHERE id IN (${foreign[0]!.sessionId}, ${orphan.sessionId})`);
    expect(none!.n).toBe(0);
  });

  it('cannot touch a session of another site', async () => {
    const other = playedSession(northwind.subscriberId, northwind.contentId);
    const res = await send(other, { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.northwind) });
    expect(res.statusCode).toBe(202);
    await drain();
    const theirRow = () => queryRows(t.db, sql`SELECT * FROM playback_sessions WHERE id = ${other[0]!.sessionId}`);
    const before = await theirRow();
    const hijack = { ...other[1]!, eventId: randomUUID(), watchedSeconds: 9999 };
    expect((await send([hijack])).statusCode).toBe(202);
    await drain();
    expect(await theirRow()).toEqual(before);
    const [letter] = await queryRows<{ reason: string; site_id: string }>(t.db, sql`SELECT reason, site_id FROM ingest_dead_letters WHERE event_id = ${hijack.eventId}`);
    expect(letter).toEqual({ reason: 'session-start-missing', site_id: viewlift.id });
  });
});

/** The same instant written with a time offset such as '+14:00' or '-09:30'. */
function withOffset(instant: Date, offset: string): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, m] = offset.slice(1).split(':').map(Number) as [number, number];
  const local = new Date(instant.getTime() + sign * (h * 60 + m) * 60_000);
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

/** A small deterministic pseudo-random generator (mulberry32), so a failing shuffle can be replayed. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('the batch message (issue 25)', () => {
  it('counts refused events, not their messages, with singular and plural right', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    // One event (a subscriber, title and network of another site are the consumers' to find, issue 42: only its date counts here).
    const stale = { ...good[0]!, subscriberId: northwind.subscriberId, contentId: northwind.contentId, networkId: randomUUID(), at: new Date(Date.now() - 8 * 86_400_000).toISOString() };
    const one = await send([stale]);
    expect(one.statusCode).toBe(400);
    expect(one.json<IngestRefused>().errors).toEqual([{ index: 0, eventId: stale.eventId, message: `events[0].at is older than 7 days (${stale.at}).` }]);
    expect(one.json<IngestRefused>().message).toBe('1 of 1 event was refused; nothing of this batch was written.');

    const oneOfTwo = await send([good[0], { ...good[1], eventId: randomUUID(), at: 'soon' }]);
    expect(oneOfTwo.json<IngestRefused>().message).toBe('1 of 2 events was refused; nothing of this batch was written.');
    const twoOfThree = await send([good[0], { ...good[1], at: 'soon' }, { ...good[2], rebufferMs: -5 }]);
    expect(twoOfThree.json<IngestRefused>().message).toBe('2 of 3 events were refused; nothing of this batch was written.');
  });
});

describe('time offsets (issue 25)', () => {
  // Every date-time field of every event kind, read from the contract.
  const dateFields = Object.entries(PLAYER_EVENT_SCHEMAS).flatMap(([type, schema]) =>
    Object.entries(schema.properties).filter(([, p]) => (p as { pattern?: string }).pattern === DATE_TIME_PATTERN).map(([field]) => ({ type, field })));

  it('finds the date-time field of each kind', () => {
    expect(dateFields).toEqual([
      { type: 'session.start', field: 'at' }, { type: 'heartbeat', field: 'at' }, { type: 'session.end', field: 'at' },
    ]);
  });

  it('refuses an offset beyond ±14:00 (or a day the calendar lacks) with 400 naming the field, per event, for every kind', async () => {
    const good = playedSession(viewlift.subscriberId, viewlift.contentId);
    const byType = new Map(good.map((e) => [e.type, e]));
    const recent = new Date(Date.now() - 10 * 60_000);
    for (const { type, field } of dateFields) {
      const bad = ['+20:00', '-20:00', '+16:00', '-23:59', '+15:59', '+14:01', '-14:30'].map((o) => withOffset(recent, o));
      const events = bad.map((value) => ({ ...byType.get(type as PlayerEvent['type'])!, eventId: randomUUID(), [field]: value }));
      const res = await send(events);
      expect(res.statusCode).toBe(400);
      const body = res.json<IngestRefused>();
      expect(body.message).toBe(OWN_MESSAGES.ingestBatchRefused(bad.length, bad.length));
      expect(body.errors.map((e) => [e.index, e.message])).toEqual(bad.map((_, i) => [i, OWN_MESSAGES.ingestEventDateTime(`events[${i}].${field}`)]));

      const unreal = await send([{ ...byType.get(type as PlayerEvent['type'])!, eventId: randomUUID(), [field]: '2026-02-30T10:00:00Z' }]);
      expect(unreal.statusCode).toBe(400);
      expect(unreal.json<IngestRefused>().errors.map((e) => e.message)).toEqual([`events[0].${field} is not a real date-time.`]);
    }
  });

  it('accepts Z and any offset within ±14:00 as the same instant', async () => {
    const [start, hb1, hb2, end] = playedSession(viewlift.subscriberId, viewlift.contentId);
    const shift = (e: PlayerEvent, offset: string) => ({ ...e, at: withOffset(new Date(e.at), offset) });
    const res = await send([shift(start!, '+14:00'), shift(hb1!, '-14:00'), shift(hb2!, '+05:45'), shift(end!, '-09:30')]);
    expect(res.statusCode).toBe(202);
    await drain();
    const [row] = await queryRows<{ started: string; last: string }>(t.db, sql`
      SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS started, to_char(last_event_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS last
      FROM playback_sessions WHERE id = ${start!.sessionId}`);
    expect(row).toEqual({ started: start!.at.slice(0, 19), last: end!.at.slice(0, 19) });
  });
});

describe('heartbeats after a session ended (issue 25)', () => {
  it('are accepted (202) and change nothing of the session, in a later batch or the same one', async () => {
    const [start, hb1, hb2, end] = playedSession(viewlift.subscriberId, viewlift.contentId);
    expect((await send([start, hb1, hb2, end])).statusCode).toBe(202);
    await drain();
    const snapshot = () => queryRows(t.db, sql`
      SELECT watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, last_event_at::text, ended_at::text
      FROM playback_sessions WHERE id = ${start!.sessionId}`);
    const before = await snapshot();
    expect(before[0]).toMatchObject({ watched_seconds: 170 });
    const late = { ...hb2!, eventId: randomUUID(), at: new Date(Date.parse(end!.at) + 60_000).toISOString(), watchedSeconds: 999, rebufferCount: 7, rebufferMs: 90_000, bitrateKbps: 100 };
    const res = await send([late]);
    expect(res.statusCode).toBe(202);
    expect(res.json<IngestAccepted>()).toEqual({ success: true, accepted: 1 });
    await drain();
    expect(await snapshot()).toEqual(before);
    // Stored as received all the same.
    const [kept] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM player_heartbeats WHERE site_id = ${viewlift.id} AND event_id = ${late.eventId}`);
    expect(kept!.n).toBe(1);

    // The same in one batch, whatever the order of arrival: the end comes last here.
    const other = playedSession(viewlift.subscriberId, viewlift.contentId);
    const lateInBatch = { ...other[2]!, eventId: randomUUID(), at: new Date(Date.parse(other[3]!.at) + 60_000).toISOString(), watchedSeconds: 999 };
    const mixed = await send([other[0], lateInBatch, other[1], other[2], other[3]]);
    expect(mixed.json<IngestAccepted>()).toEqual({ success: true, accepted: 5 });
    await drain();
    const [row] = await queryRows<{ watched_seconds: number }>(t.db, sql`SELECT watched_seconds FROM playback_sessions WHERE id = ${other[0]!.sessionId}`);
    expect(row!.watched_seconds).toBe(170);

    // And when the late heartbeat arrives before its session's end: the end still decides.
    const third = playedSession(viewlift.subscriberId, viewlift.contentId);
    const early = { ...third[2]!, eventId: randomUUID(), at: new Date(Date.parse(third[3]!.at) + 60_000).toISOString(), watchedSeconds: 999 };
    expect((await send([third[0], third[1], early])).statusCode).toBe(202);
    await drain();
    expect((await send([third[3]])).statusCode).toBe(202);
    await drain();
    const [third2] = await queryRows<{ watched_seconds: number }>(t.db, sql`SELECT watched_seconds FROM playback_sessions WHERE id = ${third[0]!.sessionId}`);
    expect(third2!.watched_seconds).toBe(170);
  });
});

describe('session ids of another site (issue 25)', () => {
  it('answer exactly as a fresh unknown id would, and the other site\'s session is untouched', async () => {
    const northwindHeaders = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.northwind) };
    const theirs = playedSession(northwind.subscriberId, northwind.contentId);
    expect((await send(theirs, northwindHeaders)).statusCode).toBe(202);
    await drain();
    const theirRow = () => queryRows(t.db, sql`SELECT * FROM playback_sessions WHERE site_id = ${northwind.id} AND id = ${theirs[0]!.sessionId}`);
    const before = await theirRow();

    // A heartbeat: the same answer as for an id nobody uses (accepted: the producer looks nothing up),
    // and the same dead letter once the consumer finds no start of the caller's site.
    const fresh = randomUUID();
    const hb = (sessionId: string) => ({ ...theirs[1]!, eventId: randomUUID(), sessionId });
    const [hbForeign, hbUnknown] = [hb(theirs[0]!.sessionId), hb(fresh)];
    const foreign = await send([hbForeign]);
    const unknown = await send([hbUnknown]);
    expect(foreign.statusCode).toBe(unknown.statusCode);
    expect(foreign.json()).toEqual(unknown.json());
    await drain();
    const letters = await queryRows<{ event_id: string; reason: string; detail: string }>(t.db, sql`
      SELECT event_id, reason, detail FROM ingest_dead_letters WHERE site_id = ${viewlift.id} AND event_id IN (${hbForeign.eventId}, ${hbUnknown.eventId})`);
    const of = (id: string) => letters.find((l) => l.event_id === id)!;
    expect(of(hbForeign.eventId).reason).toBe(of(hbUnknown.eventId).reason);
    expect(of(hbForeign.eventId).detail.replace(theirs[0]!.sessionId, 'ID').replace(/message \d+/, 'message N'))
      .toBe(of(hbUnknown.eventId).detail.replace(fresh, 'ID').replace(/message \d+/, 'message N'));

    // A start: accepted like any fresh id, as a session of the caller's site.
    const mine = playedSession(viewlift.subscriberId, viewlift.contentId).map((e) => ({ ...e, sessionId: theirs[0]!.sessionId }));
    const started = await send(mine);
    const freshStart = await send(playedSession(viewlift.subscriberId, viewlift.contentId));
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual(freshStart.json());
    await drain();
    expect(await theirRow()).toEqual(before);
    const [own] = await queryRows<{ site_id: string; watched_seconds: number }>(t.db, sql`
      SELECT site_id, watched_seconds FROM playback_sessions WHERE site_id = ${viewlift.id} AND id = ${theirs[0]!.sessionId}`);
    expect(own).toEqual({ site_id: viewlift.id, watched_seconds: 170 });
  });
});

describe('wrong ingestion keys from one address (issue 25)', () => {
  const from = (remoteAddress: string, ingestionKey: string) => t.inject({
    method: 'POST', url: INGEST_PATH, remoteAddress, headers: { [INGEST_KEY_HEADER]: ingestionKey },
    payload: { events: playedSession(viewlift.subscriberId, viewlift.contentId) },
  });

  it('are limited per address with 429 and Retry-After; valid keys from that address and other addresses go on', async () => {
    const address = '198.51.100.25';
    for (let i = 0; i < INGEST_KEY_FAILURES_PER_IP.limit; i += 1) {
      const res = await from(address, `ik_guess_${i}`);
      expect(res.statusCode).toBe(401);
    }
    const limited = await from(address, 'ik_guess_again');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(INGEST_KEY_FAILURES_PER_IP.windowSeconds);
    expect(limited.json()).toEqual({ success: false, message: OWN_MESSAGES.ingestKeyFailuresLimited });
    // The site's players behind the same address (a carrier NAT) are not held back by the guesser.
    expect((await from(address, key)).statusCode).toBe(202);
    expect((await from('198.51.100.26', 'ik_guess_elsewhere')).statusCode).toBe(401);
  });
});

describe('parallel batches over the same sessions (issue 25)', () => {
  it('all succeed, whatever their order, and leave the same rows as the batches sent one after another', async () => {
    const random = prng(25);
    const template = Array.from({ length: 6 }, (_, s) => {
      const startedAt = new Date(Date.now() - (40 + s) * 60_000);
      const at = (minutes: number) => new Date(startedAt.getTime() + minutes * 60_000).toISOString();
      const beats = Array.from({ length: 8 }, (__, k) => ({ type: 'heartbeat' as const, key: `hb${k}`, at: at(k + 1), playheadSeconds: 60 * (k + 1), watchedSeconds: 55 * (k + 1), bitrateKbps: 1000 + 500 * ((s + k) % 5), rebufferCount: Math.floor(k / 3), rebufferMs: 700 * Math.floor(k / 3) }));
      return { s, start: at(0), beats, end: { at: at(10), watchedSeconds: 500, rebufferCount: 2, rebufferMs: 1400 } };
    });
    // 40 batches, each with 3 sessions (their starts included, so any batch may come first) and some of their events, shuffled.
    const plan = Array.from({ length: 40 }, () => shuffled(template, random).slice(0, 3).flatMap((tpl) => [
      { s: tpl.s, key: 'start' }, ...shuffled([...tpl.beats.map((b) => b.key), 'end'], random).slice(0, 4).map((k) => ({ s: tpl.s, key: k })),
    ])).map((events) => shuffled(events, random));

    const materialise = () => {
      const ids = template.map(() => ({ session: randomUUID(), events: new Map<string, string>() }));
      const eventId = (s: number, k: string) => {
        const map = ids[s]!.events;
        if (!map.has(k)) map.set(k, randomUUID());
        return map.get(k)!;
      };
      const event = (s: number, k: string): PlayerEvent => {
        const tpl = template[s]!;
        const sessionId = ids[s]!.session;
        if (k === 'start') return { type: 'session.start', eventId: eventId(s, k), sessionId, at: tpl.start, subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Fastly', startupMs: 900 + s };
        if (k === 'end') return { type: 'session.end', eventId: eventId(s, k), sessionId, ...tpl.end };
        const { key: _key, ...beat } = tpl.beats.find((b) => b.key === k)!;
        return { ...beat, eventId: eventId(s, k), sessionId };
      };
      return { ids, batches: plan.map((batch) => batch.map(({ s, key: k }) => event(s, k))) };
    };
    const rows = async (ids: { session: string }[]) => {
      const out = [];
      for (const { session } of ids) {
        const [row] = await queryRows(t.db, sql`
          SELECT started_at::text, last_event_at::text, ended_at::text, watched_seconds, rebuffer_count, rebuffer_seconds, avg_bitrate_kbps, startup_ms,
            (SELECT count(*)::int FROM player_heartbeats h WHERE h.site_id = p.site_id AND h.session_id = p.id) AS heartbeats
          FROM playback_sessions p WHERE site_id = ${viewlift.id} AND id = ${session}`);
        out.push(row);
      }
      return out;
    };

    const parallel = materialise();
    const answers = await Promise.all(parallel.batches.map((events) => send(events)));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 202));
    await drain();
    const sequential = materialise();
    for (const events of sequential.batches) {
      expect((await send(events)).statusCode).toBe(202);
      await drain();
    }
    const expected = await rows(sequential.ids);
    expect(expected.every(Boolean)).toBe(true);
    expect(await rows(parallel.ids)).toEqual(expected);
    const folded = await playbackSnapshot(viewlift.id);
    await rebuildRollups(t.db, { siteId: viewlift.id });
    expect(await playbackSnapshot(viewlift.id)).toEqual(folded);
  }, 120_000);

  it('retries a deadlock or serialization failure and gives up with IngestBusy, never anything else', async () => {
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    const failing = (code: string, times: number) => {
      let calls = 0;
      const db = new Proxy(t.db, {
        get(target, prop) {
          if (prop === 'transaction') {
            return (...args: unknown[]) => {
              calls += 1;
              if (calls <= times) return Promise.reject(Object.assign(new Error('simulated'), { code }));
              return (target.transaction as (...a: unknown[]) => unknown)(...args);
            };
          }
          return Reflect.get(target, prop) as unknown;
        },
      }) as Db;
      return { db, calls: () => calls };
    };
    const batch = [{ siteId: viewlift.id, events }];
    const twice = failing('40P01', 2);
    await expect(writeBatches(twice.db, batch)).resolves.toEqual({ written: 4, duplicates: 0 });
    expect(twice.calls()).toBe(3);
    const always = failing('40001', Number.MAX_SAFE_INTEGER);
    await expect(writeBatches(always.db, batch)).rejects.toBeInstanceOf(IngestBusy);
    expect(always.calls()).toBe(INGEST_TRANSACTION_ATTEMPTS);
    const other = failing('23505', 1);
    await expect(writeBatches(other.db, batch)).rejects.toMatchObject({ code: '23505' });
    expect(other.calls()).toBe(1);
  });

  it('answers 503 with Retry-After and a message when the queue cannot take the batch, and a resend then counts once', async () => {
    const pipeline = t.app.ingest;
    const publish = pipeline.publish.bind(pipeline);
    const events = playedSession(viewlift.subscriberId, viewlift.contentId);
    (pipeline as { publish: typeof publish }).publish = () => Promise.reject(new IngestQueueUnavailable(new Error('TIMEOUT')));
    try {
      const res = await send(events);
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.ingestBusy });
    } finally {
      (pipeline as { publish: typeof publish }).publish = publish;
    }
    await drain();
    const [none] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM playback_sessions WHERE id = ${events[0]!.sessionId}`);
    expect(none!.n).toBe(0);
    expect((await send(events)).statusCode).toBe(202);
    await drain();
    const [one] = await queryRows<{ watched_seconds: number }>(t.db, sql`SELECT watched_seconds FROM playback_sessions WHERE id = ${events[0]!.sessionId}`);
    expect(one).toEqual({ watched_seconds: 170 });
  });
});

describe('any input to /v1/events (issue 25)', () => {
  it('is answered 202 or 400 with a message, never a 5xx, and whatever is queued is written (property)', async () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '😀', '\u202e', "'; DROP TABLE x;--", '%s%n', ' '),
      fc.string({ unit: 'binary', maxLength: 8 }),
    );
    const offset = fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 30 }), fc.constantFrom(0, 1, 30, 59, 60))
      .map(([sign, h, m]) => `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    const dateTime = fc.oneof(
      fc.tuple(fc.integer({ min: -600, max: 600 }), fc.oneof(fc.constant('Z'), offset)).map(([minutes, zone]) => {
        const iso = new Date(Date.now() + minutes * 60_000).toISOString();
        return zone === 'Z' ? iso : `${iso.slice(0, 19)}${zone}`;
      }),
      fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 29 }), fc.integer({ min: 0, max: 69 }))
        .map(([y, mo, d, h, mi]) => `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:00Z`),
      hostile,
    );
    const sessions = Array.from({ length: 3 }, () => randomUUID());
    const uuidish = fc.oneof(fc.constantFrom(...sessions), fc.uuid(), fc.constantFrom(viewlift.subscriberId, viewlift.contentId, northwind.subscriberId, sessions[0]!.toUpperCase()), hostile);
    const number = fc.oneof(fc.integer({ min: -2, max: 10_000_001 }), fc.constantFrom(2 ** 31, 2 ** 53, 1e21, -0, 0.5, Number.MAX_SAFE_INTEGER), fc.string({ maxLength: 3 }));
    const fields = ['type', 'eventId', 'sessionId', 'at', ...new Set(Object.values(PLAYER_EVENT_SCHEMAS).flatMap((schema) => Object.keys(schema.properties))), 'extra'];
    const anyValue = fc.oneof(hostile, number, uuidish, dateTime, fc.constantFrom(null, true, [], {}));
    // A valid event of some kind, then none to three fields changed: most cases reach the database.
    const event = fc.record({
      type: fc.constantFrom('session.start', 'heartbeat', 'session.end'),
      eventId: fc.oneof({ weight: 5, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom('e1', 'e2') }, { weight: 1, arbitrary: hostile }),
      sessionId: fc.constantFrom(...sessions),
      at: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 120 }).map((m) => new Date(Date.now() - m * 60_000).toISOString()) }, { weight: 2, arbitrary: dateTime }),
      changes: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...fields), anyValue, { minKeys: 1, maxKeys: 3 }) }),
    }).map(({ type, eventId, sessionId, at, changes }) => {
      const valid = {
        'session.start': { subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'web', country: 'US', isp: 'Comcast', cdn: 'Akamai', startupMs: 800 },
        heartbeat: { playheadSeconds: 60, watchedSeconds: 50, bitrateKbps: 3000, rebufferCount: 0, rebufferMs: 0 },
        'session.end': { watchedSeconds: 90, rebufferCount: 1, rebufferMs: 300, avgBitrateKbps: 2000, errorCode: 'E1' },
      }[type];
      return { type, eventId, sessionId, at, ...valid, ...changes };
    });
    const body = fc.oneof(
      // Each batch starts its sessions first (a valid start per session), so later events can reach the session rows.
      { weight: 8, arbitrary: fc.array(event, { minLength: 1, maxLength: 3 }).map((events) => ({ events: [...sessions.map((sessionId) => ({
        type: 'session.start', eventId: `start-${sessionId}`, sessionId, at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        subscriberId: viewlift.subscriberId, contentId: viewlift.contentId, deviceType: 'roku', country: 'US', isp: 'Comcast', cdn: 'Akamai', startupMs: 900,
      })), ...events] })) },
      { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
      { weight: 1, arbitrary: fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }).map((events) => ({ events })) },
    );
    await fc.assert(fc.asyncProperty(body, async (payload) => {
      const res = await t.inject({ method: 'POST', url: INGEST_PATH, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) ?? 'null' });
      expect([202, 400]).toContain(res.statusCode);
      const answer = res.json<{ success: boolean; message?: string }>();
      expect(answer.success).toBe(res.statusCode === 202);
      if (res.statusCode === 400) expect(typeof answer.message).toBe('string');
    }), { numRuns: 300, seed: 25 });
    // No accepted batch is one the consumers cannot write (it would come back for ever).
    await t.app.ingest.drain(30_000);
  }, 180_000);
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

/**
 * Session counters in the consumer's memory (issue 42; server/db/ingest-session-counters.ts): a
 * consumer writes the heartbeats with each flush and its sessions' rows every INGEST_SESSION_FLUSH_MS,
 * acknowledging the messages only then. Whatever happens in between (a crash that loses the memory
 * and delivers the messages again, an end, another consumer writing the same sessions during a
 * handover), the rows must end up exactly as the write of before leaves them (every session's row
 * updated with each flush): that path is the reference here, on twin sessions of the same events.
 *
 * A database of this file alone (openIsolatedTestDb): on a shared PostgreSQL other files' writes do
 * not matter here, but its own rows are compared whole.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerEvent } from '../common/ingest-contract';
import type { DbHandle } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { applySessionCounters, writeBatches, type QueuedBatch } from './db/ingest-repository';
import { epochMicros, isLater, SessionCounters } from './db/ingest-session-counters';
import { utcDayOf } from './db/raw-history';
import { queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, firstSubscriberAndVideo, openIsolatedTestDb, type SitePlayer, type TestApp } from './test/kit';

let isolated: { handle: DbHandle; drop(): Promise<void> };
let t: TestApp;
let site: SitePlayer;

beforeAll(async () => {
  isolated = await openIsolatedTestDb();
  t = await createTestApp({ db: isolated.handle, demo: true, ingest: { consumers: 0, fold: false } });
  await seedSmallWorld(t.db);
  site = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await isolated?.drop();
});

/** Every counter of these sessions' rows, in the order of `ids`. */
async function rows(ids: string[]) {
  return queryRows<Record<string, unknown>>(t.db, sql`
    SELECT p.started_at::text, p.last_event_at::text, p.ended_at::text, p.watched_seconds, p.rebuffer_count, p.rebuffer_seconds,
      p.avg_bitrate_kbps, p.heartbeat_count, p.bitrate_kbps_sum::int AS bitrate_kbps_sum, p.error_code
    FROM json_array_elements_text(${JSON.stringify(ids)}::json) WITH ORDINALITY AS x(id, n)
    LEFT JOIN playback_sessions p ON p.site_id = ${site.id}::uuid AND p.id = x.id::uuid
    ORDER BY x.n`);
}

/**
 * The sessions (of `ids`) whose row differs from their stored heartbeats dated up to its end: count,
 * bitrate sum, and for a session not ended its mean bitrate, watched time and last event.
 */
async function recountedFromRaw(ids: string[]) {
  return queryRows<Record<string, unknown>>(t.db, sql`
    SELECT p.id, p.heartbeat_count, r.n, p.bitrate_kbps_sum, r.bitrate_sum FROM playback_sessions p
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS n, coalesce(sum(h.bitrate_kbps), 0)::bigint AS bitrate_sum, max(h.watched_seconds) AS watched, max(h.at) AS last_at
      FROM player_heartbeats h WHERE h.site_id = p.site_id AND h.session_id = p.id AND h.at <= coalesce(p.ended_at, 'infinity'::timestamptz)) r
    WHERE p.site_id = ${site.id}::uuid AND p.id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(ids)}::json))
      AND (p.heartbeat_count <> r.n OR p.bitrate_kbps_sum <> r.bitrate_sum
        OR (r.n > 0 AND p.ended_at IS NULL AND p.avg_bitrate_kbps IS DISTINCT FROM round(r.bitrate_sum::numeric / r.n)::int)
        OR (p.ended_at IS NULL AND (p.watched_seconds <> coalesce(r.watched, 0) OR p.last_event_at <> greatest(p.started_at, r.last_at))))`);
}

const hb = (sessionId: string, at: string, watchedSeconds: number, bitrateKbps: number, rebufferCount = 0, rebufferMs = 0): PlayerEvent => ({
  type: 'heartbeat', eventId: randomUUID(), sessionId, at, playheadSeconds: watchedSeconds, watchedSeconds, bitrateKbps, rebufferCount, rebufferMs,
});
const start = (sessionId: string, at: string): PlayerEvent => ({
  type: 'session.start', eventId: randomUUID(), sessionId, at, subscriberId: site.subscriberId, contentId: site.contentId,
  deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Fastly', startupMs: 900,
});
const end = (sessionId: string, at: string, watchedSeconds: number, avgBitrateKbps?: number): PlayerEvent => ({
  type: 'session.end', eventId: randomUUID(), sessionId, at, watchedSeconds, rebufferCount: 1, rebufferMs: 1500, ...(avgBitrateKbps ? { avgBitrateKbps } : {}),
});
const batch = (events: PlayerEvent[]): QueuedBatch[] => [{ siteId: site.id, events }];

describe('epochMicros', () => {
  it('reads the microseconds Date.parse drops, whatever the offset', () => {
    expect(epochMicros('2026-03-01T10:00:00Z')).toBe(Date.parse('2026-03-01T10:00:00Z') * 1000);
    expect(epochMicros('2026-03-01T10:00:00.5Z')).toBe(Date.parse('2026-03-01T10:00:00Z') * 1000 + 500_000);
    expect(epochMicros('2026-03-01T10:00:00.123456Z')).toBe(Date.parse('2026-03-01T10:00:00Z') * 1000 + 123_456);
    expect(epochMicros('2026-03-01T12:00:00.000001+02:00')).toBe(Date.parse('2026-03-01T10:00:00Z') * 1000 + 1);
    expect(epochMicros('2026-03-01T10:00:00.000002Z')).toBeGreaterThan(epochMicros('2026-03-01T10:00:00.000001Z'));
  });
});

describe('isLater and utcDayOf (event times read without a Date where they can be)', () => {
  const times = ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.5Z', '2026-03-01T10:00:00.499999Z', '2026-03-01T10:00:00.500001Z', '2026-03-01T23:59:59.999Z',
    '2026-03-02T01:30:00+02:00', '2026-03-01T22:30:00-02:00', '2026-02-28T23:00:00.000001-01:00', '2026-03-01T09:59:59.999999Z', '0001-01-01T00:00:00Z'];
  it('orders any two times as their epoch microseconds do', () => {
    for (const a of times) for (const b of times) expect(isLater(a, b), `${a} > ${b}`).toBe(epochMicros(a) > epochMicros(b));
  });
  it('gives the UTC day a Date gives, with an offset or without', () => {
    for (const at of times) expect(utcDayOf(at), at).toBe(new Date(Date.parse(at)).toISOString().slice(0, 10));
    expect(utcDayOf('2026-03-02T01:30:00+02:00')).toBe('2026-03-01');
    expect(utcDayOf('2026-03-01T10:00:00.5Z')).toBe('2026-03-01');
  });
});

describe('a consumer with its sessions\' counters in memory', () => {
  it('writes heartbeats at once and their sessions\' rows only when applied, then exactly as the write of every flush does', async () => {
    const base = Date.now() - 3 * 86_400_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const [a, b] = [randomUUID(), randomUUID()];
    const counters = new SessionCounters();
    expect(await writeBatches(t.db, batch([start(a, at(0)), start(b, at(1))]), undefined, counters)).toEqual({ written: 2, duplicates: 0 });
    const beats = [hb(a, at(10), 9, 3000), hb(b, at(11), 10, 5000, 1, 700), hb(a, at(20), 19, 4000, 2, 2100)];
    expect(await writeBatches(t.db, batch(beats), undefined, counters)).toEqual({ written: 3, duplicates: 0 });
    // The heartbeats are stored; the rows are not updated yet: two sessions are owed.
    const [stored] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM player_heartbeats WHERE site_id = ${site.id}::uuid AND session_id IN (${a}::uuid, ${b}::uuid)`);
    expect(stored!.n).toBe(3);
    expect((await rows([a, b])).map((r) => r.heartbeat_count)).toEqual([0, 0]);
    expect(counters.pendingSessions).toBe(2);
    expect(await applySessionCounters(t.db, counters)).toBe(2);
    expect(counters.pendingSessions).toBe(0);
    expect(await applySessionCounters(t.db, counters)).toBe(0);
    expect(await rows([a, b])).toEqual([
      { started_at: expect.any(String), last_event_at: expect.any(String), ended_at: null, watched_seconds: 19, rebuffer_count: 2, rebuffer_seconds: 2,
        avg_bitrate_kbps: 3500, heartbeat_count: 2, bitrate_kbps_sum: 7000, error_code: null },
      { started_at: expect.any(String), last_event_at: expect.any(String), ended_at: null, watched_seconds: 10, rebuffer_count: 1, rebuffer_seconds: 0,
        avg_bitrate_kbps: 5000, heartbeat_count: 1, bitrate_kbps_sum: 5000, error_code: null },
    ]);
    const [last] = await queryRows<{ a: boolean }>(t.db, sql`SELECT last_event_at = ${at(20)}::timestamptz AS a FROM playback_sessions WHERE site_id = ${site.id}::uuid AND id = ${a}::uuid`);
    expect(last!.a).toBe(true);
  });

  it('counts a session again from its stored heartbeats when they come again after a crash lost what its row was owed', async () => {
    const base = Date.now() - 3 * 86_400_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const s = randomUUID();
    const first = new SessionCounters();
    await writeBatches(t.db, batch([start(s, at(0))]), undefined, first);
    const beats = [hb(s, at(10), 9, 3000), hb(s, at(20), 19, 5000, 1, 1200)];
    await writeBatches(t.db, batch(beats), undefined, first);
    // The process dies: `first` is lost, its messages come again to the next owner.
    const next = new SessionCounters();
    expect(await writeBatches(t.db, batch(beats), undefined, next)).toEqual({ written: 0, duplicates: 2 });
    // Counted again at once (in the write), so nothing is owed.
    expect(next.pendingSessions).toBe(0);
    const [row] = await rows([s]);
    expect(row).toMatchObject({ watched_seconds: 19, rebuffer_count: 1, rebuffer_seconds: 1, heartbeat_count: 2, bitrate_kbps_sum: 8000, avg_bitrate_kbps: 4000 });
    // A new heartbeat after that is owed and added once.
    await writeBatches(t.db, batch([hb(s, at(30), 29, 2000, 1, 1200)]), undefined, next);
    expect(next.pendingSessions).toBe(1);
    await applySessionCounters(t.db, next);
    expect((await rows([s]))[0]).toMatchObject({ watched_seconds: 29, heartbeat_count: 3, bitrate_kbps_sum: 10000, avg_bitrate_kbps: 3333 });
  });

  it('counts a session again, not twice, when another consumer ended it while its row was owed heartbeats (a handover)', async () => {
    const base = Date.now() - 3 * 86_400_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const s = randomUUID();
    const mine = new SessionCounters();
    await writeBatches(t.db, batch([start(s, at(0))]), undefined, mine);
    await writeBatches(t.db, batch([hb(s, at(10), 9, 3000), hb(s, at(20), 19, 5000)]), undefined, mine);
    // The other consumer (counters of its own) ends it: its end counts every stored heartbeat.
    await writeBatches(t.db, batch([end(s, at(25), 24)]), undefined, new SessionCounters());
    expect((await rows([s]))[0]).toMatchObject({ heartbeat_count: 2, bitrate_kbps_sum: 8000, watched_seconds: 24 });
    // What `mine` still owes is not added on top: the row's end is not the one it counted against.
    expect(await applySessionCounters(t.db, mine)).toBe(1);
    expect((await rows([s]))[0]).toMatchObject({ heartbeat_count: 2, bitrate_kbps_sum: 8000, watched_seconds: 24, avg_bitrate_kbps: 4000 });
  });

  it('leaves every row as the write of every flush does, through crashes, ends, repeats and a second writer (seeded trials)', async () => {
    for (let trial = 0; trial < 8; trial += 1) {
      let seed = 977 + trial * 131;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed / 2_147_483_648;
      };
      const pick = <T,>(items: T[]) => items[Math.floor(random() * items.length)]!;
      const base = Date.now() - 2 * 86_400_000 - trial * 3_600_000;
      // Times with microseconds, some only a microsecond apart.
      const at = (ms: number, micros: number) => `${new Date(base + ms).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
      // One plan of events per session, played on two twins: the reference (no counters) and the one under test.
      const sessions = Array.from({ length: 6 }, (_, n) => {
        const events: { kind: 'start' | 'hb' | 'end'; at: string; watched: number; bitrate: number; rebuffers: number }[] = [{ kind: 'start', at: at(n * 1000, 0), watched: 0, bitrate: 0, rebuffers: 0 }];
        for (let k = 1; k <= 6; k += 1) events.push({ kind: 'hb', at: at(n * 1000 + k * 10_000, k === 3 ? 1 : 0), watched: 9 * k + Math.floor(random() * 3), bitrate: 1000 + 500 * Math.floor(random() * 6), rebuffers: Math.floor(random() * 3) });
        if (random() < 0.6) events.push({ kind: 'end', at: at(n * 1000 + Math.floor(10_000 * (1 + random() * 7)), 0), watched: 40, bitrate: random() < 0.5 ? 2200 : 0, rebuffers: 1 });
        return events;
      });
      const twins = ['reference', 'counted'].map(() => {
        const ids = sessions.map(() => randomUUID());
        const events = sessions.map((plan, n) => plan.map((e) => (e.kind === 'start' ? start(ids[n]!, e.at)
          : e.kind === 'hb' ? hb(ids[n]!, e.at, e.watched, e.bitrate, e.rebuffers, e.rebuffers * 700) : end(ids[n]!, e.at, e.watched, e.bitrate || undefined))));
        return { ids, events };
      });
      // The batches (indexes into each session's plan): the starts first, then the rest shuffled into batches of 1-5, some of them again.
      const rest = sessions.flatMap((plan, n) => plan.slice(1).map((_, k) => [n, k + 1] as const));
      for (let i = rest.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [rest[i], rest[j]] = [rest[j]!, rest[i]!];
      }
      const plan: (readonly [number, number])[][] = [sessions.map((_, n) => [n, 0] as const)];
      for (let i = 0; i < rest.length;) {
        const size = 1 + Math.floor(random() * 5);
        plan.push(rest.slice(i, i + size));
        i += size;
        if (random() < 0.2) plan.push(pick(plan));
      }
      const events = (twin: number, cut: (readonly [number, number])[]) => cut.map(([n, k]) => twins[twin]!.events[n]![k]!);

      for (const cut of plan) await writeBatches(t.db, batch(events(0, cut)));

      let counters = new SessionCounters();
      // Batches written since the last apply: a crash delivers them again.
      let unacknowledged: (readonly [number, number])[][] = [];
      for (const cut of plan) {
        const roll = random();
        if (roll < 0.15) {
          // A crash: the memory is lost and everything not acknowledged comes again to a new owner.
          counters = new SessionCounters();
          for (const again of unacknowledged) await writeBatches(t.db, batch(events(1, again)), undefined, counters);
        } else if (roll < 0.25) {
          // A second consumer writes this batch (a handover), with counters of its own that it applies.
          const other = new SessionCounters();
          await writeBatches(t.db, batch(events(1, cut)), undefined, other);
          await applySessionCounters(t.db, other);
          continue;
        }
        await writeBatches(t.db, batch(events(1, cut)), undefined, counters);
        unacknowledged.push(cut);
        if (random() < 0.35) {
          await applySessionCounters(t.db, counters);
          unacknowledged = [];
        }
      }
      await applySessionCounters(t.db, counters);
      expect(await rows(twins[1]!.ids), `trial ${trial}`).toEqual(await rows(twins[0]!.ids));
      // And both equal a recount from the raw rows: the heartbeats stored up to the session's end.
      for (const twin of twins) expect(await recountedFromRaw(twin.ids), `trial ${trial}`).toEqual([]);
    }
  });
});

/**
 * Issue 42: consumers add each flush's playback rollup deltas in the write transaction
 * (server/db/playback-deltas.ts) instead of a fold re-aggregating the day. The deltas must leave
 * daily_playback_rollups equal to a rebuild from the raw rows whatever the flushes hold: sessions of
 * few viewers over few titles (distinct viewers per key, against the seeded world's sessions of the
 * same day too), rebuffering that moves a session from one histogram bucket to another, errors,
 * ends that arrive late and move a session's end earlier (its values go down), and flushes written
 * twice (a redelivery). Runs on both engines (PostgreSQL: its own database from openIsolatedTestDb).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerEvent } from '../common/ingest-contract';
import type { DbHandle } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { dirtySliceCount, writeBatches } from './db/ingest-repository';
import { rebuildRollups } from './db/rollups';
import { queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, openIsolatedTestDb, type TestApp } from './test/kit';

const postgres = Boolean(process.env.DATABASE_URL);
let own: { handle: DbHandle; drop(): Promise<void> };
let t: TestApp;
let site: { id: string; subscriberIds: string[]; contentIds: string[] };

beforeAll(async () => {
  own = await openIsolatedTestDb().catch((error: unknown) => {
    throw new Error(`This test needs its database (PostgreSQL at DATABASE_URL when set): ${error instanceof Error ? error.message : String(error)}`);
  });
  t = await createTestApp({ demo: true, db: own.handle, ingest: { fold: false, consumers: 0 } });
  await seedSmallWorld(t.db);
  const { id } = await t.siteByName(DEMO_SITES.viewlift);
  // Viewers who have sessions in the seeded world, so "already a viewer of this key today" is met too.
  const viewers = await queryRows<{ id: string }>(t.db, sql`
    SELECT s.id FROM subscribers s WHERE s.site_id = ${id} ORDER BY (SELECT count(*) FROM playback_sessions p WHERE p.subscriber_id = s.id) DESC, s.id LIMIT 3`);
  const items = await queryRows<{ id: string }>(t.db, sql`SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'video' ORDER BY title LIMIT 3`);
  site = { id, subscriberIds: viewers.map((r) => r.id), contentIds: items.map((r) => r.id) };
  expect(site.subscriberIds.length).toBe(3);
  expect(site.contentIds.length).toBe(3);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Sessions of today and of two days ago: starts (with a first heartbeat) first, then everything else in shuffled flushes. */
function generate(seed: number): { first: PlayerEvent[]; rest: PlayerEvent[] } {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const first: PlayerEvent[] = [];
  const rest: PlayerEvent[] = [];
  for (let i = 0; i < 40; i += 1) {
    const sessionId = randomUUID();
    const start = Date.now() - (i % 4 === 0 ? 2 * 86_400_000 : 0) - 60 * 60_000 - Math.floor(rnd() * 3 * 60 * 60_000);
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    first.push({ type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: pick(site.subscriberIds), contentId: pick(site.contentIds),
      deviceType: pick(['roku', 'web']), country: pick(['US', 'GB']), isp: 'Delta ISP', cdn: pick(['Delta A', 'Delta B']), startupMs: Math.floor(rnd() * 9000) });
    let watched = 0;
    let rebufferMs = 0;
    let rebuffers = 0;
    const beats: PlayerEvent[] = [];
    for (let m = 1; m <= 8; m += 1) {
      watched += 40 + Math.floor(rnd() * 20);
      // Rebuffering in bursts: the ratio crosses bucket bounds as the session goes on.
      if (rnd() < 0.4) { rebuffers += 1; rebufferMs += Math.floor(rnd() * 4000); }
      beats.push({ type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(m), playheadSeconds: watched, watchedSeconds: watched, bitrateKbps: 1000 + Math.floor(rnd() * 5000), rebufferCount: rebuffers, rebufferMs });
    }
    first.push(beats.shift()!);
    rest.push(...beats);
    if (i % 3 !== 2) {
      const end: PlayerEvent = { type: 'session.end', eventId: randomUUID(), sessionId, at: at(9), watchedSeconds: watched + 10, rebufferCount: rebuffers, rebufferMs, ...(i % 5 === 0 ? { errorCode: 'E_DELTA' } : {}) };
      rest.push(end);
      // A late end that moves the session's end earlier: its counters are taken again from fewer heartbeats.
      if (i % 6 === 0) rest.push({ type: 'session.end', eventId: randomUUID(), sessionId, at: at(4), watchedSeconds: 100, rebufferCount: 0, rebufferMs: 0 });
    }
  }
  for (let i = rest.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rnd() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return { first, rest };
}

const rollups = () => queryRows(t.db, sql`
  SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count, rebuffer_seconds, error_sessions,
    bitrate_kbps_sum, startup_histogram::text, rebuffer_histogram::text
  FROM daily_playback_rollups WHERE site_id = ${site.id} ORDER BY 1, 2, 3, 4`);

describe(`playback rollup deltas of the consumers (issue 42; ${postgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('equal a rebuild from the raw rows after flushes of any size and order, redeliveries, late ends and bucket moves; no slice left for the fold', async () => {
    const { first, rest } = generate(42);
    await writeBatches(t.db, [{ siteId: site.id, events: first }]);
    const rnd = random(7);
    for (let i = 0; i < rest.length;) {
      const size = 1 + Math.floor(rnd() * 60);
      const flush = rest.slice(i, i + size);
      // Two batches per flush, like a group of messages; some flushes are written twice (delivered again).
      const batches = [{ siteId: site.id, events: flush.slice(0, size >> 1) }, { siteId: site.id, events: flush.slice(size >> 1) }].filter((b) => b.events.length > 0);
      await writeBatches(t.db, batches);
      if (rnd() < 0.25) expect((await writeBatches(t.db, batches)).written).toBe(0);
      i += size;
    }
    expect(await dirtySliceCount(t.db)).toBe(0);
    const stored = await rollups();
    await rebuildRollups(t.db, { siteId: site.id });
    expect(stored).toEqual(await rollups());
    // What the run must have exercised: repeat viewers of one key, errors, and sessions in more than one rebuffer bucket.
    const mine = await queryRows<{ sessions: number; viewers: number; error_sessions: number; rebuffer_histogram: number[] }>(t.db, sql`
      SELECT sessions, viewers, error_sessions, rebuffer_histogram FROM daily_playback_rollups
      WHERE site_id = ${site.id} AND dimension = 'cdn' AND dim_key IN ('Delta A', 'Delta B')`);
    expect(mine.reduce((n, r) => n + r.sessions, 0)).toBe(40);
    expect(mine.some((r) => r.viewers < r.sessions)).toBe(true);
    expect(mine.reduce((n, r) => n + r.error_sessions, 0)).toBeGreaterThan(0);
    expect(mine.some((r) => r.rebuffer_histogram.filter((n) => n > 0).length > 1)).toBe(true);
  }, 120_000);
});

/**
 * Issue 37, item 1: an accepted event is never dropped. A batch whose session start is not written
 * waits as long as the start can still arrive (while any message stored before it is unsettled, as
 * when a dead consumer holds the start until its ack wait), however many deliveries that takes; what
 * truly cannot be placed goes to ingest_dead_letters with its reason and payload, the rest of its
 * batch is written, and Dashboard 360 readers see the counts per reason
 * (GET /appcms/v2/ingest/dead-letters). Runs on PGlite and on PostgreSQL, over the memory queue
 * (the same consumer code as JetStream's; server/ingest-kill.test.ts runs it over JetStream with a
 * consumer process killed).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_DEAD_LETTER_REASONS, INGEST_DEAD_LETTERS_PATH, type IngestDeadLetterCounts, type PlayerEvent } from '../common/ingest-contract';
import { DEMO_SITES } from './db/demo-accounts';
import { queryRows, seedSmallWorld } from './db/seed-world';
import { loadIngestConfig, startIngestPipeline, type IngestConfig } from './domain/ingest-pipeline';
import { createIngestStore } from './db/stores';
import { createMemoryQueue, type IngestQueue } from './domain/ingest-queue';
import { createTestApp, firstSubscriberAndVideo, type Session, type SitePlayer, type TestApp } from './test/kit';

let t: TestApp;
let site: SitePlayer;
let otherSiteId: string;
let reader: Session;
let stranger: Session;
const logged: { obj: unknown; msg?: string }[] = [];
const log = { warn: () => undefined, error: (obj: unknown, msg?: string) => { logged.push({ obj, msg }); } };

/** Five days ago: a day the other test files do not compare rollups of. */
const BASE = Date.now() - 5 * 86_400_000 + 7 * 3_600_000;
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

const start = (sessionId: string, minutes = 0, subscriberId = site.subscriberId): PlayerEvent => ({
  type: 'session.start', eventId: randomUUID(), sessionId, at: at(minutes), subscriberId, contentId: site.contentId,
  deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Fastly', startupMs: 800,
});
const beat = (sessionId: string, minutes: number, watched: number): PlayerEvent => ({
  type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(minutes), playheadSeconds: watched, watchedSeconds: watched, bitrateKbps: 3000, rebufferCount: 0, rebufferMs: 0,
});

const config = (overrides: Partial<IngestConfig> = {}): IngestConfig => ({
  ...loadIngestConfig({}), consumers: 1, fold: false, maintenanceIntervalMs: 3_600_000, ...overrides,
});

async function sessionRow(sessionId: string) {
  const [row] = await queryRows<{ heartbeats: number; watched: number }>(t.db, sql`
    SELECT heartbeat_count AS heartbeats, watched_seconds AS watched FROM playback_sessions WHERE site_id = ${site.id} AND id = ${sessionId}`);
  return row ?? null;
}

async function deadLetters(eventIds: string[]) {
  return queryRows<{ event_id: string; reason: string; detail: string; payload: PlayerEvent }>(t.db, sql`
    SELECT event_id, reason, detail, payload FROM ingest_dead_letters
    WHERE site_id = ${site.id} AND event_id IN (SELECT value FROM json_array_elements_text(${JSON.stringify(eventIds)}::json))
    ORDER BY event_id`);
}

beforeAll(async () => {
  t = await createTestApp({ demo: true, ingest: { consumers: 0, fold: false } });
  await seedSmallWorld(t.db);
  otherSiteId = (await t.siteByName(DEMO_SITES.northwind)).id;
  site = await firstSubscriberAndVideo(t, DEMO_SITES.viewlift);
  reader = await t.login((await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Dashboard 360': 'read' }, prefix: 'dl-reader' })).username);
  stranger = await t.login((await t.createUser({ site: DEMO_SITES.viewlift, roles: { 'Customer Support': 'write' }, prefix: 'dl-support' })).username);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('a batch whose session start is not written yet', () => {
  it('waits while the message holding its start is out with a consumer (any number of deliveries, past the grace), then is written whole when the start comes back', async () => {
    const queue: IngestQueue = createMemoryQueue();
    const sessionId = randomUUID();
    const first = [start(sessionId)];
    const second = [beat(sessionId, 1, 55), beat(sessionId, 2, 110)];
    await queue.publish({ siteId: site.id, events: first }, randomUUID());
    await queue.publish({ siteId: site.id, events: second }, randomUUID());
    // A consumer that dies with the start in hand: it is settled by nobody until it is delivered again.
    const [held] = await queue.fetch(1, 10);
    expect(held!.batch!.events).toEqual(first);
    // Every delivery looks like the thousandth: no count of tries gives the batch up.
    const worn: IngestQueue = { ...queue, fetch: async (max, waitMs) => (await queue.fetch(max, waitMs)).map((m) => ({ ...m, deliveries: m.deliveries + 1000 })) };
    const pipeline = await startIngestPipeline({ store: createIngestStore(t.db), log, config: config({ startGraceMs: 0 }), queue: worn });
    try {
      // 3 s: redelivered again and again (every 2 s at most) and far past the grace.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await sessionRow(sessionId)).toBeNull();
      expect(await deadLetters(second.map((e) => e.eventId))).toEqual([]);
      expect(await queue.outstanding()).toBe(2);
      // The dead consumer's message comes back (the ack wait).
      held!.nak(0);
      await pipeline.drain(20_000);
      expect(await sessionRow(sessionId)).toEqual({ heartbeats: 2, watched: 110 });
      expect(await deadLetters(second.map((e) => e.eventId))).toEqual([]);
      expect(pipeline.stats()).toMatchObject({ written: 3, deadLettered: 0 });
    } finally {
      await pipeline.close();
    }
  });

  it('goes to the dead letters, with its reason and payload, once every earlier message is written and the start is still nowhere; the rest of its batch is written', async () => {
    const queue = createMemoryQueue();
    const placed = randomUUID();
    const orphan = randomUUID();
    // Heartbeats of a session whose start never reached the queue (the producer does not look sessions up, issue 42).
    const batch = [start(placed), beat(placed, 1, 60), beat(orphan, 1, 30), beat(orphan, 2, 90)];
    await queue.publish({ siteId: site.id, events: batch }, randomUUID());
    const errorsBefore = logged.length;
    const pipeline = await startIngestPipeline({ store: createIngestStore(t.db), log, config: config({ startGraceMs: 300 }), queue });
    try {
      await pipeline.drain(20_000);
    } finally {
      await pipeline.close();
    }
    expect(await sessionRow(placed)).toEqual({ heartbeats: 1, watched: 60 });
    expect(await sessionRow(orphan)).toBeNull();
    const dead = await deadLetters(batch.map((e) => e.eventId));
    expect(dead).toEqual([batch[2]!, batch[3]!].map((e) => ({
      event_id: e.eventId, reason: 'session-start-missing', payload: e,
      detail: expect.stringContaining(`No session.start of session ${orphan} was written`),
    })).sort((a, b) => (a.event_id < b.event_id ? -1 : 1)));
    // Counted in the log.
    expect(logged.slice(errorsBefore)).toContainEqual({
      obj: expect.objectContaining({ events: 2, added: 2, byReason: { 'session-start-missing': 2 } }),
      msg: 'accepted events could not be placed: kept in ingest_dead_letters',
    });
  });

  it('keeps a start whose subscriber is gone, and its session\'s events of the same write, as dead letters (subscriber-missing)', async () => {
    const queue = createMemoryQueue();
    const sessionId = randomUUID();
    const batch = [start(sessionId, 0, randomUUID()), beat(sessionId, 1, 40)];
    await queue.publish({ siteId: site.id, events: batch }, randomUUID());
    const pipeline = await startIngestPipeline({ store: createIngestStore(t.db), log, config: config(), queue });
    try {
      await pipeline.drain(20_000);
    } finally {
      await pipeline.close();
    }
    expect(await sessionRow(sessionId)).toBeNull();
    expect((await deadLetters(batch.map((e) => e.eventId))).map((d) => [d.reason, d.payload])).toEqual(
      [...batch].sort((a, b) => (a.eventId < b.eventId ? -1 : 1)).map((e) => ['subscriber-missing', e]),
    );
  });
});

describe('a start naming a title or a network the site does not have (issue 42: checked by the consumers, not on the request path)', () => {
  it('is kept with its session\'s events of the same write as dead letters (content-missing, network-missing); the rest of the batch is written', async () => {
    const [other] = await queryRows<{ content_id: string; network_id: string }>(t.db, sql`
      SELECT (SELECT id FROM content_items WHERE site_id = ${otherSiteId} ORDER BY title LIMIT 1) AS content_id,
             (SELECT id FROM networks WHERE site_id = ${otherSiteId} LIMIT 1) AS network_id`);
    const queue = createMemoryQueue();
    const [noTitle, noNetwork, placed] = [randomUUID(), randomUUID(), randomUUID()];
    const titleLost = [{ ...start(noTitle), contentId: other!.content_id }, beat(noTitle, 1, 40)];
    const networkLost = [{ ...start(noNetwork), networkId: other!.network_id }, beat(noNetwork, 1, 50)];
    await queue.publish({ siteId: site.id, events: [...titleLost, ...networkLost, start(placed), beat(placed, 1, 60)] }, randomUUID());
    const pipeline = await startIngestPipeline({ store: createIngestStore(t.db), log, config: config(), queue });
    try {
      await pipeline.drain(20_000);
    } finally {
      await pipeline.close();
    }
    expect(await sessionRow(noTitle)).toBeNull();
    expect(await sessionRow(noNetwork)).toBeNull();
    expect(await sessionRow(placed)).toEqual({ heartbeats: 1, watched: 60 });
    const byId = (events: PlayerEvent[]) => [...events].sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
    expect((await deadLetters(titleLost.map((e) => e.eventId))).map((d) => [d.reason, d.payload])).toEqual(byId(titleLost).map((e) => ['content-missing', e]));
    expect((await deadLetters(networkLost.map((e) => e.eventId))).map((d) => [d.reason, d.payload])).toEqual(byId(networkLost).map((e) => ['network-missing', e]));
    expect((await deadLetters([titleLost[0]!.eventId]))[0]!.detail).toBe(`Session ${noTitle} could not be written: content ${other!.content_id} is not a content item of this site.`);
  });
});

describe(`GET ${INGEST_DEAD_LETTERS_PATH}`, () => {
  it('gives Dashboard 360 readers the counts of their own site per reason; 401 without a session, 403 without the role', async () => {
    await t.db.execute(sql`INSERT INTO ingest_dead_letters (site_id, event_id, reason, detail, payload) VALUES
      (${otherSiteId}, ${randomUUID()}, 'session-start-missing', 'other site', '{}'::jsonb)`);
    const [before] = await queryRows<{ n: number; missing: number }>(t.db, sql`
      SELECT count(*)::int AS n, (count(*) FILTER (WHERE reason = 'session-start-missing'))::int AS missing FROM ingest_dead_letters WHERE site_id = ${site.id}`);
    const res = await t.get(INGEST_DEAD_LETTERS_PATH, reader.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json<IngestDeadLetterCounts>();
    expect(body.success).toBe(true);
    expect(body.reasons.map((r) => r.reason)).toEqual([...INGEST_DEAD_LETTER_REASONS]);
    expect(body.total).toBe(before!.n);
    expect(body.total).toBeGreaterThanOrEqual(4);
    expect(body.reasons.find((r) => r.reason === 'session-start-missing')).toMatchObject({ events: before!.missing, lastAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect(body.reasons.find((r) => r.reason === 'unreadable-message')).toEqual({ reason: 'unreadable-message', events: 0, lastAt: null });

    expect((await t.get(INGEST_DEAD_LETTERS_PATH)).statusCode).toBe(401);
    const refused = await t.get(INGEST_DEAD_LETTERS_PATH, stranger.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, message: expect.any(String) });
  });
});

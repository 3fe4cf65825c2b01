/**
 * Issue 41: the dimensions a playback session is recorded with. session.start's optional fields
 * land on the session row (and the title's series with the plan, fixed at the start); today's
 * senders keep working ('' = not reported, 'vod'); bad values are refused naming the field. The
 * demo world and the simulator give every dimension a value consistent with the device, with a bad
 * release, bad ISPs and a CDN's bad evenings to find.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INGEST_KEY_HEADER, INGEST_PATH, PLAYER_DIMENSION_FIELDS, PLAYER_HOST_MAX, PLAYER_TEXT_MAX,
  type IngestRefused, type PlayerEvent, type SessionStartEvent,
} from '../common/ingest-contract';
import { QOE_CONSOLE_PLAYER, QOE_DIMENSIONS, QOE_STREAM_TYPES } from '../common/qoe';
import { createPlayers } from '../scripts/player-sim';
import { DEMO_SITES } from './db/demo-accounts';
import { demoIngestionKey, generateSiteWorld, queryRows, seedSmallWorld } from './db/seed-world';
import { APP_RELEASES, BAD_RELEASE, CDN_INCIDENTS, REGIONS } from './demo/player-dimensions';
import { createTestApp, openIsolatedTestDb, type TestApp } from './test/kit';

let t: TestApp;
// A database of its own (on PostgreSQL the files otherwise share one): the world's checks read every
// session of the site, and other files add sessions of their own without the dimensions.
let ownDb: Awaited<ReturnType<typeof openIsolatedTestDb>>;
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
let site: { id: string; subscriberId: string; planId: string | null; episodeId: string; seriesId: string; filmId: string };

const send = (events: unknown) => t.post(INGEST_PATH, { events }, headers);
const drain = () => t.app.ingest.drain();

function start(contentId: string, extra: Partial<SessionStartEvent> = {}): SessionStartEvent {
  return {
    type: 'session.start', eventId: randomUUID(), sessionId: randomUUID(), at: new Date(Date.now() - 10 * 60_000).toISOString(),
    subscriberId: site.subscriberId, contentId, deviceType: 'android', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 900, ...extra,
  };
}

const DIMENSION_COLUMNS = sql`os, os_version, browser, player_name, player_version, app_version, region, stream_type, source_host, series_id::text, plan_id::text`;

beforeAll(async () => {
  ownDb = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: ownDb.handle });
  await seedSmallWorld(t.db);
  const { id } = await t.siteByName(DEMO_SITES.viewlift);
  // A viewer with a subscription (the plan fixed at the start), an episode of a series and a film.
  const [row] = await queryRows<{ subscriber_id: string; plan_id: string | null; episode_id: string; series_id: string; film_id: string }>(t.db, sql`
    SELECT x.subscriber_id, x.plan_id::text,
      (SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'episode' AND status = 'published' ORDER BY title LIMIT 1) AS episode_id,
      (SELECT series_id::text FROM content_items WHERE site_id = ${id} AND kind = 'episode' AND status = 'published' ORDER BY title LIMIT 1) AS series_id,
      (SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'video' ORDER BY title LIMIT 1) AS film_id
    FROM (SELECT s.id AS subscriber_id, sub.plan_id FROM subscribers s JOIN subscriptions sub ON sub.subscriber_id = s.id
      WHERE s.site_id = ${id} AND sub.started_at < now() - interval '1 day' ORDER BY sub.started_at DESC LIMIT 1) x`);
  site = { id, subscriberId: row!.subscriber_id, planId: row!.plan_id, episodeId: row!.episode_id, seriesId: row!.series_id, filmId: row!.film_id };
}, 180_000);

afterAll(async () => {
  await t?.close();
  await ownDb?.drop();
});

describe('session.start with the dimensions of issue 41', () => {
  it('writes every field on the session row, with the title\'s series and the plan fixed at the start', async () => {
    const event = start(site.episodeId, {
      os: 'Android', osVersion: '14', browser: '', playerName: 'ExoPlayer', playerVersion: '1.3.1', appVersion: '5.4.0',
      region: 'California', streamType: 'live', sourceHost: 'live-viewlift-demo.akamaized.net',
    });
    expect(PLAYER_DIMENSION_FIELDS.every((field) => field in event)).toBe(true);
    const res = await send([event]);
    expect(res.statusCode).toBe(202);
    await drain();
    const [row] = await queryRows(t.db, sql`SELECT ${DIMENSION_COLUMNS} FROM playback_sessions WHERE id = ${event.sessionId}`);
    expect(row).toEqual({
      os: 'Android', os_version: '14', browser: '', player_name: 'ExoPlayer', player_version: '1.3.1', app_version: '5.4.0',
      region: 'California', stream_type: 'live', source_host: 'live-viewlift-demo.akamaized.net', series_id: site.seriesId, plan_id: site.planId,
    });
    expect(site.seriesId).toMatch(/^[0-9a-f-]{36}$/);
    expect(site.planId).not.toBeNull();
  });

  it('takes today\'s senders\' events unchanged: nothing reported is \'\', the stream type \'vod\', a film has no series', async () => {
    const event = start(site.filmId);
    const session: PlayerEvent[] = [
      event,
      { type: 'heartbeat', eventId: randomUUID(), sessionId: event.sessionId, at: new Date(Date.parse(event.at) + 60_000).toISOString(), playheadSeconds: 60, watchedSeconds: 60, bitrateKbps: 3000, rebufferCount: 0, rebufferMs: 0 },
      { type: 'session.end', eventId: randomUUID(), sessionId: event.sessionId, at: new Date(Date.parse(event.at) + 90_000).toISOString(), watchedSeconds: 90, rebufferCount: 0, rebufferMs: 0 },
    ];
    expect((await send(session)).statusCode).toBe(202);
    await drain();
    const [row] = await queryRows(t.db, sql`SELECT ${DIMENSION_COLUMNS}, watched_seconds FROM playback_sessions WHERE id = ${event.sessionId}`);
    expect(row).toEqual({
      os: '', os_version: '', browser: '', player_name: '', player_version: '', app_version: '', region: '', stream_type: 'vod', source_host: '',
      series_id: null, plan_id: site.planId, watched_seconds: 90,
    });
  });

  it('writes a batch of starts of several titles in one go, each with its own values', async () => {
    const events = Array.from({ length: 6 }, (_, i) => start(i % 2 === 0 ? site.episodeId : site.filmId, {
      os: i % 2 === 0 ? 'iOS' : 'Windows', osVersion: `${17 + i}`, browser: i % 2 === 0 ? '' : 'Chrome', appVersion: `5.4.${i}`, streamType: i % 3 === 0 ? 'live' : 'vod',
    }));
    expect((await send(events)).statusCode).toBe(202);
    await drain();
    const rows = await queryRows<{ id: string; os: string; os_version: string; browser: string; app_version: string; stream_type: string; series_id: string | null }>(t.db, sql`
      SELECT id::text, os, os_version, browser, app_version, stream_type, series_id::text FROM playback_sessions
      WHERE id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(events.map((e) => e.sessionId))}::json))`);
    expect(rows.map((r) => ({ ...r, id: r.id.toLowerCase() })).sort((a, b) => events.findIndex((e) => e.sessionId === a.id) - events.findIndex((e) => e.sessionId === b.id)))
      .toEqual(events.map((e, i) => ({
        id: e.sessionId, os: e.os, os_version: e.osVersion, browser: e.browser, app_version: e.appVersion, stream_type: e.streamType,
        series_id: i % 2 === 0 ? site.seriesId : null,
      })));
  });

  it('refuses bad values with a message naming the event and the field, and writes nothing of the batch', async () => {
    const good = start(site.filmId, { os: 'iOS' });
    const long = 'x'.repeat(PLAYER_TEXT_MAX + 1);
    const cases: [Record<string, unknown>, string][] = [
      [{ streamType: 'podcast' }, 'streamType'],
      [{ streamType: 'VOD' }, 'streamType'],
      [{ os: long }, 'os'],
      [{ osVersion: 17 }, 'osVersion'],
      [{ browser: null }, 'browser'],
      [{ playerName: long }, 'playerName'],
      [{ playerVersion: ['1'] }, 'playerVersion'],
      [{ appVersion: long }, 'appVersion'],
      [{ region: { name: 'Texas' } }, 'region'],
      [{ sourceHost: 'h'.repeat(PLAYER_HOST_MAX + 1) }, 'sourceHost'],
      [{ seriesId: randomUUID() }, 'seriesId'],
      [{ plan: 'basic' }, 'plan'],
    ];
    const events = [good, ...cases.map(([patch]) => ({ ...start(site.filmId), ...patch }))];
    const res = await send(events);
    expect(res.statusCode).toBe(400);
    const body = res.json<IngestRefused>();
    expect(body.errors.map((e) => e.index)).toEqual(cases.map((_, i) => i + 1));
    body.errors.forEach((error, i) => expect(error.message.startsWith(`events[${i + 1}].${cases[i]![1]} `), error.message).toBe(true));
    expect(body.errors[0]!.message).toBe('events[1].streamType must be equal to one of the allowed values.');
    expect(body.errors[2]!.message).toBe(`events[3].os must NOT have more than ${PLAYER_TEXT_MAX} characters.`);
    expect(body.errors[10]!.message).toBe('events[11].seriesId is not allowed.');
    await drain();
    const [row] = await queryRows<{ n: number }>(t.db, sql`
      SELECT count(*)::int AS n FROM playback_sessions
      WHERE id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(events.map((e) => e.sessionId))}::json))`);
    expect(row!.n).toBe(0);
  });

  it('accepts the longest values allowed', async () => {
    const event = start(site.filmId, { os: 'o'.repeat(PLAYER_TEXT_MAX), region: 'r'.repeat(PLAYER_TEXT_MAX), sourceHost: 'h'.repeat(PLAYER_HOST_MAX) });
    expect((await send([event])).statusCode).toBe(202);
    await drain();
    const [row] = await queryRows<{ os: string; source_host: string }>(t.db, sql`SELECT os, source_host FROM playback_sessions WHERE id = ${event.sessionId}`);
    expect(row).toEqual({ os: event.os, source_host: event.sourceHost });
  });
});

describe('the demo world\'s dimensions', () => {
  it('gives every session every dimension, consistent with its device, its title and its viewer', async () => {
    const rows = await queryRows<Record<string, string | null> & { n: number }>(t.db, sql`
      SELECT p.device_type, p.os, p.browser, p.player_name, p.stream_type,
        count(*)::int AS n,
        count(*) FILTER (WHERE p.os_version = '' OR p.player_version = '' OR p.app_version = '' OR p.region = '' OR p.source_host = '')::int AS missing,
        count(*) FILTER (WHERE p.series_id IS DISTINCT FROM c.series_id)::int AS wrong_series,
        count(*) FILTER (WHERE (c.kind = 'live') <> (p.stream_type = 'live'))::int AS wrong_stream
      FROM playback_sessions p JOIN content_items c ON c.id = p.content_id
      WHERE p.site_id = ${site.id} AND p.started_at < now() - interval '1 hour'
      GROUP BY 1, 2, 3, 4, 5`);
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      const where = JSON.stringify(r);
      expect([r.missing, r.wrong_series, r.wrong_stream], where).toEqual([0, 0, 0]);
      expect(QOE_STREAM_TYPES, where).toContain(r.stream_type);
      // Browsers are the web's; native apps report none.
      expect(r.browser === '', where).toBe(r.device_type !== 'web');
      const expected: Record<string, [string[], string[]]> = {
        web: [['Windows', 'macOS', 'Ubuntu', 'ChromeOS'], ['hls.js', 'Shaka Player', 'Video.js']],
        ios: [['iOS'], ['AVPlayer']], android: [['Android'], ['ExoPlayer']], roku: [['Roku OS'], ['Roku Video Player']],
        firetv: [['Fire OS'], ['ExoPlayer']], appletv: [['tvOS'], ['AVPlayer']], smarttv: [['Tizen', 'webOS'], ['AVPlay', 'Shaka Player']],
      };
      const [systems, players] = expected[r.device_type!]!;
      expect(systems, where).toContain(r.os);
      expect(players, where).toContain(r.player_name);
      if (r.browser === 'Safari') expect(r.os, where).toBe('macOS');
      if (r.browser === 'Edge') expect(r.os, where).toBe('Windows');
    }
    const devices = new Set(rows.map((r) => r.device_type));
    expect([...devices].sort()).toEqual(Object.keys(APP_RELEASES).sort());
    // Every dimension of the contract has more than one value somewhere in the world.
    for (const { column } of QOE_DIMENSIONS) {
      const [count] = await queryRows<{ n: number }>(t.db, sql`
        SELECT count(DISTINCT ${sql.raw(column)})::int AS n FROM playback_sessions WHERE site_id = ${site.id} AND ${sql.raw(column)} IS NOT NULL`);
      expect(count!.n, column).toBeGreaterThan(1);
    }
    // Regions are those of the viewer's country.
    const regions = await queryRows<{ country: string; region: string }>(t.db, sql`
      SELECT DISTINCT country, region FROM playback_sessions WHERE site_id = ${site.id} AND started_at < now() - interval '1 hour'`);
    for (const { country, region } of regions) expect(REGIONS[country]?.map(([name]) => name) ?? [], `${country} ${region}`).toContain(region);
  });

  it('the viewers\' devices show the system and app their sessions report', async () => {
    const [row] = await queryRows<{ n: number; mismatched: number }>(t.db, sql`
      SELECT count(*)::int AS n,
        count(*) FILTER (WHERE d.os NOT LIKE '%' || p.os || ' ' || p.os_version)::int AS mismatched
      FROM playback_sessions p JOIN subscriber_devices d ON d.id = p.device_id
      WHERE p.site_id = ${site.id}`);
    expect(row!.n).toBeGreaterThan(0);
    expect(row!.mismatched).toBe(0);
  });

  it('has a bad release, congested ISPs and a CDN\'s bad evenings that stand out (the full-size world)', () => {
    const now = new Date('2026-12-06T12:00:00Z');
    const world = generateSiteWorld({
      id: randomUUID(), internalName: DEMO_SITES.viewlift,
      networks: [{ id: randomUUID(), identifier: 'main', isDefault: true, isActive: true }],
    }, { now });
    const sessions = world.playback_sessions;
    const errorShare = (rows: typeof sessions) => rows.filter((r) => r.error_code).length / Math.max(1, rows.length);
    const rebuffers = (rows: typeof sessions) => rows.reduce((n, r) => n + Number(r.rebuffer_count), 0) / Math.max(1, rows.length);
    // Android sessions since the bad release came out.
    const since = now.getTime() - APP_RELEASES.android!.releases.find(([v]) => v === BAD_RELEASE.appVersion)![1] * 86_400_000;
    const android = sessions.filter((r) => r.device_type === 'android' && Date.parse(String(r.started_at)) >= since && r.ended_at !== null);
    const bad = android.filter((r) => r.app_version === BAD_RELEASE.appVersion);
    const rest = android.filter((r) => r.app_version !== BAD_RELEASE.appVersion);
    expect(bad.length).toBeGreaterThan(50);
    expect(errorShare(bad)).toBeGreaterThan(3 * errorShare(rest));
    expect(rebuffers(bad)).toBeGreaterThan(1.3 * rebuffers(rest));
    // The congested ISPs rebuffer more than the country's others.
    const us = sessions.filter((r) => r.country === 'US' && r.ended_at !== null);
    expect(rebuffers(us.filter((r) => r.isp === 'T-Mobile Home Internet'))).toBeGreaterThan(1.5 * rebuffers(us.filter((r) => r.isp === 'Verizon Fios')));
    // The CDN's bad evenings: its sessions fail far more than the same CDN's on other evenings.
    const today = Date.UTC(2026, 11, 6);
    const inIncident = (r: (typeof sessions)[number]) => CDN_INCIDENTS.some((i) => {
      const from = today - i.daysAgo * 86_400_000 + i.fromHourUtc * 3_600_000;
      const at = Date.parse(String(r.started_at));
      return r.cdn === i.cdn && at >= from && at < from + i.hours * 3_600_000;
    });
    const cdn = sessions.filter((r) => r.cdn === CDN_INCIDENTS[0].cdn && r.ended_at !== null);
    expect(errorShare(cdn.filter(inIncident))).toBeGreaterThan(5 * errorShare(cdn.filter((r) => !inIncident(r))));
    // Live and VOD, several source hosts per CDN.
    expect(new Set(sessions.map((r) => r.stream_type))).toEqual(new Set(['vod', 'live']));
    expect(new Set(sessions.map((r) => `${String(r.cdn)} ${String(r.source_host)}`)).size).toBe(6);
  });
});

describe('the simulator', () => {
  it('starts every session with the dimensions, consistent per device, and ends some with an error', () => {
    // One player per viewer: a viewer's device keeps its setup.
    const countries = ['US', 'GB', 'IN', 'BR', 'DE'];
    const deviceTypes = [['web', 'android'], ['ios', 'roku', 'smarttv'], ['firetv', 'appletv'], ['web']];
    const roster = {
      subscribers: Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), country: countries[i % countries.length]!, networkId: randomUUID(), deviceTypes: deviceTypes[i % deviceTypes.length]! })),
      content: [
        { id: randomUUID(), kind: 'video', durationSeconds: 1800, networkId: null },
        { id: randomUUID(), kind: 'live', durationSeconds: 3600, networkId: null },
      ],
    };
    const base = Date.now();
    const players = createPlayers(roster, roster.subscribers.length, 20, base, 'Viewlift Demo');
    const events: PlayerEvent[] = [];
    for (let t = base; t < base + 8 * 3_600_000; t += 10_000) events.push(...players.step(t));
    const starts = events.filter((e): e is SessionStartEvent => e.type === 'session.start');
    expect(starts.length).toBeGreaterThan(1000);
    expect(new Set(starts.map((s) => s.appVersion)).size).toBeGreaterThan(7);
    for (const s of starts) {
      for (const field of PLAYER_DIMENSION_FIELDS) if (field !== 'browser') expect(s[field], `${field} of ${JSON.stringify(s)}`).toBeTruthy();
      expect(s.browser === '', JSON.stringify(s)).toBe(s.deviceType !== 'web');
      expect(REGIONS[s.country]!.map(([r]) => r)).toContain(s.region);
      expect(s.streamType).toBe(roster.content.find((c) => c.id === s.contentId)!.kind === 'live' ? 'live' : 'vod');
      expect(s.sourceHost).toMatch(/^[a-z0-9.-]+$/);
      expect(s.playerName).not.toBe(QOE_CONSOLE_PLAYER);
    }
    // A viewer's device keeps its system and player from one session to the next.
    const setups = new Map<string, Set<string>>();
    for (const s of starts) {
      const key = `${s.subscriberId}:${s.deviceType}`;
      setups.set(key, (setups.get(key) ?? new Set()).add(`${s.os} ${s.osVersion} ${s.browser} ${s.playerName} ${s.playerVersion}`));
    }
    expect(setups.size).toBeGreaterThan(60);
    for (const [key, seen] of setups) expect(seen.size, key).toBe(1);
    const ends = events.filter((e) => e.type === 'session.end');
    const failed = ends.filter((e) => e.errorCode);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(ends.length / 4);
  });
});

/**
 * Creating content (issue 29): POST /v2.0/content for each kind with its rules, the artwork upload
 * (the brand images' checks, then the slot's ratio and smallest size), GET /v2.0/content/:id/family,
 * roles (read refused, nothing written), site isolation, validation messages by field, and the
 * revision and audit entry of a creation in the same transaction. Own database (it writes the demo site).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import {
  CONTENT_CREATE_MESSAGES as M, CONTENT_CREATE_PATHS,
  type ArtworkUploadResponse, type ContentCreateRequest, type ContentFamilyResponse, type ContentListResponse, type ContentUpdateResponse,
} from '../common/content';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, revisions } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

let t: TestApp;
let drop: () => Promise<void>;
let writer: Session;
let reader: Session;
let otherSite: Session;
let viewliftId: string;
const TOKEN = `zc${randomUUID().slice(0, 6)}`;

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toBuffer();

const create = (session: Session, body: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: CONTENT_CREATE_PATHS.create, payload: body, headers: session.headers });
const upload = (session: Session, slot: string, bytes: Buffer, type = 'image/png') =>
  t.inject({ method: 'POST', url: `${CONTENT_CREATE_PATHS.artwork}/${slot}`, payload: bytes, headers: { ...session.headers, 'content-type': type } });
const family = (session: Session, id: string) => t.get(CONTENT_CREATE_PATHS.family(id), session.headers);

const base = (over: Partial<ContentCreateRequest> = {}): ContentCreateRequest => ({
  kind: 'video', title: `${TOKEN} Harbour Lights`, genre: 'Drama', rating: 'PG-13', originalLanguage: 'en', durationSeconds: 5400, ...over,
});

async function countRows(title: string): Promise<number> {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(contentItems).where(eq(contentItems.title, title));
  return Number(row!.n);
}

beforeAll(async () => {
  const own = await openIsolatedTestDb();
  drop = own.drop;
  t = await createTestApp({ demo: true, db: own.handle });
  const [w, r, o] = await Promise.all([
    t.createUser({ roles: { Content: 'write' }, prefix: 'create-writer' }),
    t.createUser({ roles: { Content: 'read' }, prefix: 'create-reader' }),
    t.createUser({ roles: { Content: 'contributor' }, site: DEMO_SITES.northwind, prefix: 'create-other' }),
  ]);
  [writer, reader, otherSite] = await Promise.all([t.login(w.username), t.login(r.username), t.login(o.username)]);
  viewliftId = (await t.siteByName(DEMO_SITES.viewlift)).id;
});
afterAll(async () => {
  await t?.close();
  await drop?.();
});

describe('POST /v2.0/content/artwork/:slot', () => {
  it('stores a poster (2:3) and a thumbnail (16:9) re-encoded, served by the files route', async () => {
    const poster = await upload(writer, 'poster', await png(400, 600));
    expect(poster.statusCode).toBe(200);
    const answer = poster.json<ArtworkUploadResponse>();
    expect(answer).toMatchObject({ success: true, width: 400, height: 600 });
    // Issue 37: under the site's own address (files are scoped to their site).
    expect(answer.url).toMatch(/^\/v2\.0\/appcms\/files\/[0-9a-f-]{36}\/[0-9a-f]{64}\.png$/);
    const served = await t.get(answer.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const thumb = await upload(writer, 'thumbnail', await png(640, 360));
    expect(thumb.statusCode).toBe(200);
    expect(thumb.json<ArtworkUploadResponse>()).toMatchObject({ width: 640, height: 360 });
  });

  it.each([
    ['poster', 640, 360, M.artworkRatio('Poster', 2, 3, 640, 360)],
    ['thumbnail', 400, 600, M.artworkRatio('Thumbnail', 16, 9, 400, 600)],
    ['poster', 120, 180, M.artworkTooSmall('Poster', 240, 360, 120, 180)],
    ['thumbnail', 160, 90, M.artworkTooSmall('Thumbnail', 320, 180, 160, 90)],
  ])('refuses a %s of %i × %i with a message naming the rule', async (slot, width, height, message) => {
    const res = await upload(writer, slot, await png(width, height));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
  });

  it('refuses an unknown slot, an SVG, bytes that are no image and an oversized image', async () => {
    expect((await upload(writer, 'banner', await png(640, 360))).json()).toMatchObject({ success: false, message: M.artworkSlot });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600"><rect width="400" height="600"/></svg>');
    const svgRes = await upload(writer, 'poster', svg, 'application/octet-stream');
    expect(svgRes.statusCode).toBe(400);
    expect(svgRes.json()).toMatchObject({ message: M.artworkType });
    const junk = await upload(writer, 'poster', Buffer.from('not an image at all'), 'application/octet-stream');
    expect(junk.statusCode).toBe(400);
    expect(junk.json().success).toBe(false);
    const huge = await upload(writer, 'thumbnail', await png(3200, 1800));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/pixels/);
  });

  it('refuses a read role (403) and an anonymous caller (401)', async () => {
    const res = await upload(reader, 'poster', await png(400, 600));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: OWN_MESSAGES.contentNoEditRole });
    const anon = await t.inject({ method: 'POST', url: `${CONTENT_CREATE_PATHS.artwork}/poster`, payload: await png(400, 600), headers: { 'content-type': 'image/png' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('POST /v2.0/content', () => {
  it('creates a video as a draft with its catalogue fields and artwork, with one revision and one audit entry', async () => {
    const poster = (await upload(writer, 'poster', await png(400, 600))).json<ArtworkUploadResponse>().url;
    const thumbnail = (await upload(writer, 'thumbnail', await png(640, 360))).json<ArtworkUploadResponse>().url;
    const title = `${TOKEN} Video One`;
    const res = await create(writer, base({
      title: `  ${title} `, description: 'A lighthouse.', tags: ['coast', ' coast ', 'sea'], releaseDate: '2025-11-20', posterUrl: poster, thumbnailUrl: thumbnail,
    }));
    expect(res.statusCode).toBe(200);
    const { item } = res.json<ContentUpdateResponse>();
    expect(item).toMatchObject({
      kind: 'video', title, status: 'draft', genre: 'Drama', rating: 'PG-13', originalLanguage: 'en', releaseDate: '2025-11-20',
      durationSeconds: 5400, tags: ['coast', 'sea'], posterUrl: poster, artworkUrl: thumbnail, startsAt: null, version: 1,
    });
    const revs = await t.db.select().from(revisions).where(eq(revisions.objectId, item.id));
    expect(revs).toHaveLength(1);
    expect(revs[0]!.objectName).toBe(title);
    expect(revs[0]!.changes).toEqual(expect.arrayContaining([{ field: 'title', before: null, after: title }]));
    const audits = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.create'), eq(auditEvents.objectId, item.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ objectKind: 'content', objectName: title });
    // The library lists it with its thumbnail.
    const listed = (await t.get(`${API_PATHS.content}?q=${encodeURIComponent(TOKEN)}&mediaType=video&limit=100`, writer.headers)).json<ContentListResponse>();
    expect(listed.items.find((row) => row.id === item.id)).toMatchObject({ artworkUrl: thumbnail, status: 'draft' });
  });

  it('creates a live event with its start (UTC), and a series with its seasons, then episodes in a season', async () => {
    const live = await create(writer, base({ kind: 'live', title: `${TOKEN} Final`, durationSeconds: undefined, startsAt: '2026-12-01T20:30:00+01:00' }));
    expect(live.statusCode).toBe(200);
    expect(live.json<ContentUpdateResponse>().item).toMatchObject({ kind: 'live', startsAt: '2026-12-01T19:30:00.000Z', durationSeconds: 0 });

    const series = await create(writer, base({ kind: 'series', title: `${TOKEN} Saga`, durationSeconds: undefined, seasons: [{ number: 2 }, { number: 1, title: 'Beginnings' }] }));
    expect(series.statusCode).toBe(200);
    const seriesItem = series.json<ContentUpdateResponse>().item;
    expect(seriesItem.seasons).toEqual([{ number: 1, title: 'Beginnings' }, { number: 2, title: 'Season 2' }]);

    for (const n of [2, 1]) {
      const ep = await create(writer, base({ kind: 'episode', title: `${TOKEN} Saga E${n}`, durationSeconds: 1800, seriesId: seriesItem.id, seasonNumber: 1, episodeNumber: n }));
      expect(ep.statusCode).toBe(200);
      expect(ep.json<ContentUpdateResponse>().item).toMatchObject({ kind: 'episode', seriesId: seriesItem.id, seasonNumber: 1, episodeNumber: n });
    }
    const fam = (await family(writer, seriesItem.id)).json<ContentFamilyResponse>();
    expect(fam.series).toBeNull();
    expect(fam.seasons.map((s) => s.number)).toEqual([1, 2]);
    expect(fam.episodes.map((e) => [e.title, e.seasonNumber, e.episodeNumber])).toEqual([
      [`${TOKEN} Saga E1`, 1, 1], [`${TOKEN} Saga E2`, 1, 2],
    ]);
    const epFam = (await family(writer, fam.episodes[0]!.id)).json<ContentFamilyResponse>();
    expect(epFam).toEqual({ success: true, series: { id: seriesItem.id, title: `${TOKEN} Saga` }, seasons: [], episodes: [] });

    // The same episode number again: refused, nothing written.
    const dup = await create(writer, base({ kind: 'episode', title: `${TOKEN} Saga dup`, durationSeconds: 1800, seriesId: seriesItem.id, seasonNumber: 1, episodeNumber: 2 }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ success: false, message: M.episodeTaken(2, 1, `${TOKEN} Saga`) });
    expect(await countRows(`${TOKEN} Saga dup`)).toBe(0);
    // A season the series does not have.
    const noSeason = await create(writer, base({ kind: 'episode', title: `${TOKEN} Saga s9`, durationSeconds: 1800, seriesId: seriesItem.id, seasonNumber: 9, episodeNumber: 1 }));
    expect(noSeason.statusCode).toBe(400);
    expect(noSeason.json()).toMatchObject({ message: M.seasonMissing(9, `${TOKEN} Saga`), fields: { seasonNumber: M.seasonMissing(9, `${TOKEN} Saga`) } });
    // Issue 38: Create New's list of series carries each series' season numbers (declared or used by its episodes).
    const listed = (await t.get(`${API_PATHS.content}?q=${encodeURIComponent(`${TOKEN} Saga`)}&mediaType=series&limit=100`, writer.headers)).json<ContentListResponse>();
    expect(listed.items.filter((item) => item.id === seriesItem.id).map((item) => item.seasonNumbers)).toEqual([[1, 2]]);
    const videos = (await t.get(`${API_PATHS.content}?q=${encodeURIComponent(`${TOKEN} Saga`)}&mediaType=episode&limit=100`, writer.headers)).json<ContentListResponse>();
    expect(videos.items.length).toBeGreaterThan(0);
    expect(videos.items.every((item) => !('seasonNumbers' in item))).toBe(true);
  });

  it('answers two creations of the same episode at once with one 200 and one 409, never a 500', async () => {
    const series = (await create(writer, base({ kind: 'series', title: `${TOKEN} Race`, durationSeconds: undefined, seasons: [{ number: 1 }] }))).json<ContentUpdateResponse>().item;
    const body = base({ kind: 'episode', title: `${TOKEN} Race E1`, durationSeconds: 600, seriesId: series.id, seasonNumber: 1, episodeNumber: 1 });
    const answers = await Promise.all([create(writer, body), create(writer, body)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await countRows(`${TOKEN} Race E1`)).toBe(1);
  });

  it.each([
    ['a blank title', { title: '   ' }, M.titleRequired],
    ['a blank genre', { genre: ' ' }, M.genreRequired],
    ['an unknown rating', { rating: 'XXX' }, M.ratingInvalid],
    ['a language that is no code', { originalLanguage: 'English' }, M.languageInvalid],
    ['a release day that does not exist', { releaseDate: '2025-02-30' }, M.releaseDateInvalid],
    ['a video without duration', { durationSeconds: 0 }, M.durationRequired],
    ['a series with a duration', { kind: 'series', durationSeconds: 60, seasons: [{ number: 1 }] }, M.durationNotForKind],
    ['a series without seasons', { kind: 'series', durationSeconds: undefined, seasons: [] }, M.seasonsRequired],
    ['a series with a season twice', { kind: 'series', durationSeconds: undefined, seasons: [{ number: 1 }, { number: 1 }] }, M.seasonsDuplicate],
    ['seasons on a video', { seasons: [{ number: 1 }] }, M.seasonsNotForKind],
    ['a live event without start', { kind: 'live', durationSeconds: undefined }, M.startsAtRequired],
    ['a live event with a start without offset', { kind: 'live', startsAt: '2026-12-01T20:30' }, M.startsAtInvalid],
    ['a start on a video', { startsAt: '2026-12-01T20:30:00Z' }, M.startsAtNotForKind],
    ['an episode without series', { kind: 'episode', seasonNumber: 1, episodeNumber: 1 }, M.seriesRequired],
    ['an episode of a series that is not one', { kind: 'episode', seriesId: randomUUID(), seasonNumber: 1, episodeNumber: 1 }, M.seriesMissing],
    ['an episode of a malformed series id', { kind: 'episode', seriesId: 'nope', seasonNumber: 1, episodeNumber: 1 }, M.seriesMissing],
    ['an episode without season', { kind: 'episode', seriesId: randomUUID(), episodeNumber: 1 }, M.seasonRequired],
    ['a video in a series', { seriesId: randomUUID() }, M.episodeFieldsNotForKind],
    ['artwork from elsewhere', { posterUrl: 'https://evil.test/x.png' }, M.artworkUrlInvalid],
    ['artwork never uploaded', { thumbnailUrl: `/v2.0/appcms/files/${'a'.repeat(64)}.png` }, M.artworkUrlInvalid],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_name, over, message) => {
    const title = `${TOKEN} refused ${randomUUID().slice(0, 8)}`;
    const res = await create(writer, { ...base({ title }), ...over } as ContentCreateRequest);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(Object.values(res.json().fields ?? {})).toEqual([message]);
    expect(await countRows(title)).toBe(0);
  });

  it('refuses a body the schema does not allow (unknown kind, unknown field) with a 400', async () => {
    expect((await create(writer, { ...base(), kind: 'podcast' })).statusCode).toBe(400);
    expect((await create(writer, { ...base(), title: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await create(writer, { ...base(), durationSeconds: 999999 })).statusCode).toBe(400);
  });

  it('answers a duration, a number of seasons or an episode past its bound in the form\'s words, beside its field (issue 38)', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ durationSeconds: 2000 * 60 }, 'durationSeconds', 'The duration must be no longer than 1,440 minutes (24 hours).'],
      [{ kind: 'series', durationSeconds: undefined, seasons: Array.from({ length: 60 }, (_, i) => ({ number: i + 1 })) }, 'seasons', M.seasonsTooMany],
      [{ kind: 'episode', seriesId: randomUUID(), seasonNumber: 1, episodeNumber: 5000 }, 'episodeNumber', M.episodeNumberRule],
      [{ kind: 'episode', seriesId: randomUUID(), seasonNumber: 101, episodeNumber: 1 }, 'seasonNumber', M.seasonNumberRule],
    ];
    for (const [over, field, message] of cases) {
      const title = `${TOKEN} bound ${field}`;
      const res = await create(writer, { ...base({ title }), ...over });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message, fields: { [field]: message } });
      expect(await countRows(title)).toBe(0);
    }
    // Other schema refusals keep their field-naming message.
    expect((await create(writer, { ...base(), title: 'x'.repeat(201) })).json().message).toBe('body.title must NOT have more than 200 characters');
  });

  it('refuses a read role (403) and writes nothing; anonymous is 401', async () => {
    const title = `${TOKEN} by reader`;
    const res = await create(reader, base({ title }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: OWN_MESSAGES.contentNoEditRole });
    expect(await countRows(title)).toBe(0);
    const anon = await t.inject({ method: 'POST', url: CONTENT_CREATE_PATHS.create, payload: base() });
    expect(anon.statusCode).toBe(401);
  });

  it('keeps sites apart: another site cannot put an episode in this site\'s series, nor read its family', async () => {
    const series = (await create(writer, base({ kind: 'series', title: `${TOKEN} Mine`, durationSeconds: undefined, seasons: [{ number: 1 }] }))).json<ContentUpdateResponse>().item;
    const res = await create(otherSite, base({ kind: 'episode', title: `${TOKEN} intruder`, durationSeconds: 600, seriesId: series.id, seasonNumber: 1, episodeNumber: 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: M.seriesMissing });
    expect(await countRows(`${TOKEN} intruder`)).toBe(0);
    const fam = await family(otherSite, series.id);
    expect(fam.statusCode).toBe(404);
    expect(fam.json()).toMatchObject({ success: false, message: OWN_MESSAGES.contentNotFound });
    // Its own creation lands on its own site.
    const own = (await create(otherSite, base({ title: `${TOKEN} other's` }))).json<ContentUpdateResponse>().item;
    const [row] = await t.db.select({ siteId: contentItems.siteId }).from(contentItems).where(eq(contentItems.id, own.id));
    expect(row!.siteId).not.toBe(viewliftId);
  });
});

describe('GET /v2.0/content/:id/family', () => {
  it('answers a series\' seasons from its episodes when it declares none (the demo\'s), and 404 for an unknown or malformed id', async () => {
    const [old] = await t.db.insert(contentItems).values({
      siteId: viewliftId, kind: 'series', title: `${TOKEN} Old`, titleSearch: `${TOKEN} old`, genre: 'Drama', durationSeconds: 0, status: 'published',
    }).returning({ id: contentItems.id });
    await t.db.insert(contentItems).values([1, 3].map((season) => ({
      siteId: viewliftId, kind: 'episode', title: `${TOKEN} Old S${season}`, titleSearch: `${TOKEN} old s${season}`, genre: 'Drama',
      durationSeconds: 60, status: 'published', seriesId: old!.id, seasonNumber: season, episodeNumber: 1,
    })));
    const fam = (await family(reader, old!.id)).json<ContentFamilyResponse>();
    expect(fam.seasons).toEqual([{ number: 1, title: 'Season 1' }, { number: 3, title: 'Season 3' }]);
    expect(fam.episodes.map((e) => e.seasonNumber)).toEqual([1, 3]);
    const listed = (await t.get(`${API_PATHS.content}?q=${encodeURIComponent(`${TOKEN} Old`)}&mediaType=series&limit=100`, reader.headers)).json<ContentListResponse>();
    expect(listed.items.find((item) => item.id === old!.id)?.seasonNumbers).toEqual([1, 3]);
    expect((await family(reader, randomUUID())).statusCode).toBe(404);
    const bad = await family(reader, 'not-an-id');
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ success: false, message: OWN_MESSAGES.contentNotFound });
  });
});

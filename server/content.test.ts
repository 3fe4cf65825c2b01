/**
 * The content library over REST (issue 13): bounds, site isolation, accent-free word search,
 * paging and sorting, plays and QoS from the daily rollups, edits with optimistic concurrency, the
 * schedule rules, bulk status, refusal without a write role, and the audit records.
 * Every item this file creates carries a unique token in its title, so the tests see only their own
 * rows even when the seeded world (or another test file on the shared PostgreSQL) holds thousands.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import {
  CONTENT_CREATE_MESSAGES, searchKeyOf,
  type ContentDetailResponse, type ContentListResponse, type ContentUpdateResponse,
} from '../common/content';
import { OWN_MESSAGES } from '../common/messages';
import { statsSince } from './db/content-repository';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, dailyPlaybackRollups, networks, revisions } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let writer: Session;
let reader: Session;
let otherSite: Session;
let viewliftId: string;
let networkId: string;
const TOKEN = `zq${randomUUID().slice(0, 6)}`;

interface Fixture {
  title: string;
  kind?: string;
  status?: string;
  durationSeconds?: number;
  updatedAt?: Date;
}

async function insertItems(siteId: string, fixtures: Fixture[]): Promise<string[]> {
  const rows = await t.db.insert(contentItems).values(fixtures.map((f, i) => ({
    siteId,
    kind: f.kind ?? 'video',
    title: f.title,
    titleSearch: searchKeyOf(f.title),
    genre: 'Drama',
    durationSeconds: f.durationSeconds ?? 600 + i,
    status: f.status ?? 'published',
    updatedAt: f.updatedAt ?? new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  }))).returning({ id: contentItems.id });
  return rows.map((row) => row.id);
}

const list = (session: Session, query: string, path: string = API_PATHS.content) => t.get(`${path}?${query}`, session.headers);
const patch = (session: Session, id: string, body: unknown) => t.inject({ method: 'PATCH', url: `${API_PATHS.content}/${id}`, payload: body as Record<string, unknown>, headers: session.headers });

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const [w, r, o] = await Promise.all([
    t.createUser({ roles: { Content: 'write' }, prefix: 'content-writer' }),
    t.createUser({ roles: { Content: 'read' }, prefix: 'content-reader' }),
    t.createUser({ roles: { Content: 'contributor' }, site: DEMO_SITES.northwind, prefix: 'content-other' }),
  ]);
  [writer, reader, otherSite] = await Promise.all([t.login(w.username), t.login(r.username), t.login(o.username)]);
  viewliftId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  const [network] = await t.db.select({ id: networks.id }).from(networks).where(eq(networks.siteId, viewliftId)).limit(1);
  networkId = network!.id;
});
afterAll(async () => t?.close());

describe('GET /v2.0/content bounds (refused with a 400 naming the parameter)', () => {
  it.each([
    ['start=-1', 'start'],
    ['start=100001', 'start'],
    ['start=abc', 'start'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=99999999999', 'limit'],
    ['max=0', 'max'],
    ['mediaType=podcast', 'mediaType'],
    ['status=archived', 'status'],
    ['sort=price', 'sort'],
    [`q=${'a'.repeat(101)}`, 'q'],
  ])('%s → 400 naming %s', async (query, param) => {
    const res = await list(writer, query);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ success: boolean; message: string }>();
    expect(body.success).toBe(false);
    expect(body.message).toContain(`querystring.${param}`);
  });

  it('refuses a caller without a session (401) before looking at the query', async () => {
    const res = await t.get(`${API_PATHS.content}?start=-1`);
    expect(res.statusCode).toBe(401);
  });

  it('refuses a caller without a role in Content (403)', async () => {
    const user = await t.createUser({ roles: { 'Customer Support': 'write' }, prefix: 'no-content' });
    const res = await list(await t.login(user.username), '');
    expect(res.statusCode).toBe(403);
  });
});

describe('search, paging, sorting', () => {
  const PAGE = `${TOKEN}pg`;
  let ids: string[];
  beforeAll(async () => {
    ids = await insertItems(viewliftId, [
      { title: `Crème Brûlée à Paris ${TOKEN}` },
      { title: `L'Été Indien ${TOKEN}` },
      { title: `Winter Story ${TOKEN}`, kind: 'series' },
      { title: `Storm Chasers ${TOKEN}`, kind: 'live', status: 'draft' },
      ...Array.from({ length: 25 }, (_, i) => ({ title: `${PAGE} Episode ${String(i + 1).padStart(2, '0')}`, kind: 'episode', durationSeconds: 100 + i })),
    ]);
  });

  const titles = (res: { json: <T>() => T }) => res.json<ContentListResponse>().items.map((item) => item.title);

  it('finds titles by accent-free, case-free words and word prefixes', async () => {
    expect(titles(await list(writer, `q=${encodeURIComponent(`brulee ${TOKEN}`)}`))).toEqual([`Crème Brûlée à Paris ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`CRÈME ${TOKEN}`)}`))).toEqual([`Crème Brûlée à Paris ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`pari ${TOKEN}`)}`))).toEqual([`Crème Brûlée à Paris ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`ete indien ${TOKEN}`)}`))).toEqual([`L'Été Indien ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`${TOKEN} paris creme`)}`))).toEqual([`Crème Brûlée à Paris ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`stor ${TOKEN}`)}&sort=title`))).toEqual([`Storm Chasers ${TOKEN}`, `Winter Story ${TOKEN}`]);
    expect(titles(await list(writer, `q=${encodeURIComponent(`nothing ${TOKEN}`)}`))).toEqual([]);
  });

  it('finds a title by its beginning, punctuation and accents included', async () => {
    expect(titles(await list(writer, `q=${encodeURIComponent(`l'été ind`)}&sort=title`))).toContain(`L'Été Indien ${TOKEN}`);
  });

  it('treats LIKE and tsquery characters in a query as plain text', async () => {
    for (const q of ['%', '_', "':*", '& | !', '(', '\\']) {
      const res = await list(writer, `q=${encodeURIComponent(`${q} ${TOKEN}`)}`);
      expect(res.statusCode).toBe(200);
    }
  });

  it('filters by kind and status; live/video lists live items only', async () => {
    expect(titles(await list(writer, `q=${TOKEN}&mediaType=series`))).toEqual([`Winter Story ${TOKEN}`]);
    expect(titles(await list(writer, `q=${TOKEN}&status=draft`))).toEqual([`Storm Chasers ${TOKEN}`]);
    expect(titles(await list(writer, `q=${TOKEN}`, API_PATHS.liveVideo))).toEqual([`Storm Chasers ${TOKEN}`]);
  });

  it('pages with start and limit, and reports the total', async () => {
    const first = (await list(writer, `q=${PAGE}&limit=10&sort=title`)).json<ContentListResponse>();
    expect(first.total).toBe(25);
    expect(first.items.map((i) => i.title.slice(-2))).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10']);
    const last = (await list(writer, `q=${PAGE}&limit=10&start=20&sort=title`)).json<ContentListResponse>();
    expect(last.items.map((i) => i.title.slice(-2))).toEqual(['21', '22', '23', '24', '25']);
    expect(last).toMatchObject({ start: 20, limit: 10, total: 25 });
    const beyond = (await list(writer, `q=${PAGE}&start=30`)).json<ContentListResponse>();
    expect(beyond.items).toEqual([]);
  });

  it('never covers more than max items', async () => {
    const capped = (await list(writer, `q=${PAGE}&max=12&limit=10&start=10&sort=title`)).json<ContentListResponse>();
    expect(capped.total).toBe(12);
    expect(capped.items.map((i) => i.title.slice(-2))).toEqual(['11', '12']);
  });

  it('sorts by duration both ways, ties broken by id', async () => {
    const asc = (await list(writer, `q=${PAGE}&limit=3&sort=duration`)).json<ContentListResponse>();
    expect(asc.items.map((i) => i.durationSeconds)).toEqual([100, 101, 102]);
    const desc = (await list(writer, `q=${PAGE}&limit=3&sort=-duration`)).json<ContentListResponse>();
    expect(desc.items.map((i) => i.durationSeconds)).toEqual([124, 123, 122]);
  });

  it('counts plays of the last 30 days from the rollups and sorts by them', async () => {
    const [popular, older] = [ids[4]!, ids[5]!];
    const today = new Date().toISOString().slice(0, 10);
    const since = statsSince(new Date());
    const tooOld = new Date(Date.parse(`${since}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await t.db.insert(dailyPlaybackRollups).values([
      { siteId: viewliftId, networkId, day: today, dimension: 'content', dimKey: popular, sessions: 7 },
      { siteId: viewliftId, networkId, day: since, dimension: 'content', dimKey: popular, sessions: 3 },
      { siteId: viewliftId, networkId, day: tooOld, dimension: 'content', dimKey: older, sessions: 500 },
      { siteId: viewliftId, networkId, day: today, dimension: 'device', dimKey: older, sessions: 900 },
    ]);
    const sorted = (await list(writer, `q=${PAGE}&limit=2&sort=-plays30d`)).json<ContentListResponse>();
    expect(sorted.items[0]).toMatchObject({ id: popular, plays30d: 10 });
    expect(sorted.items[1]!.plays30d).toBe(0);
  });
});

describe('site isolation', () => {
  let id: string;
  beforeAll(async () => {
    id = (await insertItems(viewliftId, [{ title: `Isolated ${TOKEN}iso` }]))[0]!;
  });

  it('lists only the caller site\'s items', async () => {
    const own = (await list(writer, `q=${TOKEN}iso`)).json<ContentListResponse>();
    expect(own.items.map((i) => i.id)).toEqual([id]);
    const other = (await list(otherSite, `q=${TOKEN}iso`)).json<ContentListResponse>();
    expect(other.items).toEqual([]);
    expect(other.total).toBe(0);
  });

  it('answers 404 to another site for reads and writes of the item', async () => {
    expect((await t.get(`${API_PATHS.content}/${id}`, otherSite.headers)).statusCode).toBe(404);
    expect((await patch(otherSite, id, { version: 1, title: 'Taken' })).statusCode).toBe(404);
    const bulk = await t.post(`${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: [{ id, version: 1 }] }, otherSite.headers);
    expect(bulk.statusCode).toBe(404);
    const [row] = await t.db.select().from(contentItems).where(eq(contentItems.id, id));
    expect(row).toMatchObject({ title: `Isolated ${TOKEN}iso`, status: 'published', version: 1 });
  });
});

describe('GET /v2.0/content/:id', () => {
  it('answers an unknown or malformed id with a 404 and a clear message', async () => {
    for (const bad of [randomUUID(), 'abc123']) {
      const res = await t.get(`${API_PATHS.content}/${bad}`, writer.headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.contentNotFound });
    }
  });

  it('returns the item, 30 days of plays and the QoS summary from the rollups', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Qos ${TOKEN}` }]);
    const today = new Date().toISOString().slice(0, 10);
    await t.db.insert(dailyPlaybackRollups).values({
      siteId: viewliftId, networkId, day: today, dimension: 'content', dimKey: id!, sessions: 4,
      watchedSeconds: 990, startupMsSum: 4000, rebufferSeconds: 10, errorSessions: 1, bitrateKbpsSum: 12000,
      startupHistogram: [1, 2, 1, 0, 0, 0], rebufferHistogram: [3, 1, 0, 0, 0, 0],
    });
    const body = (await t.get(`${API_PATHS.content}/${id}`, reader.headers)).json<ContentDetailResponse>();
    expect(body.item).toMatchObject({ id, title: `Qos ${TOKEN}`, plays30d: 4, genre: 'Drama', tags: [] });
    expect(body.playsByDay).toHaveLength(30);
    expect(body.playsByDay.at(-1)).toEqual({ day: today, plays: 4 });
    expect(body.qos).toEqual({
      sessions: 4, avgStartupMs: 1000, rebufferRatio: 0.01, errorRate: 0.25, avgBitrateKbps: 3000,
      startupHistogram: [1, 2, 1, 0, 0, 0], rebufferHistogram: [3, 1, 0, 0, 0, 0],
    });
  });
});

describe('PATCH /v2.0/content/:id', () => {
  it('edits with the version read, keeps the search key, and records before and after', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Editable ${TOKEN}` }]);
    const res = await patch(writer, id!, { version: 1, title: `Éditée Première ${TOKEN}`, tags: ['drama', ' drama ', 'new'], description: 'A film.' });
    expect(res.statusCode).toBe(200);
    const { item } = res.json<ContentUpdateResponse>();
    expect(item).toMatchObject({ title: `Éditée Première ${TOKEN}`, version: 2, tags: ['drama', 'new'], description: 'A film.' });
    expect(titlesOf(await list(writer, `q=${encodeURIComponent(`editee premi ${TOKEN}`)}`))).toEqual([`Éditée Première ${TOKEN}`]);
    const [audit] = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.update'), sql`${auditEvents.detail}->>'contentId' = ${id}`));
    expect(audit?.detail).toMatchObject({
      contentId: id,
      version: 2,
      before: { title: `Editable ${TOKEN}`, tags: [], description: '' },
      after: { title: `Éditée Première ${TOKEN}`, tags: ['drama', 'new'], description: 'A film.' },
    });
  });

  it('refuses a stale version with a 409 that says what to do, and writes nothing', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Contested ${TOKEN}` }]);
    expect((await patch(writer, id!, { version: 1, title: `First ${TOKEN}` })).statusCode).toBe(200);
    const stale = await patch(writer, id!, { version: 1, title: `Second ${TOKEN}` });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ success: false, message: OWN_MESSAGES.contentConflict });
    const [row] = await t.db.select().from(contentItems).where(eq(contentItems.id, id!));
    expect(row).toMatchObject({ title: `First ${TOKEN}`, version: 2 });
  });

  it('refuses a read-only role with a 403, and writes nothing', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Readonly ${TOKEN}` }]);
    const res = await patch(reader, id!, { version: 1, title: 'Changed' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.contentNoEditRole });
    const bulk = await t.post(`${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: [{ id, version: 1 }] }, reader.headers);
    expect(bulk.statusCode).toBe(403);
    const [row] = await t.db.select().from(contentItems).where(eq(contentItems.id, id!));
    expect(row).toMatchObject({ title: `Readonly ${TOKEN}`, status: 'published', version: 1 });
  });

  it('needs a go-live date for a scheduled item and drops it for any other status', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Schedule ${TOKEN}`, status: 'draft' }]);
    const noDate = await patch(writer, id!, { version: 1, status: 'scheduled' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().message).toBe(OWN_MESSAGES.contentScheduleNeedsDate);
    const badDate = await patch(writer, id!, { version: 1, status: 'scheduled', scheduledAt: 'next tuesday' });
    expect(badDate.json().message).toBe(OWN_MESSAGES.contentScheduleInvalidDate);
    const dateOnDraft = await patch(writer, id!, { version: 1, scheduledAt: '2030-01-01T10:00:00.000Z' });
    expect(dateOnDraft.json().message).toBe(OWN_MESSAGES.contentScheduleOnlyWhenScheduled);

    const scheduled = await patch(writer, id!, { version: 1, status: 'scheduled', scheduledAt: '2030-01-01T10:00:00.000Z' });
    expect(scheduled.json<ContentUpdateResponse>().item).toMatchObject({ status: 'scheduled', scheduledAt: '2030-01-01T10:00:00.000Z', version: 2 });
    const published = await patch(writer, id!, { version: 2, status: 'published' });
    const { item } = published.json<ContentUpdateResponse>();
    expect(item).toMatchObject({ status: 'published', scheduledAt: null, version: 3 });
    expect(item.publishedAt).not.toBeNull();
  });

  it('changes the catalogue fields (rating, original language, release day) by the rules of a new item, each a revision', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Catalogue ${TOKEN}` }]);
    for (const [body, field, message] of [
      [{ rating: 'XXX' }, 'rating', CONTENT_CREATE_MESSAGES.ratingInvalid],
      [{ originalLanguage: 'English' }, 'originalLanguage', CONTENT_CREATE_MESSAGES.languageInvalid],
      [{ releaseDate: '2026-02-30' }, 'releaseDate', CONTENT_CREATE_MESSAGES.releaseDateInvalid],
      [{ releaseDate: '1850-01-01' }, 'releaseDate', CONTENT_CREATE_MESSAGES.releaseDateInvalid],
    ] as const) {
      const refused = await patch(writer, id!, { version: 1, ...body });
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json(), field).toMatchObject({ message, fields: { [field]: message } });
    }
    const changed = await patch(writer, id!, { version: 1, rating: 'TV-14', originalLanguage: 'pt-BR', releaseDate: '1999-03-31' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<ContentUpdateResponse>().item).toMatchObject({ rating: 'TV-14', originalLanguage: 'pt-BR', releaseDate: '1999-03-31', version: 2 });
    const cleared = await patch(writer, id!, { version: 2, releaseDate: null });
    expect(cleared.json<ContentUpdateResponse>().item).toMatchObject({ rating: 'TV-14', releaseDate: null, version: 3 });
    const changes = (await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'content'), eq(revisions.objectId, id!))).orderBy(asc(revisions.seq))).map((r) => r.changes);
    expect(changes).toEqual([
      [{ field: 'rating', before: 'NR', after: 'TV-14' }, { field: 'originalLanguage', before: 'en', after: 'pt-BR' }, { field: 'releaseDate', before: null, after: '1999-03-31' }],
      [{ field: 'releaseDate', before: '1999-03-31', after: null }],
    ]);
  });

  it('refuses bad bodies with a 400 naming the field', async () => {
    const [id] = await insertItems(viewliftId, [{ title: `Body ${TOKEN}` }]);
    for (const [body, field] of [
      [{ title: 'x' }, 'version'],
      [{ version: 1, title: '' }, 'title'],
      [{ version: 1, status: 'archived' }, 'status'],
      [{ version: 1, tags: 'drama' }, 'tags'],
      [{ version: '1' }, 'version'],
    ] as const) {
      const res = await patch(writer, id!, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const blank = await patch(writer, id!, { version: 1, title: '   ' });
    expect(blank.json().message).toBe(OWN_MESSAGES.fieldRequired('Title'));
  });
});

describe('POST /v2.0/content/bulk-status', () => {
  it('unpublishes the selected items in one go and audits each one', async () => {
    const ids = await insertItems(viewliftId, [{ title: `Bulk A ${TOKEN}` }, { title: `Bulk B ${TOKEN}` }]);
    const res = await t.post(`${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: ids.map((id) => ({ id, version: 1 })) }, writer.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, updated: 2 });
    const rows = await t.db.select().from(contentItems).where(sql`${contentItems.id} IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`);
    expect(rows.map((r) => [r.status, r.version])).toEqual([['unpublished', 2], ['unpublished', 2]]);
    const [audit] = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.bulk_status'), sql`${auditEvents.detail}::text LIKE ${`%${ids[0]}%`}`));
    expect(audit?.detail).toMatchObject({ status: 'unpublished' });
    expect((audit?.detail.items as unknown[]).length).toBe(2);
  });

  it('changes nothing when one selected item is stale (409)', async () => {
    const ids = await insertItems(viewliftId, [{ title: `Stale A ${TOKEN}` }, { title: `Stale B ${TOKEN}` }]);
    await patch(writer, ids[1]!, { version: 1, description: 'touched' });
    const res = await t.post(`${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: ids.map((id) => ({ id, version: 1 })) }, writer.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(OWN_MESSAGES.contentBulkConflict);
    const rows = await t.db.select().from(contentItems).where(eq(contentItems.id, ids[0]!));
    expect(rows[0]).toMatchObject({ status: 'published', version: 1 });
  });

  it('refuses an empty selection and statuses other than publish/unpublish', async () => {
    expect((await t.post(`${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: [] }, writer.headers)).statusCode).toBe(400);
    expect((await t.post(`${API_PATHS.content}/bulk-status`, { status: 'draft', items: [{ id: randomUUID(), version: 1 }] }, writer.headers)).statusCode).toBe(400);
  });
});

function titlesOf(res: { json: <T>() => T }): string[] {
  return res.json<ContentListResponse>().items.map((item) => item.title);
}

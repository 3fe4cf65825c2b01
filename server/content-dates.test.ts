/**
 * Issue 37 over REST, content side:
 * - item 8: every date input of the Content area (an edit's scheduledAt, availability publishAt /
 *   unpublishAt, a licence's startsAt / endsAt at create and update, a new live item's startsAt) is
 *   bounded to common/instant-bounds.ts's range: the four dates PostgreSQL cannot store are a 400
 *   whose message names the field, and nothing is written;
 * - item 9: PATCH /v2.0/content/:id refuses a past go-live time with the availability route's
 *   message; a manual status change (an edit, the bulk status, the "all matching" bulk status)
 *   cancels a pending unpublish time, says so in its answer, and records it in the revision.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS, searchKeyOf, type ContentUpdateResponse } from '../common/content';
import { AVAILABILITY_MESSAGES as M, AVAILABILITY_PATHS as P, type LicenceResponse } from '../common/content-availability';
import { formatDateTime } from '../common/display-format';
import { INSTANT_MESSAGES } from '../common/instant-bounds';
import { DEMO_SITES } from './db/demo-accounts';
import { contentItems, contentLicences as licences, revisions } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let writer: Session;
let siteId: string;
let timeZone: string;
const TOKEN = `cd${randomUUID().slice(0, 6)}`;

/** The four dates of the issue: year 0, a negative year, JavaScript's last date, and 9999-12-31 that is 10000 in UTC. */
const OUTSIDE = ['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:00:00-05:00'];

async function insertItem(title: string, extra: Partial<typeof contentItems.$inferInsert> = {}): Promise<string> {
  const [row] = await t.db.insert(contentItems).values({
    siteId, kind: 'video', title: `${TOKEN} ${title}`, titleSearch: searchKeyOf(`${TOKEN} ${title}`), genre: 'Drama', durationSeconds: 600, status: 'draft', ...extra,
  }).returning({ id: contentItems.id });
  return row!.id;
}
const item = async (id: string) => (await t.db.select().from(contentItems).where(eq(contentItems.id, id)))[0]!;
const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) =>
  t.inject({ method, url, headers: writer.headers, payload: body as Record<string, unknown> });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

function expectRefused(res: Awaited<ReturnType<typeof send>>, field: string, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ success: false, message });
  const fields = (res.json() as { fields?: Record<string, string> }).fields;
  if (fields) expect(fields).toEqual({ [field]: message });
}

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const user = await t.createUser({ roles: { Content: 'write' }, prefix: 'dates-writer' });
  writer = await t.login(user.username);
  const site = await t.siteByName(DEMO_SITES.viewlift);
  siteId = site.id;
  timeZone = (site as { defaultTimezone: string }).defaultTimezone;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('every Content date input is bounded (item 8)', () => {
  it.each(OUTSIDE)('%s: refused naming the field at every date input, nothing written', async (when) => {
    const id = await insertItem(`bounds ${when}`);
    const before = await item(id);
    expectRefused(await send('PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'scheduled', scheduledAt: when }), 'scheduledAt', M.dateOutOfRange('The go-live date'));
    expectRefused(await send('PUT', P.availability(id), { version: 1, publishAt: when, unpublishAt: null, countryGroupIds: [] }), 'publishAt', M.dateOutOfRange('Publish at'));
    expectRefused(await send('PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt: when, countryGroupIds: [] }), 'unpublishAt', M.dateOutOfRange('Unpublish at'));
    expect(await item(id)).toEqual(before);

    const licence = (over: Record<string, unknown>) => ({ contentId: id, name: `${TOKEN} window`, startsAt: '2026-01-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z', countryGroupIds: [], ...over });
    expectRefused(await send('POST', P.licences, licence({ startsAt: when })), 'startsAt', M.dateOutOfRange('Start'));
    expectRefused(await send('POST', P.licences, licence({ endsAt: when })), 'endsAt', M.dateOutOfRange('End'));
    expect(await t.db.select().from(licences).where(eq(licences.contentId, id))).toEqual([]);
    const created = await send('POST', P.licences, licence({}));
    expect(created.statusCode).toBe(200);
    const stored = created.json<LicenceResponse>().licence;
    expectRefused(await send('PATCH', P.licence(stored.id), { version: stored.version, startsAt: when }), 'startsAt', M.dateOutOfRange('Start'));
    expectRefused(await send('PATCH', P.licence(stored.id), { version: stored.version, endsAt: when }), 'endsAt', M.dateOutOfRange('End'));
    expect((await t.db.select().from(licences).where(eq(licences.id, stored.id)))[0]).toMatchObject({ version: stored.version });

    const title = `${TOKEN} live ${when}`;
    const live = await send('POST', CONTENT_CREATE_PATHS.create, { kind: 'live', title, genre: 'Sport', rating: 'NR', originalLanguage: 'en', startsAt: when });
    expectRefused(live, 'startsAt', CONTENT_CREATE_MESSAGES.startsAtOutOfRange);
    expect(await t.db.select().from(contentItems).where(eq(contentItems.title, title))).toEqual([]);
  });

  it('the last instant of the range is stored: an unpublish time, a licence end and a live start on 9999-12-31', async () => {
    const id = await insertItem('last instant', { status: 'published', publishedAt: new Date() });
    const set = await send('PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt: '9999-12-31T18:59:59-05:00', countryGroupIds: [] });
    expect(set.statusCode, set.body).toBe(200);
    expect((await item(id)).unpublishAt?.toISOString()).toBe('9999-12-31T23:59:59.000Z');
    const licence = await send('POST', P.licences, { contentId: id, name: `${TOKEN} forever`, startsAt: '1970-01-01T00:00:00Z', endsAt: '9999-12-31T23:59:59Z', countryGroupIds: [] });
    expect(licence.statusCode, licence.body).toBe(200);
    const live = await send('POST', CONTENT_CREATE_PATHS.create, { kind: 'live', title: `${TOKEN} far live`, genre: 'Sport', rating: 'NR', originalLanguage: 'en', startsAt: '9999-12-31T23:59:00Z' });
    expect(live.statusCode, live.body).toBe(200);
  });
});

describe('a go-live time in the past is refused on the edit route too (item 9)', () => {
  it('PATCH with status scheduled and a 2001 go-live: 400 with the availability route\'s message, the item unchanged; a future one is scheduled', async () => {
    const id = await insertItem('past schedule');
    const before = await item(id);
    const past = await send('PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'scheduled', scheduledAt: '2001-01-01T00:00:00Z' });
    expectRefused(past, 'scheduledAt', M.publishAtInPast);
    const justPast = await send('PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'scheduled', scheduledAt: new Date(Date.now() - 1000).toISOString() });
    expectRefused(justPast, 'scheduledAt', M.publishAtInPast);
    expect(await item(id)).toEqual(before);
    const future = inAnHour();
    const ok = await send('PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'scheduled', scheduledAt: future });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await item(id)).toMatchObject({ status: 'scheduled', scheduledAt: new Date(future), publishedAt: null });
  });

  it('an edit that sends the go-live time already set is not refused once that time has passed (the job is about to run)', async () => {
    const due = new Date(Date.now() - 5_000);
    const id = await insertItem('due now', { status: 'scheduled', scheduledAt: due });
    const res = await send('PATCH', `${API_PATHS.content}/${id}`, { version: 1, title: `${TOKEN} due now, renamed`, status: 'scheduled', scheduledAt: due.toISOString() });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('a manual status change cancels a pending unpublish and says so (item 9)', () => {
  async function publishedWithUnpublish(title: string): Promise<{ id: string; unpublishAt: string; version: number }> {
    const id = await insertItem(title, { status: 'published', publishedAt: new Date() });
    const unpublishAt = inAnHour();
    const set = await send('PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt, countryGroupIds: [] });
    expect(set.statusCode, set.body).toBe(200);
    return { id, unpublishAt, version: (await item(id)).version };
  }

  it('unpublish and re-publish by hand: the unpublish time is gone (no later take-down), the answer says so, the revision records it', async () => {
    const { id, unpublishAt, version } = await publishedWithUnpublish('manual unpublish');
    expect((await item(id)).unpublishJobId).not.toBeNull();
    const down = await send('PATCH', `${API_PATHS.content}/${id}`, { version, status: 'unpublished' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json<ContentUpdateResponse>().message).toBe(M.unpublishCancelled(formatDateTime(unpublishAt, timeZone)));
    expect(await item(id)).toMatchObject({ status: 'unpublished', unpublishAt: null, unpublishJobId: null });
    const [revision] = await t.db.select().from(revisions).where(and(eq(revisions.objectId, id), eq(revisions.objectVersion, version + 1)));
    expect(revision!.changes).toContainEqual({ field: 'unpublishAt', before: new Date(unpublishAt).toISOString(), after: null });

    const up = await send('PATCH', `${API_PATHS.content}/${id}`, { version: version + 1, status: 'published' });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json<ContentUpdateResponse>().message).toBeUndefined();
    expect(await item(id)).toMatchObject({ status: 'published', unpublishAt: null, unpublishJobId: null });
  });

  it('an edit that keeps the status keeps the unpublish time', async () => {
    const { id, unpublishAt, version } = await publishedWithUnpublish('kept');
    const res = await send('PATCH', `${API_PATHS.content}/${id}`, { version, status: 'published', title: `${TOKEN} kept, renamed` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ContentUpdateResponse>().message).toBeUndefined();
    expect((await item(id)).unpublishAt?.toISOString()).toBe(new Date(unpublishAt).toISOString());
  });

  it('the bulk status and the "all matching" bulk status cancel it too, and say how many', async () => {
    const a = await publishedWithUnpublish('bulk a');
    const b = await publishedWithUnpublish('bulk b');
    const bulk = await send('POST', `${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: [{ id: a.id, version: a.version }, { id: b.id, version: b.version }] });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json()).toMatchObject({ updated: 2, message: M.unpublishCancelledMany(2) });
    expect(await item(a.id)).toMatchObject({ status: 'unpublished', unpublishAt: null });
    expect(await item(b.id)).toMatchObject({ status: 'unpublished', unpublishAt: null });

    const c = await publishedWithUnpublish('matching c');
    const matching = await send('POST', P.bulkMatching, { status: 'unpublished', expected: 1, q: `${TOKEN} matching`, filterStatus: 'published' });
    expect(matching.statusCode, matching.body).toBe(200);
    expect(matching.json()).toMatchObject({ updated: 1, message: M.unpublishCancelledMany(1) });
    expect(await item(c.id)).toMatchObject({ status: 'unpublished', unpublishAt: null });
  });
});

describe('the messages', () => {
  it('name the range the same way everywhere', () => {
    expect(M.dateOutOfRange('Publish at')).toBe(INSTANT_MESSAGES.outOfRange('Publish at'));
    expect(INSTANT_MESSAGES.outOfRange('Publish at')).toBe('Publish at must be a date between 1970-01-01 and 9999-12-31 (UTC).');
  });
});

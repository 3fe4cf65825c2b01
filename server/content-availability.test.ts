/**
 * Content availability (issue 29) over REST, on a database of its own: publish at / unpublish at
 * carried out by pg-boss jobs (a job per change, replaced when the time changes, run for real by
 * the queue's worker, found again after a restart), country groups (CRUD, roles, site isolation,
 * validation, refusals write nothing), licences (the publish rule names the licence), the library's
 * "all matching" bulk status and search by the words of the tags, ranked.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { searchKeyOf, type ContentListResponse, type ContentUpdateResponse } from '../common/content';
import {
  AVAILABILITY_MESSAGES as M, AVAILABILITY_PATHS as P,
  type AvailabilityResponse, type CountryGroupResponse, type CountryGroupsResponse, type LicenceResponse, type LicencesResponse,
} from '../common/content-availability';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, countryGroups, revisions } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

let t: TestApp;
let drop: () => Promise<void>;
let writer: Session;
let reader: Session;
let other: Session;
let siteId: string;
let otherSiteId: string;
const TOKEN = `qv${randomUUID().slice(0, 6)}`;

async function insertItem(site: string, title: string, extra: Partial<typeof contentItems.$inferInsert> = {}): Promise<string> {
  const [row] = await t.db.insert(contentItems).values({
    siteId: site, kind: 'video', title, titleSearch: searchKeyOf(title), genre: 'Drama', durationSeconds: 600, status: 'draft', ...extra,
  }).returning({ id: contentItems.id });
  return row!.id;
}

const item = async (id: string) => (await t.db.select().from(contentItems).where(eq(contentItems.id, id)))[0]!;
const send = (session: Session, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  t.inject({ method, url, headers: session.headers, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });
const revisionCount = async (objectId: string) =>
  Number((await t.db.select({ n: sql<number>`count(*)::int` }).from(revisions).where(eq(revisions.objectId, objectId)))[0]!.n);
const jobState = async (id: string) => {
  const result = await t.db.execute<{ state: string; start_after: Date }>(sql`SELECT state::text AS state, start_after FROM pgboss.job WHERE id = ${id}::uuid`);
  return (result as unknown as { rows: { state: string; start_after: Date }[] }).rows[0];
};

beforeAll(async () => {
  process.env.CONTENT_JOBS_POLL_SECONDS = '0.5';
  const own = await openIsolatedTestDb();
  drop = own.drop;
  t = await createTestApp({ demo: true, db: own.handle });
  const [w, r, o] = await Promise.all([
    t.createUser({ roles: { Content: 'write' }, prefix: 'avail-writer' }),
    t.createUser({ roles: { Content: 'read' }, prefix: 'avail-reader' }),
    t.createUser({ roles: { Content: 'write' }, site: DEMO_SITES.northwind, prefix: 'avail-other' }),
  ]);
  [writer, reader, other] = await Promise.all([t.login(w.username), t.login(r.username), t.login(o.username)]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  otherSiteId = (await t.siteByName(DEMO_SITES.northwind)).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await drop?.();
});

describe('country groups', () => {
  it('a writer creates, renames and deletes a group; each write has its revision and audit entry', async () => {
    const created = await send(writer, 'POST', P.countryGroups, { name: ` ${TOKEN} Europe `, countries: ['gb', 'FR', 'de', 'FR'] });
    expect(created.statusCode).toBe(200);
    const group = created.json<CountryGroupResponse>().group;
    expect(group).toMatchObject({ name: `${TOKEN} Europe`, countries: ['DE', 'FR', 'GB'], version: 1, usedByItems: 0, usedByLicences: 0 });

    const renamed = await send(writer, 'PATCH', P.countryGroup(group.id), { version: 1, name: `${TOKEN} EU` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<CountryGroupResponse>().group).toMatchObject({ name: `${TOKEN} EU`, version: 2 });
    expect(await revisionCount(group.id)).toBe(2);

    const listed = await t.get(P.countryGroups, reader.headers);
    expect(listed.json<CountryGroupsResponse>().groups.map((g) => g.name)).toContain(`${TOKEN} EU`);

    const stale = await send(writer, 'DELETE', `${P.countryGroup(group.id)}?version=1`);
    expect(stale.statusCode).toBe(409);
    const removed = await send(writer, 'DELETE', `${P.countryGroup(group.id)}?version=2`);
    expect(removed.statusCode).toBe(200);
    expect(await t.db.select().from(countryGroups).where(eq(countryGroups.id, group.id))).toHaveLength(0);
    const audits = await t.db.select({ action: auditEvents.action, objectName: auditEvents.objectName }).from(auditEvents).where(eq(auditEvents.objectId, group.id));
    expect(audits.map((a) => a.action).sort()).toEqual(['content.country_group.create', 'content.country_group.delete', 'content.country_group.update']);
    expect(audits.every((a) => a.objectName?.startsWith(TOKEN))).toBe(true);
  });

  it('refuses bad input with a message naming it, and writes nothing', async () => {
    const before = await t.db.select().from(countryGroups);
    const unknown = await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} bad`, countries: ['GB', 'XX'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ message: string }>().message).toBe(M.countryGroupUnknownCountry('XX'));
    const empty = await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} none`, countries: [] });
    expect(empty.json<{ message: string }>().message).toBe(M.countryGroupNeedsCountry);
    const blank = await send(writer, 'POST', P.countryGroups, { name: '   ', countries: ['GB'] });
    expect(blank.statusCode).toBe(400);
    const noName = await send(writer, 'POST', P.countryGroups, { countries: ['GB'] });
    expect(noName.statusCode).toBe(400);
    expect(await t.db.select().from(countryGroups)).toHaveLength(before.length);
  });

  it('a duplicate name (any case) is a 409 naming it', async () => {
    expect((await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} Nordics`, countries: ['SE', 'NO'] })).statusCode).toBe(200);
    const again = await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} NORDICS`, countries: ['DK'] });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(M.countryGroupNameTaken(`${TOKEN} NORDICS`));
  });

  it('a read-only role lists but cannot write; another site neither sees nor changes the group', async () => {
    const created = (await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} Iberia`, countries: ['ES', 'PT'] })).json<CountryGroupResponse>().group;
    const refused = await send(reader, 'POST', P.countryGroups, { name: `${TOKEN} reader`, countries: ['GB'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(OWN_MESSAGES.contentNoEditRole);
    expect((await send(reader, 'PATCH', P.countryGroup(created.id), { version: 1, name: 'x' })).statusCode).toBe(403);
    const otherList = await t.get(P.countryGroups, other.headers);
    expect(otherList.json<CountryGroupsResponse>().groups.some((g) => g.id === created.id)).toBe(false);
    expect((await send(other, 'PATCH', P.countryGroup(created.id), { version: 1, name: 'taken over' })).statusCode).toBe(404);
    expect((await send(other, 'DELETE', `${P.countryGroup(created.id)}?version=1`)).statusCode).toBe(404);
    expect((await send(writer, 'PATCH', P.countryGroup('not-a-uuid'), { version: 1, name: 'x' })).statusCode).toBe(404);
    expect((await t.get(P.countryGroups)).statusCode).toBe(401);
    expect((await t.db.select().from(countryGroups).where(eq(countryGroups.id, created.id)))[0]).toMatchObject({ name: `${TOKEN} Iberia`, version: 1 });
  });

  it('a group in use by an item cannot be deleted: the message says where', async () => {
    const group = (await send(writer, 'POST', P.countryGroups, { name: `${TOKEN} Used`, countries: ['US'] })).json<CountryGroupResponse>().group;
    const id = await insertItem(siteId, `${TOKEN} limited item`);
    const set = await send(writer, 'PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt: null, countryGroupIds: [group.id] });
    expect(set.statusCode).toBe(200);
    expect(set.json<AvailabilityResponse>().availability.countryGroupIds).toEqual([group.id]);
    const refused = await send(writer, 'DELETE', `${P.countryGroup(group.id)}?version=1`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(M.countryGroupInUse(`${TOKEN} Used`, 1, 0));
  });

  it("an item cannot be limited to another site's group", async () => {
    const foreign = (await send(other, 'POST', P.countryGroups, { name: `${TOKEN} Foreign`, countries: ['JP'] })).json<CountryGroupResponse>().group;
    const id = await insertItem(siteId, `${TOKEN} foreign group item`);
    const refused = await send(writer, 'PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt: null, countryGroupIds: [foreign.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(M.unknownCountryGroup);
    expect((await item(id)).version).toBe(1);
  });
});

describe('licences and the publish rule', () => {
  it('publishing outside every licence is refused with the licence named; inside it is published', async () => {
    const id = await insertItem(siteId, `${TOKEN} licensed film`);
    const now = Date.now();
    const created = await send(writer, 'POST', P.licences, {
      contentId: id, name: `${TOKEN} Studio deal`, startsAt: new Date(now + 86_400_000).toISOString(), endsAt: new Date(now + 30 * 86_400_000).toISOString(), countryGroupIds: [],
    });
    expect(created.statusCode).toBe(200);
    const licence = created.json<LicenceResponse>().licence;
    expect(licence).toMatchObject({ contentId: id, contentTitle: `${TOKEN} licensed film`, name: `${TOKEN} Studio deal`, version: 1 });

    const refused = await send(writer, 'PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'published' });
    expect(refused.statusCode).toBe(400);
    const message = refused.json<{ message: string }>().message;
    expect(message).toContain(`"${TOKEN} Studio deal"`);
    expect(message).toMatch(/^Publishing is outside the licence/);
    expect(await item(id)).toMatchObject({ status: 'draft', version: 1 });
    expect(await revisionCount(id)).toBe(0);

    const bulk = await send(writer, 'POST', `${API_PATHS.content}/bulk-status`, { status: 'published', items: [{ id, version: 1 }] });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json<{ message: string }>().message).toBe(message);
    expect((await item(id)).status).toBe('draft');

    const moved = await send(writer, 'PATCH', P.licence(licence.id), { version: 1, startsAt: new Date(now - 86_400_000).toISOString() });
    expect(moved.statusCode).toBe(200);
    const published = await send(writer, 'PATCH', `${API_PATHS.content}/${id}`, { version: 1, status: 'published' });
    expect(published.statusCode).toBe(200);
    expect(published.json<ContentUpdateResponse>().item.status).toBe('published');

    const listed = await t.get(`${P.licences}?contentId=${id}`, reader.headers);
    expect(listed.json<LicencesResponse>().licences.map((l) => l.name)).toEqual([`${TOKEN} Studio deal`]);
    expect((await t.get(`${P.licences}?contentId=${id}`, other.headers)).json<LicencesResponse>().licences).toEqual([]);
  });

  it('validates windows, items and roles; refusals write nothing', async () => {
    const id = await insertItem(siteId, `${TOKEN} window checks`);
    const base = { contentId: id, name: `${TOKEN} L`, countryGroupIds: [] };
    const backwards = await send(writer, 'POST', P.licences, { ...base, startsAt: '2027-02-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ message: string }>().message).toBe(M.licenceEndsBeforeStart);
    const garbage = await send(writer, 'POST', P.licences, { ...base, startsAt: 'soon', endsAt: '2027-01-01T00:00:00Z' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json<{ message: string }>().message).toBe(M.invalidDate('Start'));
    expect((await send(reader, 'POST', P.licences, { ...base, startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-02-01T00:00:00Z' })).statusCode).toBe(403);
    expect((await send(other, 'POST', P.licences, { ...base, startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-02-01T00:00:00Z' })).statusCode).toBe(404);
    expect((await t.get(`${P.licences}?contentId=${id}`, writer.headers)).json<LicencesResponse>().licences).toEqual([]);

    const made = (await send(writer, 'POST', P.licences, { ...base, startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-02-01T00:00:00Z' })).json<LicenceResponse>().licence;
    expect((await send(other, 'DELETE', `${P.licence(made.id)}?version=1`)).statusCode).toBe(404);
    expect((await send(writer, 'DELETE', `${P.licence(made.id)}?version=9`)).statusCode).toBe(409);
    expect((await send(writer, 'DELETE', `${P.licence(made.id)}?version=1`)).statusCode).toBe(200);
    expect(await revisionCount(made.id)).toBe(2);
  });
});

describe('publish at / unpublish at through the job queue', () => {
  it('schedules a job at the time, replaces it when the time changes, and the worker publishes it (actor: system)', async () => {
    const id = await insertItem(siteId, `${TOKEN} premiere night`);
    const far = new Date(Date.now() + 3_600_000).toISOString();
    const first = await send(writer, 'PUT', P.availability(id), { version: 1, publishAt: far, unpublishAt: null, countryGroupIds: [] });
    expect(first.statusCode).toBe(200);
    expect(first.json<AvailabilityResponse>().availability).toMatchObject({ status: 'scheduled', publishAt: far, timezone: expect.any(String) as string });
    const firstJob = (await item(id)).publishJobId!;
    expect(firstJob).toBeTruthy();
    expect((await jobState(firstJob))).toMatchObject({ state: 'created' });
    expect(new Date((await jobState(firstJob))!.start_after).toISOString()).toBe(far);

    const soon = new Date(Date.now() + 1500).toISOString();
    const second = await send(writer, 'PUT', P.availability(id), { version: 2, publishAt: soon, unpublishAt: null, countryGroupIds: [] });
    expect(second.statusCode).toBe(200);
    const row = await item(id);
    expect(row.publishJobId).not.toBe(firstJob);
    expect((await jobState(firstJob))?.state).toBe('cancelled');

    // The worker (poll 0.5 s in this file) publishes it without anyone touching it.
    const deadline = Date.now() + 20_000;
    while ((await item(id)).status !== 'published' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
    const after = await item(id);
    expect(after).toMatchObject({ status: 'published', scheduledAt: null, publishJobId: null, version: 4 });
    const [revision] = await t.db.select().from(revisions).where(and(eq(revisions.objectId, id), eq(revisions.objectVersion, 4)));
    expect(revision).toMatchObject({ actorUserId: null, reason: 'Scheduled publication' });
    const audit = await t.db.select().from(auditEvents).where(and(eq(auditEvents.objectId, id), eq(auditEvents.action, 'content.scheduled_publish')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: null, objectName: `${TOKEN} premiere night` });
  }, 40_000);

  it('an unpublish time takes a published item down through its job; a replaced job does nothing', async () => {
    const id = await insertItem(siteId, `${TOKEN} leaving soon`, { status: 'published', publishedAt: new Date() });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await send(writer, 'PUT', P.availability(id), { version: 1, publishAt: null, unpublishAt: at, countryGroupIds: [] })).statusCode).toBe(200);
    const jobId = (await item(id)).unpublishJobId!;
    expect(await t.app.services.contentScheduler.run(randomUUID(), { siteId, contentId: id, action: 'unpublish' })).toBe('stale');
    expect((await item(id)).status).toBe('published');
    expect(await t.app.services.contentScheduler.run(jobId, { siteId, contentId: id, action: 'unpublish' })).toBe('unpublished');
    expect(await item(id)).toMatchObject({ status: 'unpublished', unpublishAt: null, unpublishJobId: null });
    const audit = await t.db.select().from(auditEvents).where(and(eq(auditEvents.objectId, id), eq(auditEvents.action, 'content.scheduled_unpublish')));
    expect(audit).toHaveLength(1);
  });

  it('a job lost between the write and the send is sent again when the scheduler starts (restart-safe)', async () => {
    const id = await insertItem(siteId, `${TOKEN} restart`);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await send(writer, 'PUT', P.availability(id), { version: 1, publishAt: at, unpublishAt: null, countryGroupIds: [] })).statusCode).toBe(200);
    const jobId = (await item(id)).publishJobId!;
    await t.db.execute(sql`DELETE FROM pgboss.job WHERE id = ${jobId}::uuid`);
    expect(await jobState(jobId)).toBeUndefined();
    await t.app.services.contentScheduler.stop();
    await t.app.services.contentScheduler.start();
    expect(await jobState(jobId)).toMatchObject({ state: 'created' });
  });

  it('refuses a time in the past, a bad date, an unpublish before the publish, a published item, a reader and another site; nothing written', async () => {
    const id = await insertItem(siteId, `${TOKEN} refusals`);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [Session, unknown, number, string | null][] = [
      [writer, { version: 1, publishAt: new Date(Date.now() - 60_000).toISOString(), unpublishAt: null, countryGroupIds: [] }, 400, M.publishAtInPast],
      [writer, { version: 1, publishAt: 'tomorrow', unpublishAt: null, countryGroupIds: [] }, 400, M.invalidDate('Publish at')],
      [writer, { version: 1, publishAt: future, unpublishAt: new Date(Date.now() + 60_000).toISOString(), countryGroupIds: [] }, 400, M.unpublishBeforePublish],
      [writer, { version: 1, publishAt: future, unpublishAt: null }, 400, null],
      [writer, { version: 7, publishAt: future, unpublishAt: null, countryGroupIds: [] }, 409, OWN_MESSAGES.contentConflict],
      [reader, { version: 1, publishAt: future, unpublishAt: null, countryGroupIds: [] }, 403, OWN_MESSAGES.contentNoEditRole],
      [other, { version: 1, publishAt: future, unpublishAt: null, countryGroupIds: [] }, 404, OWN_MESSAGES.contentNotFound],
    ];
    for (const [session, body, status, message] of cases) {
      const res = await send(session, 'PUT', P.availability(id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(res.json<{ message: string }>().message).toBe(message);
    }
    expect(await item(id)).toMatchObject({ version: 1, status: 'draft', publishJobId: null });
    expect(await revisionCount(id)).toBe(0);
    const published = await insertItem(siteId, `${TOKEN} live already`, { status: 'published' });
    const refused = await send(writer, 'PUT', P.availability(published), { version: 1, publishAt: future, unpublishAt: null, countryGroupIds: [] });
    expect(refused.json<{ message: string }>().message).toBe(M.publishAtWhenPublished);
    expect((await t.get(P.availability(id), reader.headers)).statusCode).toBe(200);
    expect((await t.get(P.availability(id), other.headers)).statusCode).toBe(404);
    expect((await t.get(P.availability('nope'), reader.headers)).statusCode).toBe(404);
  });
});

describe('library: all matching and search', () => {
  it('unpublishes every item a filter matches when the count is still the one shown; a changed count writes nothing', async () => {
    const word = `${TOKEN}bulk`;
    const ids = await Promise.all([1, 2, 3].map((i) => insertItem(siteId, `Night ${word} ${i}`, { status: 'published' })));
    await insertItem(otherSiteId, `Night ${word} elsewhere`, { status: 'published' });
    const stale = await send(writer, 'POST', P.bulkMatching, { status: 'unpublished', expected: 2, q: word });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ message: string }>().message).toBe(M.bulkMatchingChanged(2, 3));
    expect((await send(reader, 'POST', P.bulkMatching, { status: 'unpublished', expected: 3, q: word })).statusCode).toBe(403);
    for (const id of ids) expect((await item(id)).status).toBe('published');

    const done = await send(writer, 'POST', P.bulkMatching, { status: 'unpublished', expected: 3, q: word, mediaType: 'video' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true, updated: 3 });
    for (const id of ids) {
      expect((await item(id)).status).toBe('unpublished');
      expect(await revisionCount(id)).toBe(1);
    }
    const elsewhere = await t.db.select().from(contentItems).where(and(eq(contentItems.siteId, otherSiteId), sql`${contentItems.title} LIKE ${`%${word}%`}`));
    expect(elsewhere[0]!.status).toBe('published');
    expect((await send(writer, 'POST', P.bulkMatching, { status: 'archived', expected: 3 })).statusCode).toBe(400);
  });

  it('finds an item by a word in the middle of its title or by a tag, best match first', async () => {
    const word = `${TOKEN}lark`;
    const inTitle = await insertItem(siteId, `The ${word} of Winter`);
    const byTag = await insertItem(siteId, `${TOKEN} tagged only`, { tags: [`${word}`, 'Festival'] });
    const starts = await insertItem(siteId, `${word} rising`);
    const res = await t.get(`${API_PATHS.content}?q=${word}&sort=relevance`, reader.headers);
    expect(res.statusCode).toBe(200);
    const found = res.json<ContentListResponse>().items.map((i) => i.id);
    expect(found).toHaveLength(3);
    expect(found[0]).toBe(starts);
    expect(found).toEqual(expect.arrayContaining([inTitle, byTag]));
    const middle = await t.get(`${API_PATHS.content}?q=${encodeURIComponent(`${word.slice(0, 6)} wint`)}`, reader.headers);
    expect(middle.json<ContentListResponse>().items.map((i) => i.id)).toEqual([inTitle]);
  });
});

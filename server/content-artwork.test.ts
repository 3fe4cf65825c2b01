/**
 * Issue 38: an item's artwork added or replaced after its creation. PATCH /v2.0/content/:id takes
 * `artworkUrl` (and `posterUrl`): only a file this site uploaded, else a 400 with the create flow's
 * message; the change is a revision and an audit entry of the same transaction; Restore and Undo put
 * the old artwork back; a Content reader is refused. Own database (it writes the demo site).
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import {
  CONTENT_CREATE_MESSAGES as M, CONTENT_CREATE_PATHS,
  type ArtworkUploadResponse, type ContentUpdateResponse,
} from '../common/content';
import { OWN_MESSAGES } from '../common/messages';
import { UNDO_PATH } from '../common/revisions';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, revisions } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

let t: TestApp;
let drop: () => Promise<void>;
let writer: Session;
let reader: Session;
let otherSite: Session;
const TOKEN = `za${randomUUID().slice(0, 6)}`;

const png = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 90, b: 160 } } }).png().toBuffer();

async function uploaded(session: Session, slot: 'poster' | 'thumbnail', r: number): Promise<string> {
  const [width, height] = slot === 'poster' ? [400, 600] : [640, 360];
  const res = await t.inject({
    method: 'POST', url: `${CONTENT_CREATE_PATHS.artwork}/${slot}`, payload: await png(width, height, r),
    headers: { ...session.headers, 'content-type': 'image/png' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ArtworkUploadResponse>().url;
}

async function newItem(kind: 'video' | 'series' = 'video') {
  const body = kind === 'series'
    ? { kind, title: `${TOKEN} Tidewater ${randomUUID().slice(0, 4)}`, genre: 'Drama', rating: 'PG', originalLanguage: 'en', seasons: [{ number: 1 }] }
    : { kind, title: `${TOKEN} Lantern ${randomUUID().slice(0, 4)}`, genre: 'Drama', rating: 'PG', originalLanguage: 'en', durationSeconds: 3600 };
  const res = await t.inject({ method: 'POST', url: CONTENT_CREATE_PATHS.create, payload: body, headers: writer.headers });
  expect(res.statusCode).toBe(200);
  return res.json<ContentUpdateResponse>().item;
}

const patch = (session: Session, id: string, body: Record<string, unknown>, requestId?: string) => t.inject({
  method: 'PATCH', url: `${API_PATHS.content}/${id}`, payload: body,
  headers: { ...session.headers, ...(requestId ? { 'x-request-id': requestId } : {}) },
});

async function row(id: string) {
  const [found] = await t.db.select().from(contentItems).where(eq(contentItems.id, id));
  return found!;
}

beforeAll(async () => {
  const own = await openIsolatedTestDb();
  drop = own.drop;
  t = await createTestApp({ demo: true, db: own.handle });
  const [w, r, o] = await Promise.all([
    t.createUser({ roles: { Content: 'write' }, prefix: 'art-writer' }),
    t.createUser({ roles: { Content: 'read' }, prefix: 'art-reader' }),
    t.createUser({ roles: { Content: 'write' }, site: DEMO_SITES.northwind, prefix: 'art-other' }),
  ]);
  [writer, reader, otherSite] = await Promise.all([t.login(w.username), t.login(r.username), t.login(o.username)]);
});
afterAll(async () => {
  await t?.close();
  await drop?.();
});

describe('PATCH /v2.0/content/:id with artwork (issue 38)', () => {
  it('adds artwork to an item without any: the row, one revision and one audit entry say so, never more', async () => {
    const item = await newItem();
    const url = await uploaded(writer, 'thumbnail', 10);
    const res = await patch(writer, item.id, { version: item.version, artworkUrl: url });
    expect(res.statusCode).toBe(200);
    expect(res.json<ContentUpdateResponse>().item).toMatchObject({ id: item.id, artworkUrl: url, version: item.version + 1 });
    expect(await row(item.id)).toMatchObject({ artworkUrl: url, version: item.version + 1 });
    const revs = await t.db.select().from(revisions).where(eq(revisions.objectId, item.id)).orderBy(desc(revisions.seq));
    expect(revs).toHaveLength(2);
    expect(revs[0]).toMatchObject({ objectKind: 'content', objectVersion: item.version + 1, changes: [{ field: 'artworkUrl', before: '', after: url }] });
    const audits = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'content.update'), eq(auditEvents.objectId, item.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({ before: { artworkUrl: '' }, after: { artworkUrl: url } });
  });

  it('replaces a series poster, and Restore puts the old one back', async () => {
    const series = await newItem('series');
    const first = await uploaded(writer, 'poster', 20);
    const second = await uploaded(writer, 'poster', 30);
    const one = await patch(writer, series.id, { version: series.version, posterUrl: first });
    expect(one.statusCode).toBe(200);
    const two = await patch(writer, series.id, { version: series.version + 1, posterUrl: second });
    expect(two.statusCode).toBe(200);
    expect((await row(series.id)).posterUrl).toBe(second);
    const [latest] = await t.db.select().from(revisions).where(eq(revisions.objectId, series.id)).orderBy(desc(revisions.seq)).limit(1);
    expect(latest).toMatchObject({ changes: [{ field: 'posterUrl', before: first, after: second }] });
    const restored = await t.inject({ method: 'POST', url: `/v1/revisions/${latest!.seq}/restore`, headers: writer.headers, payload: { version: series.version + 2 } });
    expect(restored.statusCode).toBe(200);
    expect(await row(series.id)).toMatchObject({ posterUrl: first, version: series.version + 3 });
  });

  it('Undo of the artwork change takes it away again (the item had none)', async () => {
    const item = await newItem();
    const url = await uploaded(writer, 'thumbnail', 40);
    const requestId = randomUUID();
    const res = await patch(writer, item.id, { version: item.version, artworkUrl: url }, requestId);
    expect(res.statusCode).toBe(200);
    const [rev] = await t.db.select().from(revisions).where(eq(revisions.objectId, item.id)).orderBy(desc(revisions.seq)).limit(1);
    const undone = await t.inject({ method: 'POST', url: UNDO_PATH, headers: writer.headers, payload: { requestId: rev!.requestId } });
    expect(undone.statusCode).toBe(200);
    expect(await row(item.id)).toMatchObject({ artworkUrl: '', version: item.version + 2 });
  });

  it.each([
    ['a link elsewhere', 'https://evil.test/x.png'],
    ['a file never uploaded', `/v2.0/appcms/files/${'b'.repeat(64)}.png`],
    ['an address under the files path that is no file', '/v2.0/appcms/files/../../etc/passwd'],
  ])('refuses %s with the create flow\'s message; nothing written', async (_label, url) => {
    const item = await newItem();
    const res = await patch(writer, item.id, { version: item.version, artworkUrl: url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: M.artworkUrlInvalid, fields: { artworkUrl: M.artworkUrlInvalid } });
    expect(await row(item.id)).toMatchObject({ artworkUrl: '', version: item.version });
    expect(await t.db.select().from(revisions).where(eq(revisions.objectId, item.id))).toHaveLength(1);
  });

  it('refuses another site\'s upload as one never uploaded', async () => {
    const item = await newItem();
    const theirs = await uploaded(otherSite, 'poster', 50);
    const res = await patch(writer, item.id, { version: item.version, posterUrl: theirs });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: M.artworkUrlInvalid, fields: { posterUrl: M.artworkUrlInvalid } });
    expect((await row(item.id)).posterUrl).toBe('');
  });

  it('removes the artwork with an empty address', async () => {
    const item = await newItem();
    const url = await uploaded(writer, 'thumbnail', 60);
    expect((await patch(writer, item.id, { version: item.version, artworkUrl: url })).statusCode).toBe(200);
    const res = await patch(writer, item.id, { version: item.version + 1, artworkUrl: '' });
    expect(res.statusCode).toBe(200);
    expect(await row(item.id)).toMatchObject({ artworkUrl: '', version: item.version + 2 });
  });

  it('a Content reader sees the artwork but may not change it (403, nothing written)', async () => {
    const item = await newItem();
    const url = await uploaded(writer, 'thumbnail', 70);
    const res = await patch(reader, item.id, { version: item.version, artworkUrl: url });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: OWN_MESSAGES.contentNoEditRole });
    expect(await row(item.id)).toMatchObject({ artworkUrl: '', version: item.version });
    const read = await t.get(`${API_PATHS.content}/${item.id}`, reader.headers);
    expect(read.statusCode).toBe(200);
  });

  it('refuses an address longer than the schema allows by its field', async () => {
    const item = await newItem();
    const res = await patch(writer, item.id, { version: item.version, artworkUrl: `/v2.0/appcms/files/${'c'.repeat(300)}.png` });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('artworkUrl');
  });
});

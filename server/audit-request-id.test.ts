/**
 * Issue 37, item 6: the audit log must never name the wrong person. An audit row reads its changes
 * from the revisions of its request (joined by request id), so no caller may choose a request id:
 * the server mints one for every request (whatever x-request-id the caller sent) and answers it in
 * the x-request-id header.
 *
 * The attack of the report: content@demo.test reads admin@demo.test's request id from an item's
 * History and sends it with its own PATCH. Admin's `content.update` row keeps listing only admin's
 * change; content@'s change is a request of its own, under its own name; and admin's request cannot
 * be undone by content@ (nor content@'s write by admin).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '../common/audit-actions';
import { API_PATHS } from '../common/constants';
import { REQUEST_ID_HEADER, UNDO_MESSAGES, UNDO_PATH, type RevisionHistoryResponse } from '../common/revisions';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, contentItems, revisions } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let admin: Session;
let content: Session;
let siteId: string;

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  [admin, content] = await Promise.all([t.login('admin@demo.test'), t.login('content@demo.test')]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
});
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

async function draft(title: string) {
  const [row] = await t.db.insert(contentItems).values({ siteId, kind: 'video', title, titleSearch: title.toLowerCase(), genre: 'drama', durationSeconds: 60, status: 'draft' }).returning();
  return row!;
}

const patch = (session: Session, id: string, payload: Record<string, unknown>, requestId?: string) => t.inject({
  method: 'PATCH', url: `${API_PATHS.content}/${id}`, payload,
  headers: { ...session.headers, ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}) },
});

describe('request ids are minted by the server (issue 37)', () => {
  it('every answer names its request with a new UUID, whatever x-request-id the caller sent', async () => {
    const chosen = randomUUID();
    const seen = new Set<string>();
    for (const headers of [admin.headers, { ...admin.headers, [REQUEST_ID_HEADER]: chosen }, { ...admin.headers, [REQUEST_ID_HEADER]: chosen }, {}]) {
      const res = await t.inject({ method: 'GET', url: `${API_PATHS.content}?mediaType=video&limit=1`, headers });
      const id = String(res.headers[REQUEST_ID_HEADER]);
      expect(id).toMatch(UUID);
      expect(id).not.toBe(chosen);
      seen.add(id);
    }
    expect(seen.size).toBe(4);
  });

  it('a request id read from another actor\'s History and sent again attaches nothing to that actor\'s audit row, and undoes nothing of theirs', async () => {
    const item = await draft(`Forged ${randomUUID().slice(0, 8)}`);
    const other = await draft(`Forged other ${randomUUID().slice(0, 8)}`);
    const adminTitle = `Admin title ${randomUUID().slice(0, 8)}`;
    const byAdmin = await patch(admin, item.id, { version: item.version, title: adminTitle });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const adminRequest = String(byAdmin.headers[REQUEST_ID_HEADER]);

    // content@ reads admin's request id from the item's History …
    const history = await t.inject({ method: 'GET', url: `/v1/revisions/content/${item.id}`, headers: content.headers });
    expect(history.statusCode).toBe(200);
    const read = history.json<RevisionHistoryResponse>().items[0]!;
    expect(read).toMatchObject({ requestId: adminRequest, actor: { username: 'admin@demo.test' } });

    // … and sends it with its own PATCHes, of the same item and of another.
    const sameItem = await patch(content, item.id, { version: item.version + 1, description: 'Forged description' }, adminRequest);
    const otherItem = await patch(content, other.id, { version: other.version, genre: 'comedy' }, adminRequest);
    for (const res of [sameItem, otherItem]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers[REQUEST_ID_HEADER]).not.toBe(adminRequest);
    }

    // Admin's request holds admin's revision only; content@'s revisions carry their own requests.
    const ofAdminRequest = await t.db.select().from(revisions).where(eq(revisions.requestId, adminRequest));
    expect(ofAdminRequest.map((r) => [r.objectId, r.changes.map((c) => c.field)])).toEqual([[item.id, ['title']]]);
    const ownRequests = (await t.db.select().from(revisions).where(eq(revisions.objectId, other.id))).map((r) => r.requestId);
    expect(ownRequests).toEqual([String(otherItem.headers[REQUEST_ID_HEADER])]);
    const auditOfAdminRequest = await t.db.select().from(auditEvents).where(eq(auditEvents.requestId, adminRequest));
    expect(auditOfAdminRequest.map((r) => r.objectId)).toEqual([item.id]);

    // Admin's content.update row in the audit log lists admin's change only, under admin's name.
    const res = await t.inject({ method: 'GET', url: `${API_PATHS.admin}/audit?action=content.update&pageSize=100`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json<{ items: AuditLogEntry[] }>().items.filter((e) => e.object?.id === item.id || e.object?.id === other.id);
    const adminEntry = entries.find((e) => e.actor?.username === 'admin@demo.test')!;
    expect(adminEntry.object?.id).toBe(item.id);
    expect(adminEntry.changes.map((c) => c.field)).toEqual(['Title']);
    const contentEntries = entries.filter((e) => e.actor?.username === 'content@demo.test');
    expect(contentEntries).toHaveLength(2);
    expect(contentEntries.flatMap((e) => e.changes.map((c) => c.field)).sort()).toEqual(['Description', 'Genre']);

    // Nor can content@ undo admin's request by its id (it is not theirs), and nothing is written.
    const before = (await t.db.select().from(revisions)).length;
    const undo = await t.inject({ method: 'POST', url: UNDO_PATH, headers: content.headers, payload: { requestId: adminRequest } });
    expect(undo.statusCode).toBe(404);
    expect(undo.json()).toMatchObject({ success: false, message: UNDO_MESSAGES.nothing });
    expect((await t.db.select().from(revisions)).length).toBe(before);

    // A revision stored before ids were the server's, carrying admin's id but content@'s name (what the
    // report saw), is not joined to admin's row either.
    const contentUser = (await t.db.select().from(revisions).where(eq(revisions.objectId, other.id)))[0]!.actorUserId;
    await t.db.insert(revisions).values({
      siteId, objectKind: 'content', objectId: item.id, objectName: adminTitle, actorUserId: contentUser, requestId: adminRequest,
      changes: [{ field: 'rating', before: 'PG', after: 'R' }],
    });
    const again = await t.inject({ method: 'GET', url: `${API_PATHS.admin}/audit?action=content.update&pageSize=100`, headers: admin.headers });
    const adminAgain = again.json<{ items: AuditLogEntry[] }>().items.find((e) => e.actor?.username === 'admin@demo.test' && e.object?.id === item.id)!;
    expect(adminAgain.changes.map((c) => c.field)).toEqual(['Title']);
  });
});

/**
 * Issue 41 (qoe-alerts): saved views. Any Dashboard 360 reader saves private views; sharing with the
 * site needs Dashboard 360 write; the list is the caller's own views and those shared; another's
 * private view is not found; only the owner renames, shares or deletes (a stale version is 409);
 * bad input is a 400 in words; writes are audited with a revision.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../common/constants';
import { QOE_ALERT_REFUSALS as M } from '../common/messages/qoe-alert-refusals';
import { QOE_SAVED_VIEWS_PATH, type QoeSavedView } from '../common/qoe';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, revisions } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

process.env.QOE_ALERT_EVAL_MS = '0';
process.env.QOE_ALERT_DELIVERY_MS = '0';

let t: TestApp;
let editor: Session;
let readerA: Session;
let readerB: Session;
let otherSite: Session;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const users = await Promise.all([
    t.createUser({ roles: { [AREAS.dashboard360]: 'write' }, prefix: 'views-editor' }),
    t.createUser({ roles: { [AREAS.dashboard360]: 'read' }, prefix: 'views-a' }),
    t.createUser({ roles: { [AREAS.dashboard360]: 'read' }, prefix: 'views-b' }),
    t.createUser({ roles: { [AREAS.dashboard360]: 'write' }, prefix: 'views-other', site: DEMO_SITES.northwind }),
  ]);
  const login = (u: (typeof users)[number] | undefined) => t.login(u!.username, u!.password);
  [editor, readerA, readerB, otherSite] = await Promise.all([login(users[0]), login(users[1]), login(users[2]), login(users[3])]);
});
afterAll(async () => {
  await t?.close();
});

const post = (s: Session, payload: Record<string, unknown>) => t.inject({ method: 'POST', url: QOE_SAVED_VIEWS_PATH, headers: s.headers, payload });
const put = (s: Session, id: string, payload: Record<string, unknown>) => t.inject({ method: 'PUT', url: `${QOE_SAVED_VIEWS_PATH}/${id}`, headers: s.headers, payload });
const list = async (s: Session) => (await t.get(QOE_SAVED_VIEWS_PATH, s.headers)).json<{ views: QoeSavedView[] }>().views;
const input = (name: string, shared = false) => ({ name, path: '/analytics/qos-overall', search: { from: '2026-12-01', to: '2026-12-06', f: 'device:web,ios;!isp:Slow%20Net', by: 'cdn' }, shared });

describe('saved views', () => {
  it('a reader saves a private view only they see; sharing needs write; the list is mine + shared', async () => {
    const name = `Bad Android ${randomUUID().slice(0, 6)}`;
    const mine = await post(readerA, input(name));
    expect(mine.statusCode, mine.body).toBe(200);
    const view = mine.json<{ view: QoeSavedView }>().view;
    expect(view).toMatchObject({ name, shared: false, mine: true, version: 1, search: input(name).search, path: '/analytics/qos-overall' });

    const shareRefused = await post(readerA, input(`${name} shared`, true));
    expect(shareRefused.statusCode).toBe(403);
    expect(shareRefused.json()).toMatchObject({ message: M.viewShareNeedsWrite });
    expect((await put(readerA, view.id, { ...input(name, true), version: 1 })).statusCode).toBe(403);

    const shared = (await post(editor, input(`Team view ${randomUUID().slice(0, 6)}`, true))).json<{ view: QoeSavedView }>().view;
    const privateOfEditor = (await post(editor, input(`Editor only ${randomUUID().slice(0, 6)}`))).json<{ view: QoeSavedView }>().view;

    const seenByA = await list(readerA);
    expect(seenByA.map((v) => v.id)).toEqual(expect.arrayContaining([view.id, shared.id]));
    expect(seenByA.map((v) => v.id)).not.toContain(privateOfEditor.id);
    expect(seenByA.find((v) => v.id === shared.id)).toMatchObject({ mine: false, shared: true });
    const seenByB = await list(readerB);
    expect(seenByB.map((v) => v.id)).toContain(shared.id);
    expect(seenByB.map((v) => v.id)).not.toContain(view.id);
    // Opened by its address: the owner and, when shared, anyone on the site; another's private one is not found.
    expect((await t.get(`${QOE_SAVED_VIEWS_PATH}/${view.id}`, readerA.headers)).statusCode).toBe(200);
    expect((await t.get(`${QOE_SAVED_VIEWS_PATH}/${shared.id}`, readerB.headers)).json<{ view: QoeSavedView }>().view.search).toEqual(shared.search);
    const hidden = await t.get(`${QOE_SAVED_VIEWS_PATH}/${view.id}`, readerB.headers);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ message: M.viewNotFound });
    // Another site sees none of them.
    expect((await t.get(`${QOE_SAVED_VIEWS_PATH}/${shared.id}`, otherSite.headers)).statusCode).toBe(404);
    expect((await list(otherSite)).map((v) => v.id)).not.toContain(shared.id);
  });

  it('only the owner renames, shares or deletes; a stale version is a 409; writes are audited with a revision', async () => {
    const name = `Owned ${randomUUID().slice(0, 6)}`;
    const view = (await post(editor, input(name, true))).json<{ view: QoeSavedView }>().view;
    const notOwner = await put(readerA, view.id, { ...input('Taken over', true), version: 1 });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json()).toMatchObject({ message: M.viewNotOwner });
    expect((await t.inject({ method: 'DELETE', url: `${QOE_SAVED_VIEWS_PATH}/${view.id}?version=1`, headers: readerA.headers })).statusCode).toBe(403);

    const renamed = await put(editor, view.id, { ...input(`${name} renamed`, false), version: 1 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ view: QoeSavedView }>().view).toMatchObject({ name: `${name} renamed`, shared: false, version: 2 });
    // Private now: the reader no longer sees it.
    expect((await t.get(`${QOE_SAVED_VIEWS_PATH}/${view.id}`, readerA.headers)).statusCode).toBe(404);
    const stale = await put(editor, view.id, { ...input(name), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: M.viewConflict });
    const gone = await t.inject({ method: 'DELETE', url: `${QOE_SAVED_VIEWS_PATH}/${view.id}?version=2`, headers: editor.headers });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await list(editor)).map((v) => v.id)).not.toContain(view.id);

    const revs = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'qoeSavedView'), eq(revisions.objectId, view.id))).orderBy(revisions.seq);
    expect(revs.map((r) => [r.creation, r.changes.map((c) => c.field)])).toEqual([
      [true, ['name', 'path', 'search', 'shared']], [false, ['name', 'shared']], [false, ['name', 'path', 'search', 'shared']],
    ]);
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.objectId, view.id)).orderBy(auditEvents.seq);
    expect(audits.map((a) => a.action)).toEqual(['qoe.saved_view.create', 'qoe.saved_view.update', 'qoe.saved_view.delete']);
  });

  it('bad input is a 400 in words: empty or long name, a duplicate of mine, a path outside Dashboard 360, bad search', async () => {
    const name = `Dup ${randomUUID().slice(0, 6)}`;
    expect((await post(readerA, input(name))).statusCode).toBe(200);
    const refusal = async (payload: Record<string, unknown>) => {
      const res = await post(readerA, payload);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ message: string }>().message;
    };
    expect(await refusal(input(' '))).toBe(M.viewNameRequired);
    expect(await refusal(input('v'.repeat(121)))).toBe(M.viewNameTooLong);
    expect(await refusal(input(name.toLowerCase()))).toBe(M.viewNameTaken(name.toLowerCase()));
    expect(await refusal({ ...input('Elsewhere'), path: '/admin' })).toBe(M.viewPathInvalid);
    expect(await refusal({ ...input('Elsewhere'), path: 'https://evil.example/analytics' })).toBe(M.viewPathInvalid);
    expect(await refusal({ ...input('Bad search'), search: { f: 3 } })).toBe(M.viewSearchInvalid);
    // The same name is free for someone else.
    expect((await post(readerB, input(name))).statusCode).toBe(200);
    expect((await t.get(`${QOE_SAVED_VIEWS_PATH}/not-an-id`, readerA.headers)).statusCode).toBe(404);
  });
});

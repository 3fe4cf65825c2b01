/**
 * The audit log in words (issue 28, Admin › Audit): filters by area, action, actor, object and
 * dates; every row names its object ("brand of network Kids Zone") with a link to its page; changes
 * read "field: before → after" with names (a reorder lists group names in order, not UUIDs); the
 * export carries every matching row, the same entries as the pages; roles and site isolation; bad
 * filters answer 400; the housekeeping purge keeps AUDIT_RETENTION_DAYS. A database of its own: it
 * writes the demo site's networks and plan groups.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_PATHS } from '../common/appcms';
import { AUDIT_LOG_MESSAGES, AUDIT_RETENTION_DAYS, auditActionsOfArea, auditCsv, auditEntryWhat, type AuditLogEntry } from '../common/audit-actions';
import { DATE_INPUT_MESSAGES } from '../common/messages/dates';
import { API_PATHS, AREAS } from '../common/constants';
import { DEMO_SITES } from './db/demo-accounts';
import { purgeExpired } from './db/housekeeping';
import { fieldLabel, valueWords } from './domain/audit-log';
import { auditEvents, networkBrands, networks, planGroups } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

const A = API_PATHS.admin;
const SITE = DEMO_SITES.viewlift;
const theme = (primary: string) => ({ primaryColor: primary, secondaryColor: '#111111', backgroundColor: '#FFFFFF', textColor: '#000000', fontFamily: 'Inter' });

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let admin: Session;
let adminReader: Session;
let contentOnly: Session;
let northwind: Session;
let editor: Session;
let editorName: string;
let siteId: string;

interface Page { success: true; items: AuditLogEntry[]; total: number; page: number; pageSize: number }

async function get(session: Session, url: string) {
  return t.inject({ method: 'GET', url, headers: session.headers });
}
async function list(session: Session, query: string): Promise<Page> {
  const res = await get(session, `${A}/audit?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
async function gql(session: Session, query: string, variables: Record<string, unknown>) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  const body = res.json<{ data: Record<string, unknown> | null; errors?: unknown[] }>();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

async function network(name: string) {
  const identifier = `audit-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.insert(networks).values({ siteId, identifier, name, image: '/logo.svg', isActive: false, isDefault: false }).returning();
  await t.db.insert(networkBrands).values({ networkId: row!.id, logoUrl: '/a.png', iconUrl: '/i.png', theme: theme('#AA0000'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000') });
  return row!;
}

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  const user = await t.createUser({ roles: { [AREAS.appCms]: 'write', [AREAS.subscriptionsOffers]: 'write' }, prefix: 'audit-editor' });
  editorName = user.username;
  [admin, adminReader, contentOnly, northwind, editor] = await Promise.all([
    t.login('admin@demo.test'), t.login('siteadmin@demo.test'), t.login('content@demo.test'), t.login('admin@northwind.test'),
    t.login(user.username, user.password),
  ]);
  siteId = (await t.siteByName(SITE)).id;
});
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describe('rows in words', () => {
  it('a brand save names its network, links to that brand page and lists the changed colours', async () => {
    const n = await network('Audit Kids Zone');
    const saved = await t.inject({
      method: 'PUT', url: `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, headers: editor.headers,
      payload: { version: 1, logoUrl: '/a.png', iconUrl: '/i.png', theme: theme('#123456'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000') },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const page = await list(adminReader, `area=appcms&object=${encodeURIComponent('Audit Kids Zone')}`);
    expect(page.total).toBe(1);
    const [row] = page.items;
    expect(row).toMatchObject({
      action: 'appcms.brand.save', label: 'Brand saved', area: 'appcms', actor: { username: editorName },
      object: { kind: 'brand', id: n.id, name: 'Audit Kids Zone', words: 'brand of network Audit Kids Zone', link: `/appcms/brand?network=${n.identifier}` },
    });
    expect(row!.changes).toHaveLength(1);
    expect(row!.changes[0]!.before).toBe('#AA0000');
    expect(row!.changes[0]!.after).toBe('#123456');
    expect(row!.changes[0]!.field).toBe('Web primary colour');
    expect(auditEntryWhat(row!)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('a restore from the History is audited as the restore, naming the revision it wrote back (issue 38)', async () => {
    const n = await network('Audit Restore Net');
    const saved = await t.inject({
      method: 'PUT', url: `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, headers: editor.headers,
      payload: { version: 1, logoUrl: '/a.png', iconUrl: '/i.png', theme: theme('#654321'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000') },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const history = await get(editor, `/v1/revisions/brand/${n.identifier}`);
    const [revision] = history.json<{ items: Array<{ seq: number; objectVersion: number }> }>().items;
    const restored = await t.inject({ method: 'POST', url: `/v1/revisions/${revision!.seq}/restore`, headers: editor.headers, payload: { version: revision!.objectVersion } });
    expect(restored.statusCode, restored.body).toBe(200);

    const page = await list(admin, `area=appcms&object=${encodeURIComponent('Audit Restore Net')}`);
    expect(page.items.map((r) => r.label)).toEqual([`Brand restored from #${revision!.seq}`, 'Brand saved']);
    expect(page.items[0]).toMatchObject({ action: 'appcms.brand.restore', area: 'appcms' });
    expect(page.items[0]!.changes).toEqual([{ field: 'Web primary colour', before: '#654321', after: '#AA0000' }]);
    // The action filter tells restores from saves.
    expect((await list(admin, `action=appcms.brand.restore&object=${n.id}`)).total).toBe(1);
  });

  it('a copy from the default network lists the fields it changed, before → after, like a save (issue 38)', async () => {
    const n = await network('Audit Copy Net');
    await gql(editor, 'mutation($req: NetworkCopyInput!) { networkCopyFromDefault(req: $req) { success } }', {
      req: { site: SITE, network: n.identifier, networkBrand: { logoAndIcons: false, theme: true, themeOtt: false, themeApps: false } },
    });
    const [row] = (await list(admin, `action=network.copyFromDefault&object=${n.id}`)).items;
    expect(row).toMatchObject({ label: 'Network copied from the default', object: { words: 'network Audit Copy Net' } });
    const primary = row!.changes.find((c) => c.field === 'Web primary colour');
    expect(primary, auditEntryWhat(row!)).toBeDefined();
    expect(primary!.before).toBe('#AA0000');
    expect(primary!.after).not.toBe('#AA0000');
    // Only the copied part: the OTT theme stayed.
    expect(row!.changes.map((c) => c.field).filter((f) => f.startsWith('OTT'))).toEqual([]);
  });

  it('an image reads as there being one, never as its address', async () => {
    const n = await network('Audit Logo Net');
    const saved = await t.inject({
      method: 'PUT', url: `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, headers: editor.headers,
      payload: { version: 1, logoUrl: '/b.png', iconUrl: '/i.png', theme: theme('#AA0000'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000') },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = (await list(admin, `action=appcms.brand.save&object=${n.id}`)).items;
    expect(row!.changes).toEqual([{ field: 'Logo', before: 'an image', after: 'a new image' }]);
  });

  it('a launch names its network and reads Launched: no → yes', async () => {
    const n = await network('Audit Launch Net');
    await gql(editor, 'mutation($site: String!, $network: String!) { networkPublish(site: $site, network: $network) { success } }', { site: SITE, network: n.identifier });
    const [row] = (await list(admin, `action=network.publish&object=${n.id}`)).items;
    expect(row).toMatchObject({ label: 'Network launched', object: { words: 'network Audit Launch Net', link: `/appcms?network=${n.identifier}` } });
    expect(row!.changes).toEqual([{ field: 'Launched', before: 'no', after: 'yes' }]);
  });

  it('a reorder lists the plan groups by name in their order, not UUID → UUID', async () => {
    const names = [`Audit group A ${randomUUID().slice(0, 4)}`, `Audit group B ${randomUUID().slice(0, 4)}`];
    for (const name of names) await gql(editor, 'mutation($input: PlanGroupInput!) { planGroupCreate(input: $input) { id version } }', { input: { name, description: '', planIds: [] } });
    const groups = await t.db.select().from(planGroups).where(eq(planGroups.siteId, siteId)).orderBy(planGroups.position, planGroups.name);
    const reversed = [...groups].reverse();
    await gql(editor, 'mutation($order: [PlanGroupOrderEntry!]!) { planGroupsReorder(order: $order) { id } }', { order: reversed.map((g) => ({ id: g.id, version: g.version })) });
    const [row] = (await list(admin, 'action=monetization.planGroup.reorder')).items;
    expect(row!.label).toBe('Plan groups reordered');
    const what = auditEntryWhat(row!);
    expect(what).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    const change = row!.changes.find((c) => c.after.includes(names[0]!));
    expect(change, what).toBeDefined();
    expect(change!.after).toBe(reversed.map((g) => g.name).join(', '));
    expect(change!.before).toBe(groups.map((g) => g.name).join(', '));
  });

  it('staff changes read as field: before → after with the account named; sign-in rows in their area', async () => {
    const email = `audit-${randomUUID().slice(0, 8)}@test.local`;
    const created = await t.inject({
      method: 'POST', url: `${A}/staff`, headers: admin.headers,
      payload: { email, displayName: 'Audit Staff', phoneNumber: `+1555${String(Date.now()).slice(-7)}`, twoFactorOnLogin: false, roles: { Content: 'read' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const staff = created.json<{ staff: { id: string; version: number; phoneNumber: string } }>().staff;
    const updated = await t.inject({
      method: 'PUT', url: `${A}/staff/${staff.id}`, headers: admin.headers,
      payload: { displayName: 'Audit Staff', phoneNumber: staff.phoneNumber, twoFactorOnLogin: false, roles: { Content: 'write' }, version: staff.version },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const [row] = (await list(admin, `action=staff.updated&object=${staff.id}`)).items;
    expect(row!.object).toMatchObject({ words: `staff account Audit Staff (${email})`, link: `/admin?search=${encodeURIComponent(email)}` });
    expect(row!.changes).toEqual([{ field: 'Roles', before: 'content read', after: 'content write' }]);
    const logins = await list(admin, 'area=signIn&pageSize=5');
    expect(logins.items.length).toBeGreaterThan(0);
    for (const entry of logins.items) {
      expect(auditActionsOfArea('signIn').map((a) => a.action)).toContain(entry.action);
      expect(entry.label).not.toContain('.');
    }
  });
});

describe('values in words (issue 38)', () => {
  it('a price reads as money in its currency, as the History does, not as minor units', () => {
    expect(valueWords({ amount: 799, currency: 'USD' }, new Map())).toBe('7.99 USD');
    expect(valueWords({ amount: 500, currency: 'JPY' }, new Map())).toBe('500 JPY');
    expect(valueWords([{ amount: 849, currency: 'USD' }, { amount: 1299, currency: 'EUR' }], new Map())).toBe('8.49 USD, 12.99 EUR');
    // Not a price: another object with an amount keeps its fields.
    expect(valueWords({ amount: 3, unit: 'days' }, new Map())).toBe('amount 3, unit days');
    // Issue 38: an instant reads in the console's one format, in the site's zone, never as ISO text.
    expect(valueWords('2026-12-05T23:00:00.000Z', new Map(), 'America/New_York')).toBe('5 Dec 2026, 18:00');
    expect(valueWords('2026-12-05T23:00:00.000Z', new Map())).toBe('5 Dec 2026, 23:00');
    expect(valueWords('2026-12-05', new Map())).toBe('2026-12-05');
  });

  it('an account created without a mobile number: no "sent by SMS", no masked number in the audit log', async () => {
    const email = `audit-nophone-${randomUUID().slice(0, 8)}@test.local`;
    const created = await t.inject({
      method: 'POST', url: `${A}/staff`, headers: admin.headers,
      payload: { email, displayName: 'No Phone', phoneNumber: '', twoFactorOnLogin: false, roles: { Content: 'read' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json<{ message: string; staff: { id: string } }>();
    expect(body.message).toBe('Account created for No Phone. Give them the set-password link below.');
    expect(body.message).not.toContain('SMS');
    const entries = (await list(admin, `object=${body.staff.id}`)).items;
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(auditEntryWhat(entry)).not.toContain('******');
    const reset = await t.inject({ method: 'POST', url: `${A}/staff/${body.staff.id}/password-reset`, headers: admin.headers });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json<{ message: string }>().message).toBe('A new set-password link for No Phone is shown below once.');
  });
});

describe('field labels', () => {
  it('use the page\'s words for brand, settings and device fields, else the field name in words', () => {
    expect(fieldLabel('theme.primaryColor', 'brand')).toBe('Web primary colour');
    expect(fieldLabel('roku.minAppVersion', 'devices')).toBe('Roku minimum app version');
    expect(fieldLabel('web.enabled', 'devices')).toBe('Web browser enabled');
    expect(fieldLabel('trialDays', 'plan')).toBe('Trial days');
    expect(fieldLabel('displayName', 'staff')).toBe('Display name');
    // Issue 38: one mapping with the History panel: a nested brand field reads its page's label without the kind too.
    expect(fieldLabel('themeOtt.primaryColor')).toBe('OTT (TV) primary colour');
    expect(fieldLabel('seriesId', 'content')).toBe('Series');
    expect(fieldLabel('posterUrl', 'content')).toBe('Poster');
  });
});

describe('filters, paging and the export', () => {
  it('filters by area, action, actor and object; an action outside the area matches nothing', async () => {
    const appcms = await list(admin, 'area=appcms&pageSize=100');
    expect(appcms.items.length).toBeGreaterThan(0);
    expect(appcms.items.every((e) => e.area === 'appcms')).toBe(true);
    expect((await list(admin, 'area=appcms&action=login.success')).total).toBe(0);
    const byEditor = await list(admin, `who=${encodeURIComponent(editorName)}&pageSize=100`);
    expect(byEditor.items.length).toBeGreaterThanOrEqual(4);
    expect(byEditor.items.every((e) => e.actor?.username === editorName)).toBe(true);
    const brands = await list(admin, 'objectKind=brand&pageSize=100');
    expect(brands.items.every((e) => e.object?.kind === 'brand')).toBe(true);
  });

  it('exports every matching row, the same entries as the pages, as CSV', async () => {
    const query = `who=${encodeURIComponent(editorName)}`;
    const first = await list(admin, `${query}&pageSize=2&page=1`);
    const second = await list(admin, `${query}&pageSize=2&page=2`);
    const rest = await list(admin, `${query}&pageSize=100&page=1`);
    const res = await get(adminReader, `${A}/audit/export?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const exported = res.json<{ items: AuditLogEntry[]; total: number }>();
    expect(exported.total).toBe(rest.total);
    expect(exported.items).toEqual(rest.items);
    expect(exported.items.slice(0, 4)).toEqual([...first.items, ...second.items]);
    const csv = auditCsv(exported.items).trimEnd().split('\r\n');
    expect(csv[0]).toBe('When (ISO 8601 UTC),Who,Area,Action,Object,Changes');
    expect(csv).toHaveLength(exported.total + 1);
    expect(csv.some((line) => line.includes('brand of network Audit Kids Zone'))).toBe(true);
  });

  it('refuses bad filters with a message, never a 500', async () => {
    const area = await get(admin, `${A}/audit?area=nowhere`);
    expect(area.statusCode).toBe(400);
    expect(area.json()).toEqual({ success: false, message: AUDIT_LOG_MESSAGES.badArea });
    const date = await get(admin, `${A}/audit/export?from=2026-02-30`);
    expect(date.statusCode).toBe(400);
    expect(date.json().message).toBe(DATE_INPUT_MESSAGES.notADay('from'));
    expect(date.json().message).toBe('The "From" date is not a day of the calendar: enter it as year-month-day (YYYY-MM-DD), for example 2026-03-01.');
    const kind = await get(admin, `${A}/audit?objectKind=${'x'.repeat(41)}`);
    expect(kind.statusCode).toBe(400);
    expect((await list(admin, 'objectKind=nothing')).total).toBe(0);
  });
});

describe('roles and sites', () => {
  it('needs a role in Admin, and shows only the caller\'s site', async () => {
    expect((await get(contentOnly, `${A}/audit`)).statusCode).toBe(403);
    expect((await get(contentOnly, `${A}/audit/export`)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: `${A}/audit/export` })).statusCode).toBe(401);
    const theirs = await list(northwind, 'area=appcms&pageSize=100');
    expect(theirs.items.some((e) => e.object?.name?.startsWith('Audit '))).toBe(false);
    const exported = (await get(northwind, `${A}/audit/export?object=${encodeURIComponent('Audit Kids Zone')}`)).json<{ total: number }>();
    expect(exported.total).toBe(0);
  });
});

describe('retention', () => {
  it(`the housekeeping purge deletes rows older than ${AUDIT_RETENTION_DAYS} days and keeps the rest`, async () => {
    const now = new Date();
    const old = new Date(now.getTime() - (AUDIT_RETENTION_DAYS + 1) * 86_400_000);
    const kept = new Date(now.getTime() - (AUDIT_RETENTION_DAYS - 1) * 86_400_000);
    const marker = `retention-${randomUUID()}`;
    await t.db.insert(auditEvents).values([
      { at: old, action: 'logout', siteId, detail: { marker }, objectId: `${marker}-old` },
      { at: kept, action: 'logout', siteId, detail: { marker }, objectId: `${marker}-kept` },
    ]);
    await purgeExpired(t.db, now);
    const left = await t.db.select({ objectId: auditEvents.objectId }).from(auditEvents).where(and(eq(auditEvents.siteId, siteId), eq(auditEvents.action, 'logout')));
    const ids = left.map((r) => r.objectId);
    expect(ids).toContain(`${marker}-kept`);
    expect(ids).not.toContain(`${marker}-old`);
  });
});

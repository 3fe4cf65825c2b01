/**
 * Models and Service read one stored fact (issue 27): Monetization › Models (GraphQL
 * monetizationSettings) and AppCMS › Service (REST /v2.0/appcms/service) both read and write the
 * site's service types (`sites.service_types`, the main type `service_type` among them). Each
 * editor keeps its own version, and a write of the shared fields by either bumps both, so the
 * other editor's stale form gets a 409 instead of overwriting. Runs on a database of its own
 * (openIsolatedTestDb): it changes the demo site's service types.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_PATHS, type AppcmsService } from '../common/appcms';
import { AREAS, API_PATHS } from '../common/constants';
import { MONETIZATION_MESSAGES } from '../common/monetization-rules';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, sites } from './db/schema';
import { getSettings, MONETIZATION_AUDIT } from './domain/monetization';
import { createMonetizationStore } from './db/stores';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

interface Settings { isMonetizationModelEnabled: boolean; models: string[]; serviceType: string; version: number }
interface GraphqlBody {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary answer shapes
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

const SITE = DEMO_SITES.viewlift;
const SETTINGS = 'query { monetizationSettings { isMonetizationModelEnabled models serviceType version } }';
const SAVE = 'mutation($v: Int!, $input: MonetizationSettingsInput!) { monetizationSettingsSave(version: $v, input: $input) { isMonetizationModelEnabled models serviceType version } }';
const SERVICE_GET = 'query($site: String!) { serviceGet(site: $site) { serviceType serviceTypes isMonetizationModelEnabled } }';

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let editor: Session;
let reader: Session;
let siteId: string;
let editorId: string;

async function gql(session: Session, query: string, variables: Record<string, unknown> = {}) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<GraphqlBody>() };
}
const models = async (session: Session = editor) => (await gql(session, SETTINGS)).body.data!.monetizationSettings as Settings;
const saveModels = (v: number, list: string[], session: Session = editor, enabled = true) =>
  gql(session, SAVE, { v, input: { isMonetizationModelEnabled: enabled, models: list } });
const service = async (session: Session = editor) => (await t.get(`${APPCMS_PATHS.service}/${SITE}`, session.headers)).json<AppcmsService>();
const saveService = (body: Record<string, unknown>, session: Session = editor) =>
  t.inject({ method: 'PUT', url: `${APPCMS_PATHS.service}/${SITE}`, payload: body, headers: session.headers });
const stored = async () => {
  const [row] = await t.db.select({
    serviceType: sites.serviceType, serviceTypes: sites.serviceTypes, isMonetizationModelEnabled: sites.isMonetizationModelEnabled,
    monetizationVersion: sites.monetizationVersion, serviceVersion: sites.serviceVersion,
  }).from(sites).where(eq(sites.id, siteId));
  return row!;
};

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  const both = { [AREAS.subscriptionsOffers]: 'write', [AREAS.appCms]: 'write' } as const;
  const e = await t.createUser({ roles: both, prefix: 'one-fact-editor' });
  const r = await t.createUser({ roles: { [AREAS.subscriptionsOffers]: 'read', [AREAS.appCms]: 'read' }, prefix: 'one-fact-reader' });
  [editor, reader] = await Promise.all([t.login(e.username), t.login(r.username)]);
  editorId = e.id;
  siteId = (await t.siteByName(SITE)).id;
});

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describe('the demo site', () => {
  it('shows on its Models page the service types its Service page shows: SVOD, AVOD and TVOD, SVOD the main one', async () => {
    const settings = await getSettings(createMonetizationStore(t.db), { userId: editorId, siteId, roles: { [AREAS.subscriptionsOffers]: 'read' } });
    expect(settings).toMatchObject({ isMonetizationModelEnabled: true, models: ['SVOD', 'AVOD', 'TVOD'], serviceType: 'SVOD' });
    expect(await models()).toMatchObject({ models: ['SVOD', 'AVOD', 'TVOD'], serviceType: 'SVOD' });
    expect(await service()).toMatchObject({ serviceTypes: ['SVOD', 'AVOD', 'TVOD'], serviceType: 'SVOD' });
  });
});

describe('one stored fact, two editors', () => {
  it('answers a Models save on the Service page (and serviceGet), and a Service save on the Models page', async () => {
    const before = await models();
    const saved = await saveModels(before.version, ['SVOD', 'FAST']);
    expect(saved.body.data!.monetizationSettingsSave).toEqual({ isMonetizationModelEnabled: true, models: ['SVOD', 'FAST'], serviceType: 'SVOD', version: before.version + 1 });
    expect(await service()).toMatchObject({ serviceTypes: ['SVOD', 'FAST'], serviceType: 'SVOD' });
    expect((await gql(editor, SERVICE_GET, { site: SITE })).body.data!.serviceGet).toMatchObject({ serviceTypes: ['SVOD', 'FAST'], serviceType: 'SVOD' });

    const current = await service();
    const put = await saveService({ version: current.version, serviceType: 'AVOD', serviceTypes: ['AVOD', 'TVOD'], isMonetizationModelEnabled: false });
    expect(put.statusCode).toBe(200);
    expect(await models()).toMatchObject({ models: ['AVOD', 'TVOD'], serviceType: 'AVOD', isMonetizationModelEnabled: false });
  });

  it('bumps both versions on a Models save: the Service page\'s stale form gets a 409 and writes nothing', async () => {
    const form = await service();
    const settings = await models();
    const before = await stored();
    expect((await saveModels(settings.version, ['SVOD', 'AVOD', 'TVOD'])).status).toBe(200);
    const after = await stored();
    expect(after).toMatchObject({ monetizationVersion: before.monetizationVersion + 1, serviceVersion: before.serviceVersion + 1 });
    const stale = await saveService({ version: form.version, serviceTypes: [form.serviceType], serviceName: 'Stale' });
    expect(stale.statusCode).toBe(409);
    expect(await stored()).toEqual(after);
    expect((await service()).serviceName).not.toBe('Stale');
  });

  it('bumps both versions on a Service save of the shared fields: the Models page\'s stale form gets a 409 and writes nothing', async () => {
    const form = await models();
    const current = await service();
    const before = await stored();
    expect((await saveService({ version: current.version, serviceTypes: ['SVOD', 'AVOD', 'TVOD', 'FAST'] })).statusCode).toBe(200);
    const after = await stored();
    expect(after).toMatchObject({ monetizationVersion: before.monetizationVersion + 1, serviceVersion: before.serviceVersion + 1 });
    const stale = await saveModels(form.version, ['TVOD']);
    expect(stale.status).toBe(409);
    expect(stale.body.errors![0]).toMatchObject({ message: MONETIZATION_MESSAGES.conflict, extensions: { code: 'CONFLICT' } });
    expect(await stored()).toEqual(after);
  });

  it('keeps the Models version on a Service save of fields the Models page does not show', async () => {
    const current = await service();
    const before = await stored();
    expect((await saveService({ version: current.version, serviceName: 'ViewLift Demo TV' })).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ monetizationVersion: before.monetizationVersion, serviceVersion: before.serviceVersion + 1 });
  });

  it('moves the main type to the first remaining one (SERVICE_TYPES order) when a Models save removes it, and says so in the audit', async () => {
    const current = await service();
    expect((await saveService({ version: current.version, serviceType: 'SVOD', serviceTypes: ['SVOD', 'AVOD', 'TVOD', 'FAST'] })).statusCode).toBe(200);
    const settings = await models();
    expect(settings.serviceType).toBe('SVOD');
    const saved = await saveModels(settings.version, ['FAST', 'TVOD']);
    expect(saved.body.data!.monetizationSettingsSave).toMatchObject({ models: ['FAST', 'TVOD'], serviceType: 'TVOD' });
    expect(await service()).toMatchObject({ serviceTypes: ['FAST', 'TVOD'], serviceType: 'TVOD' });
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.action, MONETIZATION_AUDIT.settingsUpdate)).orderBy(asc(auditEvents.seq));
    expect(audits.at(-1)?.detail).toMatchObject({ mainTypeMoved: { from: 'SVOD', to: 'TVOD' } });
    // A save that keeps the main type does not move it (and says nothing of a move).
    const kept = await saveModels(settings.version + 1, ['SVOD', 'TVOD']);
    expect(kept.body.data!.monetizationSettingsSave).toMatchObject({ serviceType: 'TVOD' });
    const last = await t.db.select().from(auditEvents).where(eq(auditEvents.action, MONETIZATION_AUDIT.settingsUpdate)).orderBy(asc(auditEvents.seq));
    expect(last.at(-1)?.detail).not.toHaveProperty('mainTypeMoved');
  });

  it('refuses an empty list with a 400 naming the field, whether monetization is on or off, and writes nothing', async () => {
    const settings = await models();
    const before = await stored();
    for (const enabled of [true, false]) {
      const refused = await saveModels(settings.version, [], editor, enabled);
      expect(refused.status).toBe(400);
      expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { models: MONETIZATION_MESSAGES.modelsRequired } });
    }
    const unknown = await saveModels(settings.version, ['subscription']);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.extensions?.fields).toEqual({ models: MONETIZATION_MESSAGES.modelUnknown });
    expect(await stored()).toEqual(before);
  });

  it('refuses read-only roles on both editors (403) and changes nothing', async () => {
    const settings = await models(reader);
    const form = await service(reader);
    const before = await stored();
    const refused = await saveModels(settings.version, ['AVOD'], reader);
    expect(refused.status).toBe(403);
    expect(refused.body.errors![0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const put = await saveService({ version: form.version, serviceType: 'AVOD', serviceTypes: ['AVOD'] }, reader);
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ success: false, message: OWN_MESSAGES.forbidden });
    expect(await stored()).toEqual(before);
  });
});

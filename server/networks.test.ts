/**
 * Networks over the management GraphQL API and the per-network REST reads: roles, tenant isolation,
 * the default-network rule, the copy transaction and its rollback, audit records, and bad input.
 * State-changing tests work on networks they create, so the shared PostgreSQL run stays clean.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { createNetworkRepository } from './db/network-repository';
import { auditEvents, networkBrands, networkDevices, networkSettings, networks, staffUsers } from './db/schema';
import type { ThemeColors } from '../common/contract';
import { AUDIT_ACTIONS, copyFromDefault, withoutNumericStatus, type NetworkCaller } from './domain/networks';
import { MAX_QUERY_COST, QUERY_TOO_COMPLEX, validationRulesFor } from './graphql/limits';
import { managementSchema } from './graphql/schema';
import { createTestApp, SERVICE_GET, type Session, type TestApp } from './test/kit';

const PUBLISH = `mutation networkPublish($site: String!, $network: String!) {
  networkPublish(site: $site, network: $network) { success }
}`;
const COPY = `mutation networkCopyFromDefault($req: NetworkCopyInput!) {
  networkCopyFromDefault(req: $req) { success network { identifier name isActive isDefault } }
}`;
const ALL_BRAND = { logoAndIcons: true, theme: true, themeOtt: true, themeApps: true };

interface GraphqlBody<T = Record<string, unknown>> {
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

let t: TestApp;
let admin: Session;
let reader: Session;
let contentOnly: Session;
let northwind: Session;

function graphql(session: Session | null, operationName: string, query: string, variables: Record<string, unknown>) {
  return t.inject({
    method: 'POST',
    url: API_PATHS.graphql,
    headers: session?.headers ?? {},
    payload: { operationName, variables, query },
  });
}

const theme = (primaryColor: string): ThemeColors => ({
  primaryColor, secondaryColor: '#222222', backgroundColor: '#fafafa', textColor: '#000000', fontFamily: 'Test Sans',
});

/** A fresh non-default network of a demo site with its own brand, settings and devices. */
async function createNetwork(siteName: string = DEMO_SITES.viewlift) {
  const site = await t.siteByName(siteName);
  const identifier = `test-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.insert(networks).values({
    siteId: site.id, identifier, name: `Test ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false,
  }).returning();
  if (!row) throw new Error('network insert failed');
  await t.db.insert(networkBrands).values({
    networkId: row.id, logoUrl: '/test-logo.png', iconUrl: '/test-icon.png',
    theme: theme('#aa0000'), themeOtt: theme('#bb0000'), themeApps: theme('#cc0000'),
  });
  await t.db.insert(networkSettings).values({ networkId: row.id, values: { defaultLanguage: 'de', maxStreams: 9, status: 7 } });
  await t.db.insert(networkDevices).values({ networkId: row.id, devices: [{ platform: 'tv', name: 'Test TV', enabled: true, minAppVersion: '9.9.9' }] });
  return { id: row.id, identifier, name: row.name, siteId: site.id };
}

async function defaultNetworkOf(siteName: string) {
  const site = await t.siteByName(siteName);
  const [row] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
  if (!row) throw new Error('no default network');
  return row;
}

const brandOf = async (networkId: string) => (await t.db.select().from(networkBrands).where(eq(networkBrands.networkId, networkId)))[0];
const settingsOf = async (networkId: string) => (await t.db.select().from(networkSettings).where(eq(networkSettings.networkId, networkId)))[0];
const networkRow = async (networkId: string) => (await t.db.select().from(networks).where(eq(networks.id, networkId)))[0];
const auditFor = (identifier: string) => t.db.select().from(auditEvents).where(eq(auditEvents.networkIdentifier, identifier));

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  [admin, reader, contentOnly, northwind] = await Promise.all([
    t.login('admin@demo.test'),
    t.login('appcms-reader@demo.test'),
    t.login('content@demo.test'),
    t.login('admin@northwind.test'),
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('serviceGet', () => {
  it('returns the caller\'s service with its networks, default first, plus siteBaseUrl and backendUrl', async () => {
    const res = await graphql(reader, 'serviceGet', SERVICE_GET, { site: DEMO_SITES.viewlift });
    expect(res.statusCode).toBe(200);
    const body = res.json<GraphqlBody<{ serviceGet: { siteInternalName: string; siteBaseUrl: string; backendUrl: string; networks: { identifier: string; isDefault: boolean }[] } }>>();
    expect(body.errors).toBeUndefined();
    const service = body.data!.serviceGet;
    expect(service.siteInternalName).toBe(DEMO_SITES.viewlift);
    expect(service.siteBaseUrl).toMatch(/^https:\/\//);
    expect(service.backendUrl).toMatch(/^https:\/\//);
    expect(service.networks[0]).toMatchObject({ identifier: 'viewlift-main', isDefault: true });
    expect(service.networks.map((n) => n.identifier)).toEqual(expect.arrayContaining(['viewlift-main', 'sports-plus', 'kids-zone', 'docs-channel']));
    expect(service.networks.filter((n) => n.isDefault)).toHaveLength(1);
  });

  it('answers 401 without a token or without the API key', async () => {
    const anonymous = await graphql(null, 'serviceGet', SERVICE_GET, { site: DEMO_SITES.viewlift });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<GraphqlBody>().errors?.[0]).toMatchObject({ message: OWN_MESSAGES.unauthorized, extensions: { code: 'UNAUTHENTICATED' } });
    const noKey = await t.inject({
      method: 'POST', url: API_PATHS.graphql, headers: { authorization: admin.headers.authorization! },
      payload: { operationName: 'serviceGet', variables: { site: DEMO_SITES.viewlift }, query: SERVICE_GET },
    });
    expect(noKey.statusCode).toBe(401);
  });

  it('refuses a user without a role in App CMS', async () => {
    const res = await graphql(contentOnly, 'serviceGet', SERVICE_GET, { site: DEMO_SITES.viewlift });
    expect(res.statusCode).toBe(403);
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe(OWN_MESSAGES.forbidden);
  });
});

describe('tenant isolation', () => {
  it('answers another site exactly like a site that does not exist', async () => {
    const other = await graphql(northwind, 'serviceGet', SERVICE_GET, { site: DEMO_SITES.viewlift });
    const missing = await graphql(northwind, 'serviceGet', SERVICE_GET, { site: 'no-such-site' });
    expect(other.statusCode).toBe(404);
    expect(other.json<GraphqlBody>()).toEqual(missing.json<GraphqlBody>());
    expect(other.json<GraphqlBody>().errors?.[0]?.message).toBe(MESSAGES.siteNotFound);
  });

  it('does not let a user of site A launch or copy onto site B\'s networks', async () => {
    const target = await createNetwork(DEMO_SITES.viewlift);
    const publish = await graphql(northwind, 'networkPublish', PUBLISH, { site: DEMO_SITES.viewlift, network: target.identifier });
    expect(publish.json<GraphqlBody>().errors?.[0]?.message).toBe(MESSAGES.siteNotFound);
    const copy = await graphql(northwind, 'networkCopyFromDefault', COPY, {
      req: { site: DEMO_SITES.viewlift, network: target.identifier, networkBrand: ALL_BRAND, networkSettings: true },
    });
    expect(copy.json<GraphqlBody>().errors?.[0]?.message).toBe(MESSAGES.siteNotFound);
    // Naming its own site does not reach the other site's network either.
    const ownSite = await graphql(northwind, 'networkPublish', PUBLISH, { site: DEMO_SITES.northwind, network: target.identifier });
    expect(ownSite.json<GraphqlBody>().errors?.[0]?.message).toBe(MESSAGES.networkNotFound(target.identifier));
    expect((await networkRow(target.id))?.isActive).toBe(false);
    expect((await brandOf(target.id))?.theme.primaryColor).toBe('#aa0000');
    expect(await auditFor(target.identifier)).toHaveLength(0);
  });

  it('does not let a user of site A read site B\'s per-network data over REST', async () => {
    const other = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}/brand/kids-zone`, northwind.headers);
    const missing = await t.get(`${API_PATHS.appcmsNetworkData}/no-such-site/brand/kids-zone`, northwind.headers);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, message: MESSAGES.siteNotFound });
    expect(missing.json()).toEqual(other.json());
    const crossNetwork = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.northwind}/brand/kids-zone`, northwind.headers);
    expect(crossNetwork.json()).toEqual({ success: false, message: MESSAGES.networkNotFound('kids-zone') });
  });
});

describe('networkPublish', () => {
  it('launches a network, answers success and records who launched which network', async () => {
    const target = await createNetwork();
    const res = await graphql(admin, 'networkPublish', PUBLISH, { site: DEMO_SITES.viewlift, network: target.identifier });
    expect(res.json<GraphqlBody>()).toEqual({ data: { networkPublish: { success: true } } });
    expect((await networkRow(target.id))?.isActive).toBe(true);
    const [adminRow] = await t.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin@demo.test'));
    const [audit] = await auditFor(target.identifier);
    expect(audit).toMatchObject({ action: AUDIT_ACTIONS.publish, actorUserId: adminRow?.id, siteId: target.siteId });
    expect(audit?.at).toBeInstanceOf(Date);
  });

  it('refuses a user with only read access to App CMS', async () => {
    const target = await createNetwork();
    const res = await graphql(reader, 'networkPublish', PUBLISH, { site: DEMO_SITES.viewlift, network: target.identifier });
    expect(res.statusCode).toBe(403);
    expect(res.json<GraphqlBody>().errors?.[0]).toMatchObject({ message: OWN_MESSAGES.forbidden, extensions: { code: 'FORBIDDEN' } });
    expect((await networkRow(target.id))?.isActive).toBe(false);
  });

  it('refuses the default network with "{name} is the default network."', async () => {
    const main = await defaultNetworkOf(DEMO_SITES.viewlift);
    const res = await graphql(admin, 'networkPublish', PUBLISH, { site: DEMO_SITES.viewlift, network: main.identifier });
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe('ViewLift Main is the default network.');
    expect(res.statusCode).toBe(409);
  });

  it('answers an unknown network with "Network with identifier {id} not found"', async () => {
    const res = await graphql(admin, 'networkPublish', PUBLISH, { site: DEMO_SITES.viewlift, network: 'nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe('Network with identifier nope not found');
  });
});

describe('networkCopyFromDefault', () => {
  it('makes the target\'s brand equal the default\'s and leaves its settings alone', async () => {
    const target = await createNetwork();
    const main = await defaultNetworkOf(DEMO_SITES.viewlift);
    const res = await graphql(admin, 'networkCopyFromDefault', COPY, {
      req: { site: DEMO_SITES.viewlift, network: target.identifier, networkBrand: ALL_BRAND, networkSettings: false },
    });
    expect(res.json<GraphqlBody>()).toEqual({
      data: { networkCopyFromDefault: { success: true, network: { identifier: target.identifier, name: target.name, isActive: false, isDefault: false } } },
    });
    const [from, to] = await Promise.all([brandOf(main.id), brandOf(target.id)]);
    const visible = (b: typeof from) => b && { logoUrl: b.logoUrl, iconUrl: b.iconUrl, theme: b.theme, themeOtt: b.themeOtt, themeApps: b.themeApps };
    expect(visible(to)).toEqual(visible(from));
    expect((await settingsOf(target.id))?.values).toMatchObject({ defaultLanguage: 'de', maxStreams: 9 });
    const [audit] = await auditFor(target.identifier);
    expect(audit).toMatchObject({ action: AUDIT_ACTIONS.copyFromDefault, siteId: target.siteId, detail: { from: main.identifier, networkSettings: false } });

    // The per-network read shows the default's theme for that network now.
    const read = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}/brand/${target.identifier}`, reader.headers);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ network: target.identifier, theme: from?.theme });
  });

  it('copies only the parts of the brand asked for', async () => {
    const target = await createNetwork();
    const main = await defaultNetworkOf(DEMO_SITES.viewlift);
    await graphql(admin, 'networkCopyFromDefault', COPY, {
      req: { site: DEMO_SITES.viewlift, network: target.identifier, networkBrand: { logoAndIcons: false, theme: true, themeOtt: false, themeApps: false } },
    });
    const [from, to] = await Promise.all([brandOf(main.id), brandOf(target.id)]);
    expect(to?.theme).toEqual(from?.theme);
    expect(to?.logoUrl).toBe('/test-logo.png');
    expect(to?.themeOtt.primaryColor).toBe('#bb0000');
  });

  it('copies settings from the default network', async () => {
    const target = await createNetwork();
    const main = await defaultNetworkOf(DEMO_SITES.viewlift);
    const res = await graphql(admin, 'networkCopyFromDefault', COPY, { req: { site: DEMO_SITES.viewlift, network: target.identifier, networkSettings: true } });
    expect(res.json<GraphqlBody>().errors).toBeUndefined();
    expect((await settingsOf(target.id))?.values).toEqual((await settingsOf(main.id))?.values);
    expect((await brandOf(target.id))?.theme.primaryColor).toBe('#aa0000');
  });

  it('refuses a user with only read access to App CMS', async () => {
    const target = await createNetwork();
    const res = await graphql(reader, 'networkCopyFromDefault', COPY, {
      req: { site: DEMO_SITES.viewlift, network: target.identifier, networkBrand: ALL_BRAND, networkSettings: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe(OWN_MESSAGES.forbidden);
    expect((await brandOf(target.id))?.theme.primaryColor).toBe('#aa0000');
  });

  it('refuses to copy onto the default network', async () => {
    const main = await defaultNetworkOf(DEMO_SITES.viewlift);
    const before = await brandOf(main.id);
    const res = await graphql(admin, 'networkCopyFromDefault', COPY, {
      req: { site: DEMO_SITES.viewlift, network: main.identifier, networkBrand: ALL_BRAND, networkSettings: true },
    });
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe('ViewLift Main is the default network.');
    expect(await brandOf(main.id)).toEqual(before);
  });

  it('leaves the target unchanged when the copy fails half-way (one transaction)', async () => {
    const target = await createNetwork();
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const [brandBefore, settingsBefore] = await Promise.all([brandOf(target.id), settingsOf(target.id)]);
    const caller: NetworkCaller = { userId: randomUUID(), siteId: site.id, roles: { 'App CMS': 'write' } };
    const steps: string[] = [];
    await expect(copyFromDefault(createNetworkRepository(t.db), caller, {
      site: DEMO_SITES.viewlift, network: target.identifier, networkBrand: ALL_BRAND, networkSettings: true,
    }, {
      afterStep: (step) => {
        steps.push(step);
        if (step === 'brand') throw new Error('injected failure after the brand write');
      },
    })).rejects.toThrow('injected failure');
    expect(steps).toEqual(['brand']);
    expect(await brandOf(target.id)).toEqual(brandBefore);
    expect(await settingsOf(target.id)).toEqual(settingsBefore);
    expect(await auditFor(target.identifier)).toHaveLength(0);
  });
});

describe('per-network reads (REST)', () => {
  it('returns settings, brand and devices of a network to an App CMS reader, without a numeric status', async () => {
    const target = await createNetwork();
    const base = `${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}`;
    const settings = await t.get(`${base}/settings/${target.identifier}`, reader.headers);
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ network: target.identifier, defaultLanguage: 'de', maxStreams: 9 });
    expect(settings.json()).not.toHaveProperty('status');
    const brand = await t.get(`${base}/brand/${target.identifier}`, reader.headers);
    expect(brand.json()).toMatchObject({ logoUrl: '/test-logo.png', theme: { primaryColor: '#aa0000' } });
    const devices = await t.get(`${base}/device/${target.identifier}`, reader.headers);
    expect(devices.json()).toMatchObject({ devices: [{ platform: 'tv', name: 'Test TV' }] });
  });

  it('answers a bad kind with 400 and a JSON message', async () => {
    const res = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}/logos/kids-zone`, reader.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.badRequest });
  });

  it('needs the credentials and a role in App CMS', async () => {
    const url = `${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}/brand/kids-zone`;
    expect((await t.get(url)).statusCode).toBe(401);
    expect((await t.get(url, { authorization: reader.headers.authorization! })).statusCode).toBe(401);
    const content = await t.get(url, contentOnly.headers);
    expect(content.statusCode).toBe(403);
    expect(content.json()).toEqual({ success: false, message: OWN_MESSAGES.forbidden });
  });

  it('answers an over-long identifier with a 4xx, not 500', async () => {
    const res = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.viewlift}/brand/${'x'.repeat(300)}`, reader.headers);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('drops only a numeric status field', () => {
    expect(withoutNumericStatus({ a: 1, status: 200 })).toEqual({ a: 1 });
    expect(withoutNumericStatus({ a: 1, status: 'draft' })).toEqual({ a: 1, status: 'draft' });
  });
});

describe('bad input and limits never give a 500', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['a copy that asks for nothing', { operationName: 'networkCopyFromDefault', query: COPY, variables: { req: { site: DEMO_SITES.viewlift, network: 'kids-zone' } } }],
    ['a variable of the wrong type', { operationName: 'networkCopyFromDefault', query: COPY, variables: { req: { site: DEMO_SITES.viewlift, network: 'kids-zone', networkSettings: 'yes' } } }],
    ['a missing variable', { operationName: 'networkPublish', query: PUBLISH, variables: {} }],
    ['a query that does not parse', { query: 'mutation { networkPublish(' }],
    ['an unknown field', { query: '{ serviceGet(site: "x") { nope } }' }],
    ['an empty site', { operationName: 'networkPublish', query: PUBLISH, variables: { site: '', network: 'kids-zone' } }],
    ['no query at all', {}],
  ];
  for (const [name, payload] of cases) {
    // Execution-time errors keep GraphQL-over-HTTP's 200; what matters is an error, never a 500.
    it(`answers ${name} with a GraphQL error and no 500`, async () => {
      const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: admin.headers, payload });
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json<GraphqlBody>().errors?.[0]?.message).toEqual(expect.any(String));
    });
  }

  it('answers a copy that asks for nothing with "The request is not valid."', async () => {
    const res = await graphql(admin, 'networkCopyFromDefault', COPY, { req: { site: DEMO_SITES.viewlift, network: 'kids-zone' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<GraphqlBody>().errors?.[0]?.message).toBe(OWN_MESSAGES.badRequest);
  });

  it('refuses mutations over GET', async () => {
    const query = encodeURIComponent(`mutation { networkPublish(site: "${DEMO_SITES.viewlift}", network: "kids-zone") { success } }`);
    const res = await t.get(`${API_PATHS.graphql}?query=${query}`, admin.headers);
    expect(res.statusCode).toBe(405);
  });

  it('refuses a query deeper than the depth limit', async () => {
    const deep = '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }';
    const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: admin.headers, payload: { query: deep } });
    expect(res.statusCode).toBe(400);
  });

  it(`refuses a query costing more than ${MAX_QUERY_COST} fields with "${QUERY_TOO_COMPLEX}"`, async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: serviceGet(site: "${DEMO_SITES.viewlift}") { id networks { name identifier } }`).join('\n');
    const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: admin.headers, payload: { query: `{ ${aliases} }` } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(QUERY_TOO_COMPLEX);
  });

  it('turns introspection off in production only', () => {
    const schema = buildSchema(managementSchema);
    const document = parse('{ __schema { queryType { name } } }');
    expect(validate(schema, document, validationRulesFor(false).map((rule) => rule))).toEqual([]);
    expect(validate(schema, document, validationRulesFor(true))).not.toEqual([]);
  });
});

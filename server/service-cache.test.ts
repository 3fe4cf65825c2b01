/**
 * The per-site cache of the service and its networks (server/db/service-cache.ts, issue 21):
 * after a launch, a copy and every AppCMS or monetization write that changes what serviceGet or a
 * per-network read answers, the next read in this process shows the change; two sites never share
 * an entry; a read role sees what a write role sees; serviceGet is one query, and none when cached.
 *
 * The tests work on a site of their own (created here), so no other test file's data changes and
 * no other file's writes change what these tests see. Rows inserted with SQL here bypass the domain,
 * so the helper drops the cache entry itself, like any write outside this process would need to.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_PATHS, type AppcmsBrand, type AppcmsService, type AppcmsSettings } from '../common/appcms';
import { API_PATHS } from '../common/constants';
import type { Service, ThemeColors } from '../common/contract';
import { MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import type { Db } from './db/client';
import { createNetworkRepository } from './db/network-repository';
import { networkBrands, networkDevices, networkSettings, networks, sites } from './db/schema';
import { getService, type NetworkCaller } from './domain/networks';
import { createServiceCache, serviceCacheOf, type ServiceSnapshot } from './db/service-cache';
import { createTestApp, SERVICE_GET, type Session, type TestApp } from './test/kit';

const PUBLISH = 'mutation p($site: String!, $network: String!) { networkPublish(site: $site, network: $network) { success } }';
const COPY = 'mutation c($req: NetworkCopyInput!) { networkCopyFromDefault(req: $req) { success } }';
const MONETIZATION_READ = 'query { monetizationSettings { isMonetizationModelEnabled models version } }';
const MONETIZATION_SAVE = 'mutation($v: Int!, $input: MonetizationSettingsInput!) { monetizationSettingsSave(version: $v, input: $input) { isMonetizationModelEnabled version } }';

let t: TestApp;
let site: { id: string; name: string };
let writer: Session;
let reader: Session;
let northwind: Session;

const theme = (primaryColor: string): ThemeColors => ({
  primaryColor, secondaryColor: '#222222', backgroundColor: '#FAFAFA', textColor: '#000000', fontFamily: 'Inter',
});

async function graphql<T>(session: Session, query: string, variables: Record<string, unknown> = {}) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  return res.json<{ data: T | null; errors?: { message: string }[] }>();
}

async function serviceGet(session: Session, siteName = site.name): Promise<Service> {
  const body = await graphql<{ serviceGet: Service }>(session, SERVICE_GET, { site: siteName });
  expect(body.errors).toBeUndefined();
  return body.data!.serviceGet;
}

const networkOf = async (session: Session, identifier: string) => (await serviceGet(session)).networks.find((n) => n.identifier === identifier);
const read = async (session: Session, kind: 'brand' | 'settings' | 'device', identifier: string) => {
  const res = await t.get(`${API_PATHS.appcmsNetworkData}/${site.name}/${kind}/${identifier}`, session.headers);
  expect(res.statusCode).toBe(200);
  return res.json<Record<string, unknown>>();
};
const put = (url: string, body: unknown, session: Session) => t.inject({ method: 'PUT', url, payload: body as Record<string, unknown>, headers: session.headers });

/** A network of the test site with its brand, settings and devices (SQL, so the entry is dropped by hand). */
async function createNetwork(isDefault = false) {
  const identifier = `sc-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.insert(networks).values({
    siteId: site.id, identifier, name: `Cache ${identifier}`, image: '/logo.svg', isActive: false, isDefault,
  }).returning();
  if (!row) throw new Error('network insert failed');
  await t.db.insert(networkBrands).values({
    networkId: row.id, logoUrl: `/${identifier}-logo.png`, iconUrl: '/icon.png',
    theme: theme(isDefault ? '#0000AA' : '#AA0000'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000'),
  });
  await t.db.insert(networkSettings).values({ networkId: row.id, values: { defaultLanguage: isDefault ? 'en' : 'de', maxStreams: isDefault ? 4 : 2 } });
  await t.db.insert(networkDevices).values({ networkId: row.id, devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' }] });
  serviceCacheOf(t.db).invalidateSite(site.id);
  return { id: row.id, identifier };
}

beforeAll(async () => {
  t = await createTestApp({ demo: true, config: { serviceCacheMs: 60_000 } });
  const template = await t.siteByName(DEMO_SITES.viewlift);
  const name = `cache-${randomUUID().slice(0, 8)}`;
  const { id: _id, signingKey: _key, signingKeyRotatedAt: _at, ...rest } = template;
  void _id; void _key; void _at;
  const [row] = await t.db.insert(sites).values({
    ...rest, siteInternalName: name, serviceName: 'Cache TV', managementApiKey: `key-${randomUUID()}`, isMonetizationModelEnabled: false,
    monetizationVersion: 1, serviceVersion: 1,
  }).returning({ id: sites.id });
  site = { id: row!.id, name };
  await createNetwork(true);
  const write = await t.createUser({ site: name, roles: { 'App CMS': 'write', 'Subscriptions & Offers': 'write' }, prefix: 'cache-writer' });
  const look = await t.createUser({ site: name, roles: { 'App CMS': 'read' }, prefix: 'cache-reader' });
  [writer, reader, northwind] = await Promise.all([t.login(write.username), t.login(look.username), t.login('admin@northwind.test')]);
});

afterAll(async () => {
  await t?.close();
});

describe('the service cache serves no stale data after a write in this process', () => {
  it('is filled by serviceGet and used by the next one', async () => {
    serviceCacheOf(t.db).invalidateSite(site.id);
    const first = await serviceGet(reader);
    let loads = 0;
    const cached = await serviceCacheOf(t.db).snapshot(site.id, async () => { loads++; return undefined; });
    expect(loads).toBe(0);
    expect(cached?.site.siteInternalName).toBe(site.name);
    expect(await serviceGet(reader)).toEqual(first);
  });

  it('shows a launch at once', async () => {
    const n = await createNetwork();
    expect((await networkOf(reader, n.identifier))?.isActive).toBe(false);
    const res = await graphql(writer, PUBLISH, { site: site.name, network: n.identifier });
    expect(res.errors).toBeUndefined();
    expect((await networkOf(reader, n.identifier))?.isActive).toBe(true);
  });

  it('shows a copy from the default network at once (brand and settings)', async () => {
    const n = await createNetwork();
    expect(await read(reader, 'brand', n.identifier)).toMatchObject({ theme: { primaryColor: '#AA0000' } });
    expect(await read(reader, 'settings', n.identifier)).toMatchObject({ defaultLanguage: 'de', maxStreams: 2 });
    const res = await graphql(writer, COPY, { req: { site: site.name, network: n.identifier, networkBrand: { logoAndIcons: false, theme: true, themeOtt: false, themeApps: false }, networkSettings: true } });
    expect(res.errors).toBeUndefined();
    expect(await read(reader, 'brand', n.identifier)).toMatchObject({ theme: { primaryColor: '#0000AA' } });
    expect(await read(reader, 'settings', n.identifier)).toMatchObject({ defaultLanguage: 'en', maxStreams: 4 });
  });

  it('shows an AppCMS brand save at once', async () => {
    const n = await createNetwork();
    expect(await read(reader, 'brand', n.identifier)).toMatchObject({ logoUrl: `/${n.identifier}-logo.png` });
    const url = `${APPCMS_PATHS.brand}/${site.name}/${n.identifier}`;
    const brand = (await t.get(url, writer.headers)).json<AppcmsBrand>();
    expect((await put(url, { ...brand, logoUrl: '/new-logo.png' }, writer)).statusCode).toBe(200);
    expect(await read(reader, 'brand', n.identifier)).toMatchObject({ logoUrl: '/new-logo.png' });
  });

  it('shows an AppCMS settings save and a restore at once', async () => {
    const n = await createNetwork();
    expect(await read(reader, 'settings', n.identifier)).toMatchObject({ maxStreams: 2 });
    const url = `${APPCMS_PATHS.settings}/${site.name}/${n.identifier}`;
    const saved = await put(url, { version: 1, values: { maxStreams: 7 } }, writer);
    expect(saved.json<AppcmsSettings>().version).toBe(2);
    expect(await read(reader, 'settings', n.identifier)).toMatchObject({ maxStreams: 7 });
    const restored = await t.post(`${APPCMS_PATHS.settingsRestore}/${site.name}/${n.identifier}`, { version: 2, restore: 1 }, writer.headers);
    expect(restored.statusCode).toBe(200);
    expect(await read(reader, 'settings', n.identifier)).toMatchObject({ maxStreams: 2 });
  });

  it('shows an AppCMS devices save at once', async () => {
    const n = await createNetwork();
    expect(await read(reader, 'device', n.identifier)).toMatchObject({ devices: [{ platform: 'web', enabled: true }] });
    const url = `${APPCMS_PATHS.devices}/${site.name}/${n.identifier}`;
    expect((await put(url, { version: 1, devices: [{ platform: 'web', enabled: false, minAppVersion: '2.0.0' }] }, writer)).statusCode).toBe(200);
    expect(await read(reader, 'device', n.identifier)).toMatchObject({ devices: [{ platform: 'web', enabled: false, minAppVersion: '2.0.0' }] });
  });

  it('shows an AppCMS service save at once', async () => {
    expect((await serviceGet(reader)).serviceName).toBe('Cache TV');
    const url = `${APPCMS_PATHS.service}/${site.name}`;
    const service = (await t.get(url, writer.headers)).json<AppcmsService>();
    const saved = await put(url, { version: service.version, serviceName: 'Cache TV Plus', forceLogin: !service.forceLogin }, writer);
    expect(saved.statusCode).toBe(200);
    expect(await serviceGet(reader)).toMatchObject({ serviceName: 'Cache TV Plus', forceLogin: !service.forceLogin });
  });

  it('shows a monetization settings save (isMonetizationModelEnabled) at once', async () => {
    expect((await serviceGet(reader)).isMonetizationModelEnabled).toBe(false);
    const settings = (await graphql<{ monetizationSettings: { models: string[]; version: number } }>(writer, MONETIZATION_READ)).data!.monetizationSettings;
    const saved = await graphql(writer, MONETIZATION_SAVE, { v: settings.version, input: { isMonetizationModelEnabled: true, models: ['SVOD'] } });
    expect(saved.errors).toBeUndefined();
    expect((await serviceGet(reader)).isMonetizationModelEnabled).toBe(true);
  });

  it('shows a network added outside this process on the per-network read at once (not in the cached list: asks the database)', async () => {
    await serviceGet(reader);
    const identifier = `sc-out-${randomUUID().slice(0, 6)}`;
    const [row] = await t.db.insert(networks).values({ siteId: site.id, identifier, name: `Out ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false }).returning();
    await t.db.insert(networkBrands).values({ networkId: row!.id, logoUrl: '/out.png', iconUrl: '/i.png', theme: theme('#010101'), themeOtt: theme('#020202'), themeApps: theme('#030303') });
    expect(await read(reader, 'brand', identifier)).toMatchObject({ network: identifier, logoUrl: '/out.png' });
    expect((await networkOf(reader, identifier))?.name).toBe(`Out ${identifier}`);
  });
});

describe('sites and roles', () => {
  it('never shares an entry between two sites', async () => {
    const own = await serviceGet(reader);
    const other = await serviceGet(northwind, DEMO_SITES.northwind);
    expect(other.id).not.toBe(own.id);
    expect(other.siteInternalName).toBe(DEMO_SITES.northwind);
    expect(other.networks.map((n) => n.identifier)).not.toEqual(expect.arrayContaining(own.networks.map((n) => n.identifier)));
    // The other site's user naming this (cached) site gets exactly what a missing site gets.
    const cross = await graphql(northwind, SERVICE_GET, { site: site.name });
    expect(cross.errors?.[0]?.message).toBe(MESSAGES.siteNotFound);
    const network = own.networks[0]!.identifier;
    const crossRead = await t.get(`${API_PATHS.appcmsNetworkData}/${site.name}/brand/${network}`, northwind.headers);
    expect(crossRead.statusCode).toBe(404);
    const ownSiteName = await t.get(`${API_PATHS.appcmsNetworkData}/${DEMO_SITES.northwind}/brand/${network}`, northwind.headers);
    expect(ownSiteName.json()).toEqual({ success: false, message: MESSAGES.networkNotFound(network) });
  });

  it('gives a read role the same answer as a write role, before and after a write', async () => {
    const n = await createNetwork();
    expect(await serviceGet(reader)).toEqual(await serviceGet(writer));
    expect(await read(reader, 'brand', n.identifier)).toEqual(await read(writer, 'brand', n.identifier));
    await graphql(writer, PUBLISH, { site: site.name, network: n.identifier });
    const [fromReader, fromWriter] = [await serviceGet(reader), await serviceGet(writer)];
    expect(fromReader).toEqual(fromWriter);
    expect(fromReader.networks.find((x) => x.identifier === n.identifier)?.isActive).toBe(true);
  });
});

/** A Db whose `select` calls are counted (every repository read starts with one). */
function counting(db: Db): { db: Db; selects: () => number } {
  let selects = 0;
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key === 'select' && typeof value === 'function') {
        return (...args: unknown[]) => { selects++; return (value as (...a: unknown[]) => unknown).apply(target, args); };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, selects: () => selects };
}

describe('serviceGet queries', () => {
  it('reads the site and its networks in one query, and none while cached', async () => {
    const { db, selects } = counting(t.db);
    const store = createNetworkRepository(db);
    const caller: NetworkCaller = { userId: randomUUID(), siteId: site.id, roles: { 'App CMS': 'read' } };
    const service = await getService(store, caller, site.name);
    expect(selects()).toBe(1);
    expect(service.networks[0]?.isDefault).toBe(true);
    expect(service.networks.length).toBeGreaterThan(1);
    await getService(store, caller, site.name);
    expect(selects()).toBe(1);
  });
});

describe('createServiceCache', () => {
  const snapshot = (name: string): ServiceSnapshot => ({ site: { id: name, siteInternalName: name } as ServiceSnapshot['site'], networks: [] });

  it('does not store a load that started before an invalidation', async () => {
    const cache = createServiceCache({ ttlMs: 60_000 });
    let release: (value: ServiceSnapshot) => void = () => {};
    const pending = cache.snapshot('a', () => new Promise((resolve) => { release = resolve; }));
    cache.invalidateSite('a');
    release(snapshot('old'));
    expect((await pending)?.site.siteInternalName).toBe('old');
    expect((await cache.snapshot('a', async () => snapshot('new')))?.site.siteInternalName).toBe('new');
  });

  it('keeps at most maxSites sites, dropping the least recently used, and expires entries after ttlMs', async () => {
    let now = 0;
    const cache = createServiceCache({ ttlMs: 1000, maxSites: 2, now: () => now });
    await cache.snapshot('a', async () => snapshot('a1'));
    await cache.snapshot('b', async () => snapshot('b1'));
    await cache.snapshot('a', async () => snapshot('a2'));
    await cache.snapshot('c', async () => snapshot('c1'));
    expect(cache.size).toBe(2);
    expect((await cache.snapshot('a', async () => snapshot('a3')))?.site.siteInternalName).toBe('a1');
    expect((await cache.snapshot('b', async () => snapshot('b2')))?.site.siteInternalName).toBe('b2');
    now = 1000;
    expect((await cache.snapshot('a', async () => snapshot('a4')))?.site.siteInternalName).toBe('a4');
  });

  it('caches nothing with ttlMs 0, and freezes what it hands out', async () => {
    const cache = createServiceCache({ ttlMs: 0 });
    await cache.snapshot('a', async () => snapshot('a1'));
    expect(cache.size).toBe(0);
    const fresh = await cache.snapshot('a', async () => snapshot('a2'));
    expect(fresh?.site.siteInternalName).toBe('a2');
    expect(Object.isFrozen(fresh?.site)).toBe(true);
  });
});

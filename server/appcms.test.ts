/**
 * AppCMS editors over REST (common/appcms.ts APPCMS_PATHS): brand, settings with append-only
 * versions and one-transaction restore, devices, service and template, signing key rotation,
 * copy-from-default preview, uploads checked by content and stored under DATA_DIR; roles (App CMS
 * read sees, write edits), optimistic concurrency, audit records, site and network isolation.
 * State-changing tests work on networks they create.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPCMS_MESSAGES, APPCMS_PATHS, UPLOAD_LIMITS, type AppcmsBrand, type AppcmsDevices, type AppcmsService, type AppcmsSettings,
  type CopyPreview, type SettingsVersion,
} from '../common/appcms';
import type { ThemeColors } from '../common/contract';
import { OWN_MESSAGES } from '../common/messages';
import { createAppcmsRepository } from './db/appcms-repository';
import { DEMO_SITES } from './db/demo-accounts';
import { createNetworkRepository } from './db/network-repository';
import { auditEvents, networkBrands, networkDevices, networkSettings, networkSettingsVersions, networks, staffUsers } from './db/schema';
import { APPCMS_AUDIT, restoreSettings, type AppcmsCaller } from './domain/appcms';
import { copyFromDefault } from './domain/networks';
import { createMemoryStorage } from './storage/upload-storage';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let admin: Session;
let reader: Session;
let northwind: Session;
let dataDir: string;
const SITE = DEMO_SITES.viewlift;

const theme = (primaryColor: string): ThemeColors => ({
  primaryColor, secondaryColor: '#222222', backgroundColor: '#FAFAFA', textColor: '#000000', fontFamily: 'Inter',
});

async function createNetwork(siteName: string = SITE) {
  const site = await t.siteByName(siteName);
  const identifier = `t-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.insert(networks).values({
    siteId: site.id, identifier, name: `Test ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false,
  }).returning();
  if (!row) throw new Error('network insert failed');
  await t.db.insert(networkBrands).values({
    networkId: row.id, logoUrl: '/a-logo.png', iconUrl: '/a-icon.png', theme: theme('#AA0000'), themeOtt: theme('#BB0000'), themeApps: theme('#CC0000'),
  });
  await t.db.insert(networkSettings).values({ networkId: row.id, values: { defaultLanguage: 'de', maxStreams: 3, autoplay: true, supportEmail: 'a@b.test' } });
  await t.db.insert(networkDevices).values({ networkId: row.id, devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' }] });
  return { id: row.id, identifier, siteId: site.id };
}

const put = (url: string, body: unknown, session: Session) => t.inject({ method: 'PUT', url, payload: body as Record<string, unknown>, headers: session.headers });
const auditOf = (action: string, identifier: string | null, siteId?: string) => t.db.select().from(auditEvents).where(
  identifier === null ? and(eq(auditEvents.action, action), eq(auditEvents.siteId, siteId!)) : and(eq(auditEvents.action, action), eq(auditEvents.networkIdentifier, identifier)),
).orderBy(asc(auditEvents.seq));
const versionRows = (networkId: string) => t.db.select().from(networkSettingsVersions).where(eq(networkSettingsVersions.networkId, networkId));
const filesOnDisk = () => {
  try {
    return readdirSync(join(dataDir, 'uploads'));
  } catch {
    return [];
  }
};

/** A PNG header (signature + IHDR) of the given size: no pixels, so the decoder refuses it (server/uploads-security.test.ts). */
function png(width: number, height: number, extra = 64): Buffer {
  const head = Buffer.alloc(33 + extra);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head[24] = 8;
  head[25] = 6;
  return head;
}

/** A real image of the given size: uploads are decoded and re-encoded (sharp). */
const image = (width: number, height: number, format: 'png' | 'webp') =>
  sharp({ create: { width, height, channels: 4, background: { r: 19, g: 112, b: 179, alpha: 1 } } })[format]().toBuffer();
const [PNG_320x80, PNG_5000x100, PNG_8x8, WEBP_192] = await Promise.all([
  image(320, 80, 'png'), image(5000, 100, 'png'), image(8, 8, 'png'), image(192, 192, 'webp'),
]);

/** A lossless WebP header (VP8L) of the given size. */
function webp(width: number, height: number): Buffer {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(32, 4);
  b.write('WEBP', 8, 'latin1');
  b.write('VP8L', 12, 'latin1');
  b.writeUInt32LE(20, 16);
  b[20] = 0x2f;
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return b;
}

const upload = (network: string, slot: string, body: Buffer | string, session: Session = admin, contentType = 'image/png') => t.inject({
  method: 'POST', url: `${APPCMS_PATHS.uploads}/${SITE}/${network}/${slot}`, payload: body,
  headers: { ...session.headers, 'content-type': contentType },
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'appcms-test-'));
  t = await createTestApp({ demo: true, config: { dataDir } });
  [admin, reader, northwind] = await Promise.all([
    t.login('admin@demo.test'), t.login('appcms-reader@demo.test'), t.login('admin@northwind.test'),
  ]);
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('brand', () => {
  it('reads and saves a brand with its version, audit-logged; a stale version is a conflict and changes nothing', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`;
    const read = await t.get(url, reader.headers);
    expect(read.statusCode).toBe(200);
    const brand = read.json<AppcmsBrand>();
    expect(brand).toMatchObject({ network: n.identifier, logoUrl: '/a-logo.png', version: 1 });

    const next = { ...brand, theme: { ...brand.theme, primaryColor: '#123456' } };
    const saved = await put(url, next, admin);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<AppcmsBrand>()).toMatchObject({ version: 2, theme: { primaryColor: '#123456' } });
    expect((await t.get(url, admin.headers)).json<AppcmsBrand>().theme.primaryColor).toBe('#123456');
    const [audit] = await auditOf(APPCMS_AUDIT.brand, n.identifier);
    expect(audit?.detail).toMatchObject({ version: 2, changed: ['theme.primaryColor'] });

    const stale = await put(url, { ...next, theme: { ...brand.theme, primaryColor: '#654321' } }, admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ success: false, message: APPCMS_MESSAGES.conflict });
    expect((await t.get(url, admin.headers)).json<AppcmsBrand>().theme.primaryColor).toBe('#123456');
  });

  it('refuses a colour that is not #RRGGBB with the field named, and a missing version', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`;
    const brand = (await t.get(url, admin.headers)).json<AppcmsBrand>();
    const bad = await put(url, { ...brand, themeOtt: { ...brand.themeOtt, textColor: 'red' } }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: APPCMS_MESSAGES.colour });
    const noVersion = await put(url, { ...brand, version: 'x' }, admin);
    expect(noVersion.statusCode).toBe(400);
    expect((await t.get(url, admin.headers)).json<AppcmsBrand>().version).toBe(1);
  });

  it('App CMS read may look but every write answers 403 and changes nothing', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`;
    const brand = (await t.get(url, reader.headers)).json<AppcmsBrand>();
    const res = await put(url, { ...brand, logoUrl: '/x.png' }, reader);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: OWN_MESSAGES.forbidden });
    const settings = (await t.get(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, reader.headers)).json<AppcmsSettings>();
    expect((await put(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, { version: settings.version, values: { maxStreams: 5 } }, reader)).statusCode).toBe(403);
    expect((await t.post(`${APPCMS_PATHS.settingsRestore}/${SITE}/${n.identifier}`, { version: 1, restore: 1 }, reader.headers)).statusCode).toBe(403);
    expect((await put(`${APPCMS_PATHS.devices}/${SITE}/${n.identifier}`, { version: 1, devices: [] }, reader)).statusCode).toBe(403);
    expect((await put(`${APPCMS_PATHS.service}/${SITE}`, { version: 1, serviceName: 'X' }, reader)).statusCode).toBe(403);
    expect((await t.post(`${APPCMS_PATHS.signingKey}/${SITE}`, { confirm: true }, reader.headers)).statusCode).toBe(403);
    expect((await upload(n.identifier, 'logo', png(64, 64), reader)).statusCode).toBe(403);
    expect((await t.get(url, admin.headers)).json<AppcmsBrand>()).toMatchObject({ logoUrl: '/a-logo.png', version: 1 });
  });
});

describe('settings versions and restore', () => {
  it('every save appends a version (who, what changed); earlier versions never change; restore becomes a new version', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`;
    const first = await put(url, { version: 1, values: { maxStreams: 5 } }, admin);
    expect(first.statusCode).toBe(200);
    expect(first.json<AppcmsSettings>()).toMatchObject({ version: 2, values: { maxStreams: 5, defaultLanguage: 'de' } });
    const second = await put(url, { version: 2, values: { defaultLanguage: 'fr', autoplay: false } }, admin);
    expect(second.json<AppcmsSettings>().version).toBe(3);
    const before = await versionRows(n.id);

    const list = (await t.get(`${APPCMS_PATHS.settingsVersions}/${SITE}/${n.identifier}`, reader.headers)).json<{ current: number; versions: SettingsVersion[] }>();
    expect(list.current).toBe(3);
    expect(list.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(list.versions[0]?.createdBy).toBe('admin@demo.test');
    expect([...list.versions[0]!.changed].sort()).toEqual(['autoplay', 'defaultLanguage']);
    expect(list.versions[2]).toMatchObject({ createdBy: null, values: { maxStreams: 3, defaultLanguage: 'de' } });

    const restored = await t.post(`${APPCMS_PATHS.settingsRestore}/${SITE}/${n.identifier}`, { version: 3, restore: 1 }, admin.headers);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<AppcmsSettings>()).toMatchObject({ version: 4, values: { maxStreams: 3, defaultLanguage: 'de', autoplay: true } });
    expect((await t.get(url, admin.headers)).json<AppcmsSettings>()).toMatchObject({ version: 4, values: { maxStreams: 3 } });

    const after = await versionRows(n.id);
    expect(after).toHaveLength(4);
    for (const row of before) expect(after.find((r) => r.id === row.id)).toEqual(row);
    expect(after.find((r) => r.version === 4)).toMatchObject({ restoredFrom: 1, createdBy: 'admin@demo.test' });
    expect(await auditOf(APPCMS_AUDIT.settings, n.identifier)).toHaveLength(2);
    const [audit] = await auditOf(APPCMS_AUDIT.restore, n.identifier);
    expect(audit?.detail).toMatchObject({ version: 4, restoredFrom: 1 });
  });

  it('a stale save or restore is a conflict; an unknown version is 404; bad values name the field', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`;
    await put(url, { version: 1, values: { maxStreams: 2 } }, admin);
    expect((await put(url, { version: 1, values: { maxStreams: 4 } }, admin)).statusCode).toBe(409);
    expect((await t.post(`${APPCMS_PATHS.settingsRestore}/${SITE}/${n.identifier}`, { version: 1, restore: 1 }, admin.headers)).statusCode).toBe(409);
    expect((await t.post(`${APPCMS_PATHS.settingsRestore}/${SITE}/${n.identifier}`, { version: 2, restore: 99 }, admin.headers)).statusCode).toBe(404);
    const bad = await put(url, { version: 2, values: { maxStreams: 99 } }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Simultaneous streams must be a whole number from 1 to 10.' });
    expect((await put(url, { version: 2, values: { unknownKey: 1 } }, admin)).statusCode).toBe(400);
    expect((await put(url, { version: 2, values: { supportEmail: 'nope' } }, admin)).json()).toMatchObject({ message: APPCMS_MESSAGES.email });
    expect(await versionRows(n.id)).toHaveLength(2);
  });

  it('restore is one transaction: a failure after the write leaves settings, versions and audit as they were', async () => {
    const n = await createNetwork();
    await put(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, { version: 1, values: { maxStreams: 7 } }, admin);
    const deps = { networks: createNetworkRepository(t.db), store: createAppcmsRepository(t.db), storage: createMemoryStorage() };
    const caller: AppcmsCaller = { userId: await adminId(), siteId: n.siteId, roles: { 'App CMS': 'write' }, username: 'admin@demo.test' };
    await expect(restoreSettings(deps, caller, SITE, n.identifier, { version: 2, restore: 1 }, { afterWrite: () => { throw new Error('boom'); } })).rejects.toThrow('boom');
    const [row] = await t.db.select().from(networkSettings).where(eq(networkSettings.networkId, n.id));
    expect(row).toMatchObject({ version: 2, values: { maxStreams: 7 } });
    expect(await versionRows(n.id)).toHaveLength(2);
    expect(await auditOf(APPCMS_AUDIT.restore, n.identifier)).toHaveLength(0);
  });
});

async function adminId(): Promise<string> {
  const [row] = await t.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.username, 'admin@demo.test'));
  return row!.id;
}

describe('devices', () => {
  it('saves the platforms with enabled flags and versions; refuses an unknown platform or a bad version text', async () => {
    const n = await createNetwork();
    const url = `${APPCMS_PATHS.devices}/${SITE}/${n.identifier}`;
    const devices = [{ platform: 'web', enabled: false, minAppVersion: '1.0.1' }, { platform: 'roku', enabled: true, minAppVersion: '3.0.0' }];
    const saved = await put(url, { version: 1, devices }, admin);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<AppcmsDevices>()).toMatchObject({ version: 2, devices: [{ platform: 'web', name: 'Web browser', enabled: false }, { platform: 'roku', name: 'Roku' }] });
    expect((await put(url, { version: 2, devices: [{ platform: 'toaster', enabled: true, minAppVersion: '1.0.0' }] }, admin)).statusCode).toBe(400);
    expect((await put(url, { version: 2, devices: [{ platform: 'web', enabled: true, minAppVersion: 'latest' }] }, admin)).json()).toMatchObject({ message: APPCMS_MESSAGES.appVersion });
    expect((await put(url, { version: 1, devices }, admin)).statusCode).toBe(409);
    expect(await auditOf(APPCMS_AUDIT.devices, n.identifier)).toHaveLength(1);
  });
});

describe('service, template and signing key', () => {
  it('shows the service with the key masked; saves fields and the template with a version; refuses unknown templates', async () => {
    const url = `${APPCMS_PATHS.service}/${DEMO_SITES.northwind}`;
    const service = (await t.get(url, northwind.headers)).json<AppcmsService>();
    expect(service.signingKeyMasked).toMatch(/^•{12}[0-9a-f]{4}$/);
    expect(JSON.stringify(service)).not.toContain((await t.siteByName(DEMO_SITES.northwind)).signingKey);
    expect(service.templates.length).toBeGreaterThan(1);
    const saved = await put(url, { version: service.version, serviceName: 'Northwind Plus', templateName: 'Sports Template', forceLogin: true }, northwind);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<AppcmsService>()).toMatchObject({ serviceName: 'Northwind Plus', templateName: 'Sports Template', forceLogin: true, version: service.version + 1 });
    expect((await put(url, { version: service.version, serviceName: 'Lost update' }, northwind)).statusCode).toBe(409);
    const badTemplate = await put(url, { version: service.version + 1, templateName: 'Nope' }, northwind);
    expect(badTemplate.statusCode).toBe(400);
    expect(badTemplate.json()).toMatchObject({ message: APPCMS_MESSAGES.oneOf('template') });
    expect((await put(url, { version: service.version + 1, domainName: 'not a domain' }, northwind)).json()).toMatchObject({ message: APPCMS_MESSAGES.domain });
    expect((await put(url, { version: service.version + 1, serviceTypes: ['SVOD'] }, northwind)).statusCode).toBe(400);
    expect((await put(url, { version: service.version + 1, siteBaseUrl: 'https://x' }, northwind)).statusCode).toBe(400);
    const site = await t.siteByName(DEMO_SITES.northwind);
    const [audit] = await auditOf(APPCMS_AUDIT.service, null, site.id);
    expect(audit?.detail).toMatchObject({ changed: expect.arrayContaining(['serviceName', 'templateName']) });
  });

  it('rotating the signing key needs a confirmation, replaces the key (the old one is gone) and is audit-logged without the key', async () => {
    const url = `${APPCMS_PATHS.signingKey}/${DEMO_SITES.northwind}`;
    const before = (await t.siteByName(DEMO_SITES.northwind)).signingKey;
    expect((await t.post(url, {}, northwind.headers)).statusCode).toBe(400);
    const res = await t.post(url, { confirm: true }, northwind.headers);
    expect(res.statusCode).toBe(200);
    const after = (await t.siteByName(DEMO_SITES.northwind)).signingKey;
    expect(after).not.toBe(before);
    expect(res.json<AppcmsService>().signingKeyMasked).toBe(`${'•'.repeat(12)}${after.slice(-4)}`);
    expect(res.json<AppcmsService>().signingKeyRotatedAt).not.toBeNull();
    const site = await t.siteByName(DEMO_SITES.northwind);
    const rows = await auditOf(APPCMS_AUDIT.rotate, null, site.id);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]?.detail)).not.toContain(before);
    expect(JSON.stringify(rows[0]?.detail)).not.toContain(after);
  });
});

describe('copy from default and the editors', () => {
  it('a copy moves the brand and settings versions on, so an editor open before it gets a conflict, not an overwrite', async () => {
    const n = await createNetwork();
    const caller = { userId: await adminId(), siteId: n.siteId, roles: { 'App CMS': 'write' } };
    await copyFromDefault(createNetworkRepository(t.db), caller, { site: SITE, network: n.identifier, networkBrand: { logoAndIcons: true, theme: true, themeOtt: true, themeApps: true }, networkSettings: true });
    const brand = (await t.get(`${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, admin.headers)).json<AppcmsBrand>();
    expect(brand.version).toBe(2);
    expect((await put(`${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, { ...brand, version: 1 }, admin)).statusCode).toBe(409);
    expect((await put(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, { version: 1, values: { maxStreams: 2 } }, admin)).statusCode).toBe(409);
    expect((await put(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, { version: 2, values: { maxStreams: 2 } }, admin)).statusCode).toBe(200);
  });
});

describe('copy from default preview', () => {
  it('lists what copying from the default would change, brand and settings, labelled', async () => {
    const n = await createNetwork();
    const res = await t.get(`${APPCMS_PATHS.copyPreview}/${SITE}/${n.identifier}`, reader.headers);
    expect(res.statusCode).toBe(200);
    const preview = res.json<CopyPreview>();
    expect(preview.brand).toContainEqual({ field: 'theme.primaryColor', label: 'Web primary colour', from: '#AA0000', to: '#1370B3' });
    expect(preview.settings).toContainEqual({ field: 'maxStreams', label: 'Simultaneous streams', from: '3', to: '4' });
  });
});

describe('uploads', () => {
  it('stores a PNG by content hash under DATA_DIR and serves it with its content type and cache headers', async () => {
    const n = await createNetwork();
    const res = await upload(n.identifier, 'logo', PNG_320x80, admin, 'application/octet-stream');
    expect(res.statusCode).toBe(200);
    const { url, contentType, width, height } = res.json<{ url: string; contentType: string; width: number; height: number }>();
    expect({ contentType, width, height }).toEqual({ contentType: 'image/png', width: 320, height: 80 });
    // Issue 37: under the site's own address (files are scoped to their site).
    expect(url).toMatch(new RegExp(`^${APPCMS_PATHS.files}/${(await t.siteByName(SITE)).id}/[0-9a-f]{64}\\.png$`));
    expect(filesOnDisk()).toContain(url.split('/').pop());
    const file = await t.get(url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const stored = await sharp(file.rawPayload).metadata();
    expect({ format: stored.format, width: stored.width, height: stored.height }).toEqual({ format: 'png', width: 320, height: 80 });
    const [audit] = await auditOf(APPCMS_AUDIT.upload, n.identifier);
    expect(audit?.detail).toMatchObject({ slot: 'logo', contentType: 'image/png' });
    expect((await t.get(`${APPCMS_PATHS.files}/${'0'.repeat(64)}.png`)).statusCode).toBe(404);
    expect((await t.get(`${APPCMS_PATHS.files}/..%2F..%2Fetc%2Fpasswd`)).statusCode).toBe(400);
  });

  it('accepts WebP and a clean SVG (served as image/svg+xml under a CSP without inline script)', async () => {
    const n = await createNetwork();
    const w = await upload(n.identifier, 'icon', WEBP_192, admin, 'image/webp');
    expect(w.json()).toMatchObject({ contentType: 'image/webp', width: 192, height: 192 });
    const svg = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 64 64"><defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="64" height="64"/><use xlink:href="#g"/></svg>';
    const s = await upload(n.identifier, 'logo', svg, admin, 'image/svg+xml');
    expect(s.statusCode).toBe(200);
    const file = await t.get(s.json<{ url: string }>().url);
    expect(file.headers['content-type']).toBe('image/svg+xml');
    // Uploads have a sandbox CSP of their own, so a script in an SVG could not run even if one got in.
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['text named .png', Buffer.from('hello, not an image'), APPCMS_MESSAGES.uploadType],
    ['PNG magic with a broken header', Buffer.concat([png(64, 64).subarray(0, 8), Buffer.from('garbage-garbage-garbage-garbage')]), APPCMS_MESSAGES.uploadUndecodable],
    ['a PNG header without pixels', png(64, 64), APPCMS_MESSAGES.uploadUndecodable],
    ['a WebP header without pixels', webp(192, 192), APPCMS_MESSAGES.uploadUndecodable],
    ['empty body', Buffer.alloc(0), APPCMS_MESSAGES.uploadEmpty],
    ['PNG over the byte limit', png(64, 64, UPLOAD_LIMITS.maxBytes), APPCMS_MESSAGES.uploadTooLarge(UPLOAD_LIMITS.maxBytes / 1024)],
    ['PNG over the pixel limit', PNG_5000x100, APPCMS_MESSAGES.uploadPixels(UPLOAD_LIMITS.minPixels, UPLOAD_LIMITS.maxPixels)],
    ['PNG under the pixel limit', PNG_8x8, APPCMS_MESSAGES.uploadPixels(UPLOAD_LIMITS.minPixels, UPLOAD_LIMITS.maxPixels)],
    ['SVG with a script', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script></svg>', APPCMS_MESSAGES.uploadSvgRefused('the element <script>')],
    ['SVG with foreignObject', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><foreignObject><div/></foreignObject></svg>', APPCMS_MESSAGES.uploadSvgRefused('the element <foreignObject>')],
    ['SVG with an event handler', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" onload="alert(1)"><rect/></svg>', APPCMS_MESSAGES.uploadSvgRefused('the attribute onload on <svg>')],
    ['SVG with an external reference', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image href="https://evil.test/x.png"/></svg>', APPCMS_MESSAGES.uploadSvgRefused('an external reference (href on <image>)')],
    ['SVG with an external url()', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect style="fill:url(https://evil.test/#a)"/></svg>', APPCMS_MESSAGES.uploadSvgRefused('an external reference (style on <rect>)')],
    ['SVG with an entity', '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg width="64" height="64">&x;</svg>', APPCMS_MESSAGES.uploadSvgRefused('a DOCTYPE or entity declaration')],
    ['SVG without the SVG namespace', '<svg width="64" height="64"><rect/></svg>', APPCMS_MESSAGES.uploadSvgInvalid],
  ])('refuses %s with a message and leaves nothing on disk', async (_name, body, message) => {
    const n = await createNetwork();
    const before = filesOnDisk();
    const res = await upload(n.identifier, 'logo', body, admin, typeof body === 'string' ? 'image/svg+xml' : 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(filesOnDisk()).toEqual(before);
    expect(await auditOf(APPCMS_AUDIT.upload, n.identifier)).toHaveLength(0);
  });

  it('refuses a body far over the limit with 413 before reading it, and an unknown slot', async () => {
    const n = await createNetwork();
    const before = filesOnDisk();
    const huge = await upload(n.identifier, 'logo', png(64, 64, UPLOAD_LIMITS.maxBytes * 4));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ success: false });
    expect((await upload(n.identifier, 'banner', png(64, 64))).json()).toMatchObject({ message: APPCMS_MESSAGES.uploadSlot });
    expect(filesOnDisk()).toEqual(before);
  });
});

describe('site and network isolation', () => {
  it('another site\'s admin gets 404 for this site, and a network of another site is not found on this one', async () => {
    const n = await createNetwork();
    for (const url of [
      `${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, `${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`,
      `${APPCMS_PATHS.settingsVersions}/${SITE}/${n.identifier}`, `${APPCMS_PATHS.devices}/${SITE}/${n.identifier}`,
      `${APPCMS_PATHS.service}/${SITE}`, `${APPCMS_PATHS.copyPreview}/${SITE}/${n.identifier}`,
    ]) {
      expect((await t.get(url, northwind.headers)).statusCode).toBe(404);
    }
    expect((await put(`${APPCMS_PATHS.settings}/${SITE}/${n.identifier}`, { version: 1, values: { maxStreams: 2 } }, northwind)).statusCode).toBe(404);
    expect((await upload(n.identifier, 'logo', png(64, 64), northwind)).statusCode).toBe(404);
    // Northwind's own network named on the viewlift site (where admin@demo.test may edit) does not exist there.
    const other = await createNetwork(DEMO_SITES.northwind);
    expect((await t.get(`${APPCMS_PATHS.brand}/${SITE}/${other.identifier}`, admin.headers)).statusCode).toBe(404);
    const brand = (await t.get(`${APPCMS_PATHS.brand}/${SITE}/${n.identifier}`, admin.headers)).json<AppcmsBrand>();
    expect((await put(`${APPCMS_PATHS.brand}/${SITE}/${other.identifier}`, brand, admin)).statusCode).toBe(404);
    const [row] = await t.db.select().from(networkSettings).where(eq(networkSettings.networkId, n.id));
    expect(row?.version).toBe(1);
  });

  it('answers 401 without credentials', async () => {
    expect((await t.get(`${APPCMS_PATHS.service}/${SITE}`)).statusCode).toBe(401);
  });
});

/**
 * Upload security (issue 25): SVGs parsed as XML and sanitised by DOMPurify with an allow-list by
 * namespace (namespace prefixes, the XML prolog, DOCTYPEs and external references refused);
 * every stored file served under its own sandbox CSP, nosniff, its exact content type and an
 * inline disposition; PNG and WebP decoded by sharp, checked by their real size and stored as the
 * re-encoded pixels without metadata.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_MESSAGES, APPCMS_PATHS, UPLOAD_LIMITS } from '../common/appcms';
import { CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS } from '../common/content';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, networkBrands, networks, uploadFiles } from './db/schema';
import { APPCMS_AUDIT } from './domain/appcms';
import { createUploadStorage } from './storage/upload-storage';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let admin: Session;
let dataDir: string;
const SITE = DEMO_SITES.viewlift;
const SVG_NS = 'http://www.w3.org/2000/svg';
const UPLOAD_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

async function createNetwork(): Promise<string> {
  const site = await t.siteByName(SITE);
  const identifier = `u-${randomUUID().slice(0, 8)}`;
  await t.db.insert(networks).values({ siteId: site.id, identifier, name: `Upload ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false });
  return identifier;
}

const upload = (network: string, body: Buffer | string, contentType: string) => t.inject({
  method: 'POST', url: `${APPCMS_PATHS.uploads}/${SITE}/${network}/logo`, payload: body,
  headers: { ...admin.headers, 'content-type': contentType },
});

const filesOnDisk = () => {
  try {
    return readdirSync(join(dataDir, 'uploads'));
  } catch {
    return [];
  }
};

const uploadAudits = (network: string) => t.db.select().from(auditEvents)
  .where(and(eq(auditEvents.action, APPCMS_AUDIT.upload), eq(auditEvents.networkIdentifier, network)));

/** A real image of the given size (a gradient-free solid colour: small at any size). */
const image = (width: number, height: number, format: 'png' | 'webp') =>
  sharp({ create: { width, height, channels: 4, background: { r: 19, g: 112, b: 179, alpha: 1 } } })[format]().toBuffer();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'uploads-security-'));
  t = await createTestApp({ demo: true, config: { dataDir } });
  admin = await t.login('admin@demo.test');
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function expectRefused(body: Buffer | string, contentType: string, message: string) {
  const network = await createNetwork();
  const before = filesOnDisk();
  const res = await upload(network, body, contentType);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ success: false, message });
  expect(filesOnDisk()).toEqual(before);
  expect(await uploadAudits(network)).toHaveLength(0);
}

const svg = (inner: string, open = `<svg xmlns="${SVG_NS}" width="64" height="64">`) => `${open}${inner}</svg>`;
const refused = APPCMS_MESSAGES.uploadSvgRefused;

describe('SVG uploads: parsed as XML and sanitised with an allow-list by namespace', () => {
  it.each([
    // The samples: namespace prefixes and the XML prolog.
    ['an SVG-namespace script under a prefix', svg(`<s:script xmlns:s="${SVG_NS}">alert(1)</s:script>`), refused('the element <s:script>')],
    ['an XHTML script under a prefix', svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'), refused('the element <h:script>')],
    ['a foreignObject under a prefix', svg(`<s:foreignObject xmlns:s="${SVG_NS}" width="64" height="64"><p xmlns="http://www.w3.org/1999/xhtml">x</p></s:foreignObject>`), refused('the element <s:foreignObject>')],
    ['an XHTML iframe', svg('<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.test/"/>'), refused('the element <h:iframe>')],
    ['an XHTML form', svg('<h:form xmlns:h="http://www.w3.org/1999/xhtml" action="https://evil.test/"><h:input name="p"/></h:form>'), refused('the element <h:form>')],
    ['an XHTML meta refresh', svg('<h:meta xmlns:h="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=https://evil.test/"/>'), refused('the element <h:meta>')],
    ['an xml-stylesheet processing instruction', `<?xml version="1.0"?>\n<?xml-stylesheet href="https://evil.test/x.css"?>\n${svg('<rect width="8" height="8"/>')}`, refused('a processing instruction (<?xml-stylesheet?>)')],
    ['a processing instruction inside the document', svg('<?php echo 1; ?><rect width="8" height="8"/>'), refused('a processing instruction (<?php?>)')],
    // Classic ones.
    ['a plain script', svg('<script>alert(1)</script>'), refused('the element <script>')],
    ['an XHTML element by default namespace', svg('<div xmlns="http://www.w3.org/1999/xhtml">x</div>'), refused('the element <div>')],
    ['an onload handler', svg('<rect width="8" height="8"/>', `<svg xmlns="${SVG_NS}" width="64" height="64" onload="alert(1)">`), refused('the attribute onload on <svg>')],
    ['a javascript: link', svg('<a href="javascript:alert(1)"><rect width="8" height="8"/></a>'), refused('the attribute href on <a>')],
    ['a javascript: xlink:href', svg('<a xlink:href="javascript:alert(1)"><rect width="8" height="8"/></a>', `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">`), refused('the attribute xlink:href on <a>')],
    ['an animation that sets href', svg('<a><animate attributeName="href" to="javascript:alert(1)"/><rect width="8" height="8"/></a>'), refused('the element <animate>')],
    ['a set of an event handler', svg('<set attributeName="onmouseover" to="alert(1)"/>'), refused('the element <set>')],
    ['a <use> of another document', svg('<use href="https://evil.test/x.svg#a"/>'), refused('an external reference (href on <use>)')],
    ['an <image> from the network', svg('<image href="https://evil.test/x.png" width="8" height="8"/>'), refused('an external reference (href on <image>)')],
    ['an <image> of an SVG data URL', svg('<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="8" height="8"/>'), refused('an external reference (href on <image>)')],
    ['a link to another site', svg('<a href="https://evil.test/"><rect width="8" height="8"/></a>'), refused('an external reference (href on <a>)')],
    ['an external url() in a style attribute', svg('<rect width="8" height="8" style="fill:url(https://evil.test/#a)"/>'), refused('an external reference (style on <rect>)')],
    ['an external url() in a presentation attribute', svg('<rect width="8" height="8" fill="url(https://evil.test/#a)"/>'), refused('an external reference (fill on <rect>)')],
    ['an @import in a style sheet', svg('<style>@import url(https://evil.test/x.css);</style>'), refused('an external reference (<style>)')],
    ['a url() spelt with a CSS escape', svg('<style>rect{fill:u\\72l(https://evil.test/#a)}</style><rect width="8" height="8"/>'), refused('an external reference (<style>)')],
    ['an @import spelt with a CSS escape', svg('<rect width="8" height="8" style="@\\69mport \'https://evil.test/x.css\'"/>'), refused('an external reference (style on <rect>)')],
    ['an xml:base that would move #fragment references elsewhere', svg('<use href="#a"/>', `<svg xmlns="${SVG_NS}" xml:base="https://evil.test/" width="64" height="64">`), refused('the attribute xml:base on <svg>')],
    ['a DOCTYPE with an external entity', `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg('<text>&x;</text>')}`, refused('a DOCTYPE or entity declaration')],
    ['an internal entity (billion laughs)', `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${svg('<text>&b;</text>')}`, refused('a DOCTYPE or entity declaration')],
    ['editor-specific markup', svg('<rect width="8" height="8"/>', `<svg xmlns="${SVG_NS}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:version="1.3" width="64" height="64">`), refused('the attribute inkscape:version on <svg>')],
  ])('refuses %s (400, nothing stored, not audited)', async (_name, body, message) => {
    await expectRefused(body, 'image/svg+xml', message);
  });

  it.each([
    ['malformed XML', `<svg xmlns="${SVG_NS}" width="64" height="64"><rect></svg>`],
    ['an <svg> outside the SVG namespace', '<svg width="64" height="64"><rect width="8" height="8"/></svg>'],
    ['another root element', `<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="${SVG_NS}" width="64" height="64"/></html>`],
  ])('refuses %s as not an SVG', async (_name, body) => {
    await expectRefused(body, 'image/svg+xml', APPCMS_MESSAGES.uploadSvgInvalid);
  });

  const complex = APPCMS_MESSAGES.uploadSvgComplex(UPLOAD_LIMITS.maxSvgElements, UPLOAD_LIMITS.maxSvgDepth);
  const nested = (levels: number, open = '<g>') => svg(`${open.repeat(levels)}${'</g>'.repeat(levels)}`);
  it.each([
    ['nesting 2,500 deep (overflowed the serialiser\'s stack: a 500)', nested(2500)],
    ['nesting one level over the limit', nested(UPLOAD_LIMITS.maxSvgDepth)],
    ['nesting hidden behind "/>" inside attribute values', nested(UPLOAD_LIMITS.maxSvgDepth, '<g class="/>">')],
    ['more elements than the limit', svg('<rect width="1" height="1"/>'.repeat(UPLOAD_LIMITS.maxSvgElements))],
  ])('refuses an SVG with %s as too complex, before parsing it', async (_name, body) => {
    const started = performance.now();
    await expectRefused(body, 'image/svg+xml', complex);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('accepts nesting up to the limit (the root counts)', async () => {
    const network = await createNetwork();
    const res = await upload(network, nested(UPLOAD_LIMITS.maxSvgDepth - 1), 'image/svg+xml');
    expect(res.statusCode).toBe(200);
  });

  const seedLogo = readFileSync(new URL('../public/logo.svg', import.meta.url), 'utf8').trim();
  const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  it.each([
    ['the seed\'s logo', seedLogo],
    ['gradients, clip paths, filters, text, internal <use> and CSS classes', `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generator: a drawing app -->
<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" id="Layer_1" x="0px" y="0px" viewBox="0 0 320 80" xml:space="preserve">
<style type="text/css">.st0{fill:url(#grad);} .st1{font-family:'Inter', sans-serif; font-size:24px;}</style>
<defs>
  <linearGradient id="grad" x1="0" y1="0" x2="320" y2="0" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#1370B3"/><stop offset="1" stop-color="#0B3D66" stop-opacity="0.8"/></linearGradient>
  <radialGradient id="glow" cx="40" cy="40" r="30"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
  <clipPath id="clip"><rect width="320" height="80" rx="12"/></clipPath>
  <filter id="shadow"><feGaussianBlur in="SourceAlpha" stdDeviation="2"/><feOffset dx="1" dy="1" result="o"/><feMerge><feMergeNode in="o"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
  <path id="mark" d="M24 18v28l22-14z"/>
</defs>
<title>Brand</title>
<g clip-path="url(#clip)" filter="url(#shadow)">
  <rect class="st0" width="320" height="80"/>
  <circle cx="40" cy="40" r="30" fill="url(#glow)"/>
  <use xlink:href="#mark" fill="#ffffff"/>
  <use href="#mark" transform="translate(12 0)" fill="#ffffff" opacity="0.5"/>
  <text class="st1" x="80" y="50" fill="#ffffff">Brand <tspan font-weight="bold">TV</tspan></text>
  <polygon points="300,10 310,30 290,30" style="fill:#ffffff;stroke:none"/>
</g>
</svg>
`],
    ['an embedded PNG', svg(`<image width="64" height="64" href="data:image/png;base64,${tinyPng}"/>`)],
  ])('accepts %s and stores it', async (_name, body) => {
    const network = await createNetwork();
    const res = await upload(network, body, 'image/svg+xml');
    expect(res.statusCode).toBe(200);
    const { url, contentType } = res.json<{ url: string; contentType: string }>();
    expect(contentType).toBe('image/svg+xml');
    const file = await t.get(url);
    expect(file.statusCode).toBe(200);
    expect(file.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(file.body).not.toMatch(/<\?|<!DOCTYPE|<script|\son\w+=/i);
    expect(await uploadAudits(network)).toHaveLength(1);
  });

  it('stores the parsed document (the seed\'s logo byte for byte), not the bytes around it', async () => {
    const network = await createNetwork();
    const res = await upload(network, `<?xml version="1.0"?>\n<!-- made by hand -->\n${seedLogo}\n`, 'image/svg+xml');
    expect(res.statusCode).toBe(200);
    expect((await t.get(res.json<{ url: string }>().url)).body).toBe(seedLogo);
  });
});

describe('stored uploads are served so that they cannot act', () => {
  it('sends a sandbox CSP of its own, nosniff, the exact content type and an inline disposition with a safe name', async () => {
    const network = await createNetwork();
    for (const [body, contentType] of [[await image(64, 64, 'png'), 'image/png'], [await image(64, 64, 'webp'), 'image/webp'], [svg('<rect width="8" height="8"/>'), 'image/svg+xml']] as const) {
      const res = await upload(network, body, contentType);
      expect(res.statusCode).toBe(200);
      const url = res.json<{ url: string }>().url;
      const key = url.split('/').pop();
      const file = await t.get(url);
      expect(file.statusCode).toBe(200);
      expect({
        csp: file.headers['content-security-policy'], nosniff: file.headers['x-content-type-options'], type: file.headers['content-type'],
        disposition: file.headers['content-disposition'], cache: file.headers['cache-control'],
      }).toEqual({
        csp: UPLOAD_CSP, nosniff: 'nosniff', type: contentType, disposition: `inline; filename="${key}"`, cache: 'public, max-age=31536000, immutable',
      });
    }
  });

  it('serves a hostile SVG that reached the store some other way (an older release) under the same sandbox', async () => {
    const hostile = Buffer.from(svg('<script>alert(document.cookie)</script>'));
    const key = `${'ab'.repeat(32)}.svg`;
    await createUploadStorage(dataDir).put(key, hostile);
    // Served at the old unscoped address only as a file a site held before issue 37 (migration 0031's backfill).
    expect((await t.get(`${APPCMS_PATHS.files}/${key}`)).statusCode).toBe(404);
    await t.db.insert(uploadFiles).values({ siteId: (await t.siteByName(SITE)).id, key, legacy: true });
    const file = await t.get(`${APPCMS_PATHS.files}/${key}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(hostile)).toBe(true);
    expect(file.headers['content-security-policy']).toBe(UPLOAD_CSP);
    expect(file.headers['content-type']).toBe('image/svg+xml');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a missing file with JSON under the same sandbox', async () => {
    const file = await t.get(`${APPCMS_PATHS.files}/${'0'.repeat(64)}.svg`);
    expect(file.statusCode).toBe(404);
    expect(file.json()).toMatchObject({ success: false });
    expect(file.headers['content-security-policy']).toBe(UPLOAD_CSP);
  });
});

describe('PNG and WebP uploads: decoded, size-checked and re-encoded', () => {
  const pixels = APPCMS_MESSAGES.uploadPixels(UPLOAD_LIMITS.minPixels, UPLOAD_LIMITS.maxPixels);

  it('stores a PNG polyglot (HTML after IEND) as re-encoded pixels: no HTML, same size', async () => {
    const network = await createNetwork();
    const polyglot = Buffer.concat([await image(64, 32, 'png'), Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);
    const res = await upload(network, polyglot, 'image/png');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ contentType: 'image/png', width: 64, height: 32 });
    const stored = (await t.get(res.json<{ url: string }>().url)).rawPayload;
    expect(stored.includes('<html')).toBe(false);
    expect(stored.includes('<script')).toBe(false);
    const meta = await sharp(stored).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: 64, height: 32 });
  });

  it('stores a normal PNG and WebP re-encoded without metadata: other bytes, the same picture size', async () => {
    const network = await createNetwork();
    for (const format of ['png', 'webp'] as const) {
      const original = await sharp({ create: { width: 120, height: 48, channels: 3, background: '#1370B3' } })
        .withExif({ IFD0: { Copyright: 'Tracked Camera 9000', ImageDescription: 'secret location' } })[format]().toBuffer();
      expect((await sharp(original).metadata()).exif).toBeInstanceOf(Buffer);
      const res = await upload(network, original, `image/${format}`);
      expect(res.statusCode).toBe(200);
      const { url, width, height } = res.json<{ url: string; width: number; height: number }>();
      expect({ width, height }).toEqual({ width: 120, height: 48 });
      const stored = (await t.get(url)).rawPayload;
      expect(stored.equals(original)).toBe(false);
      expect(stored.includes('Tracked Camera')).toBe(false);
      const meta = await sharp(stored).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({ format, width: 120, height: 48, exif: undefined });
      const [audit] = (await uploadAudits(network)).filter((row) => (row.detail as { contentType: string }).contentType === `image/${format}`);
      expect(audit?.detail).toMatchObject({ bytes: stored.length, width: 120, height: 48 });
    }
  });

  it('refuses a 4096 × 4096 PNG and WebP (64 MiB decoded) and one side over the limit by their real size', async () => {
    const big = await image(4096, 4096, 'png');
    expect(big.length).toBeLessThan(UPLOAD_LIMITS.maxBytes);
    await expectRefused(big, 'image/png', pixels);
    await expectRefused(await image(4096, 4096, 'webp'), 'image/webp', pixels);
    await expectRefused(await image(UPLOAD_LIMITS.maxPixels + 1, 16, 'png'), 'image/png', pixels);
    await expectRefused(await image(8, 8, 'png'), 'image/png', pixels);
  });

  it('accepts the largest allowed size', async () => {
    const network = await createNetwork();
    const res = await upload(network, await image(UPLOAD_LIMITS.maxPixels, UPLOAD_LIMITS.maxPixels, 'png'), 'image/png');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ width: UPLOAD_LIMITS.maxPixels, height: UPLOAD_LIMITS.maxPixels });
  });

  it.each([
    ['HTML behind a PNG signature', async () => Buffer.concat([(await image(64, 64, 'png')).subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')])],
    ['a PNG header alone (signature and IHDR, no pixels)', async () => (await image(64, 64, 'png')).subarray(0, 33)],
    ['a truncated PNG', async () => { const b = await image(64, 64, 'png'); return b.subarray(0, b.length - 20); }],
    ['a PNG cut in half', async () => { const b = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 30 } } }).png().toBuffer(); return b.subarray(0, b.length >> 1); }],
    ['a truncated WebP', async () => { const b = await image(64, 64, 'webp'); return b.subarray(0, b.length - 10); }],
    ['HTML behind a WebP signature', async () => Buffer.concat([Buffer.from('RIFF\u0040\u0000\u0000\u0000WEBPVP8L', 'latin1'), Buffer.from('<html><script>alert(1)</script></html>')])],
  ])('refuses %s as undecodable', async (_name, make) => {
    await expectRefused(await make(), 'image/png', APPCMS_MESSAGES.uploadUndecodable);
  });

  it('refuses a JPEG (not an accepted type), whatever it is called', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1370B3' } }).jpeg().toBuffer();
    await expectRefused(jpeg, 'image/png', APPCMS_MESSAGES.uploadType);
  });
});

/**
 * Issue 37: the file store is shared by content hash, but files belong to the site that uploaded
 * them. Another site's file cannot be referenced (brand images, content artwork: a 400 naming the
 * field, exactly as for a file never uploaded) nor fetched at a site's address (404), and a new
 * upload is not served at the old unscoped address. Files a site referenced before (migration 0031's
 * backfill) keep working at their old address, for that site only.
 */
describe('uploaded files are scoped to their site', () => {
  const OTHER = DEMO_SITES.northwind;
  let other: Session;
  let own: { id: string };
  let foreign: { id: string };
  const headersOf = (session: Session) => ({ ...session.headers, 'content-type': 'application/json' });

  async function brandedNetwork(siteId: string): Promise<string> {
    const identifier = `s-${randomUUID().slice(0, 8)}`;
    const [row] = await t.db.insert(networks).values({ siteId, identifier, name: `Scope ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false }).returning();
    const theme = { primaryColor: '#AA0000', secondaryColor: '#222222', backgroundColor: '#FAFAFA', textColor: '#000000', fontFamily: 'Inter' };
    await t.db.insert(networkBrands).values({ networkId: row!.id, logoUrl: '/a-logo.png', iconUrl: '/a-icon.png', theme, themeOtt: theme, themeApps: theme });
    return identifier;
  }

  async function saveBrand(session: Session, site: string, network: string, change: Record<string, string>) {
    const current = await t.inject({ method: 'GET', url: `${APPCMS_PATHS.brand}/${site}/${network}`, headers: session.headers });
    expect(current.statusCode).toBe(200);
    const { network: _n, ...brand } = current.json<Record<string, unknown>>();
    void _n;
    return t.inject({ method: 'PUT', url: `${APPCMS_PATHS.brand}/${site}/${network}`, headers: headersOf(session), payload: JSON.stringify({ ...brand, ...change }) });
  }

  const createContent = (session: Session, change: Record<string, string>) => t.inject({
    method: 'POST', url: CONTENT_CREATE_PATHS.create, headers: headersOf(session),
    payload: JSON.stringify({ kind: 'video', title: `Scope ${randomUUID().slice(0, 8)}`, genre: 'Drama', rating: 'PG-13', originalLanguage: 'en', durationSeconds: 600, ...change }),
  });

  beforeAll(async () => {
    own = await t.siteByName(SITE);
    foreign = await t.siteByName(OTHER);
    const user = await t.createUser({ site: OTHER, roles: { 'App CMS': 'write', Content: 'write' }, prefix: 'scope-other' });
    other = await t.login(user.username);
  });

  it("another site's upload is a 404 at any address but its own site's, and cannot be referenced by brand or artwork (400 naming the field)", async () => {
    const network = await brandedNetwork(own.id);
    const res = await upload(network, await image(300, 120, 'png'), 'image/png');
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    const key = url.split('/').pop()!;
    expect(url).toBe(`${APPCMS_PATHS.files}/${own.id}/${key}`);
    expect((await t.get(url)).statusCode).toBe(200);
    // A site address that is not a site id is bad input, never a 500.
    expect((await t.get(`${APPCMS_PATHS.files}/not-a-site/${key}`)).statusCode).toBe(400);
    expect((await t.get(`${APPCMS_PATHS.files}/${own.id.toUpperCase()}/${key}`)).statusCode).toBe(400);
    // Not at the other site's address, nor at the old unscoped one (a new upload is not legacy).
    for (const address of [`${APPCMS_PATHS.files}/${foreign.id}/${key}`, `${APPCMS_PATHS.files}/${key}`]) {
      const served = await t.get(address);
      expect(served.statusCode, address).toBe(404);
      expect(served.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
    }

    const otherNetwork = await brandedNetwork(foreign.id);
    for (const [field, value] of [
      ['logoUrl', url], ['iconUrl', url], ['logoUrl', `${APPCMS_PATHS.files}/${key}`], ['logoUrl', `${APPCMS_PATHS.files}/${foreign.id}/${key}`],
      ['logoUrl', `${APPCMS_PATHS.files}/${foreign.id}/../${key}`],
    ] as const) {
      const saved = await saveBrand(other, OTHER, otherNetwork, { [field]: value });
      expect(saved.statusCode, `${field} = ${value}`).toBe(400);
      expect(saved.json()).toEqual({ success: false, message: APPCMS_MESSAGES.fileNotOfSite, fields: { [field]: APPCMS_MESSAGES.fileNotOfSite } });
    }
    const brand = await t.inject({ method: 'GET', url: `${APPCMS_PATHS.brand}/${OTHER}/${otherNetwork}`, headers: other.headers });
    expect(brand.json()).toMatchObject({ logoUrl: '/a-logo.png', iconUrl: '/a-icon.png', version: 1 });
    // The owner references it (its own address), and a link elsewhere is not a file of this server.
    expect((await saveBrand(admin, SITE, network, { logoUrl: url })).statusCode).toBe(200);
    expect((await saveBrand(other, OTHER, otherNetwork, { logoUrl: 'https://cdn.example.test/logo.png' })).statusCode).toBe(200);

    // Content artwork: the poster this site uploaded, named by another site's writer.
    const poster = await t.inject({
      method: 'POST', url: `${CONTENT_CREATE_PATHS.artwork}/poster`, payload: await image(240, 360, 'png'),
      headers: { ...admin.headers, 'content-type': 'image/png' },
    });
    expect(poster.statusCode).toBe(200);
    const posterUrl = poster.json<{ url: string }>().url;
    expect(posterUrl.startsWith(`${APPCMS_PATHS.files}/${own.id}/`)).toBe(true);
    const posterKey = posterUrl.split('/').pop()!;
    for (const value of [posterUrl, `${APPCMS_PATHS.files}/${posterKey}`, `${APPCMS_PATHS.files}/${foreign.id}/${posterKey}`]) {
      const created = await createContent(other, { posterUrl: value });
      expect(created.statusCode, value).toBe(400);
      expect(created.json()).toMatchObject({ success: false, message: CONTENT_CREATE_MESSAGES.artworkUrlInvalid, fields: { posterUrl: CONTENT_CREATE_MESSAGES.artworkUrlInvalid } });
      const thumb = await createContent(other, { thumbnailUrl: value });
      expect(thumb.json()).toMatchObject({ fields: { thumbnailUrl: CONTENT_CREATE_MESSAGES.artworkUrlInvalid } });
    }
    expect((await createContent(admin, { posterUrl })).statusCode).toBe(200);

    // The other site uploading the same bytes holds its own copy, at its own address only.
    const again = await t.inject({
      method: 'POST', url: `${CONTENT_CREATE_PATHS.artwork}/poster`, payload: await image(240, 360, 'png'),
      headers: { ...other.headers, 'content-type': 'image/png' },
    });
    expect(again.json<{ url: string }>().url).toBe(`${APPCMS_PATHS.files}/${foreign.id}/${posterKey}`);
    expect((await createContent(other, { posterUrl: again.json<{ url: string }>().url })).statusCode).toBe(200);
  });

  it('migration 0031 keeps the files sites referenced before: served at their old address, referable by their site only', async () => {
    const network = await brandedNetwork(own.id);
    const res = await upload(network, await image(310, 120, 'png'), 'image/png');
    const key = res.json<{ url: string }>().url.split('/').pop()!;
    const legacyUrl = `${APPCMS_PATHS.files}/${key}`;
    // As an older release left it: the brand names the unscoped address, and nobody holds the file yet.
    const [row] = await t.db.select({ id: networks.id }).from(networks).where(eq(networks.identifier, network));
    await t.db.update(networkBrands).set({ logoUrl: legacyUrl }).where(eq(networkBrands.networkId, row!.id));
    await t.db.delete(uploadFiles).where(eq(uploadFiles.key, key));
    expect((await t.get(legacyUrl)).statusCode).toBe(404);
    const migration = readFileSync(join(import.meta.dirname, 'db', 'migrations', '0031_upload_site_scope.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await t.db.execute(sql.raw(statement));

    expect(await t.db.select({ siteId: uploadFiles.siteId, legacy: uploadFiles.legacy }).from(uploadFiles).where(eq(uploadFiles.key, key)))
      .toEqual([{ siteId: own.id, legacy: true }]);
    expect((await t.get(legacyUrl)).statusCode).toBe(200);
    expect((await t.get(`${APPCMS_PATHS.files}/${own.id}/${key}`)).statusCode).toBe(200);
    expect((await t.get(`${APPCMS_PATHS.files}/${foreign.id}/${key}`)).statusCode).toBe(404);
    // Its site saves the brand as it is and may name it again; the other site may not.
    expect((await saveBrand(admin, SITE, network, { iconUrl: legacyUrl })).statusCode).toBe(200);
    const otherNetwork = await brandedNetwork(foreign.id);
    expect((await saveBrand(other, OTHER, otherNetwork, { logoUrl: legacyUrl })).json()).toMatchObject({ fields: { logoUrl: APPCMS_MESSAGES.fileNotOfSite } });
  });
});

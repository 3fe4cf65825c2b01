/**
 * Issue 30: the demo world's logos and icons are the server's own files (public/demo-brand/, served
 * beside the console), not a host that does not resolve: every seeded brand points at one that exists
 * and the server answers it as an image.
 */
import { existsSync, mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkBrands } from './db/schema';
import { createTestApp, openIsolatedTestDb, type TestApp } from './test/kit';

let t: TestApp;
let dist: string;
// A database of its own: on the PostgreSQL stage other files write brand images into the shared demo site.
let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'cms-demo-brand-'));
  cpSync('public', dist, { recursive: true });
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, staticDir: dist, db: own.handle });
});
afterAll(async () => {
  await t?.close();
  await own?.drop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the demo brands\' images', () => {
  it('are files the server ships and serves as images', async () => {
    const brands = await t.db.select({ logoUrl: networkBrands.logoUrl, iconUrl: networkBrands.iconUrl }).from(networkBrands);
    expect(brands.length).toBeGreaterThanOrEqual(7);
    for (const url of brands.flatMap((b) => [b.logoUrl, b.iconUrl])) {
      expect(url, url).toMatch(/^\/demo-brand\/[a-z-]+-(logo|icon)\.svg$/);
      expect(existsSync(join('public', url)), url).toBe(true);
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^image\/svg\+xml/);
    }
  });
});

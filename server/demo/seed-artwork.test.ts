/**
 * Issue 38: the demo world's items are seeded with real artwork: each item's drawn poster as a
 * 320 × 180 PNG in the upload store, held by its site, named by its artworkUrl (an address the
 * item page and the library load, and one an edit may keep). Deterministic. Own database.
 */
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTWORK_URL } from '../../common/content';
import { contentItems, sites, uploadFiles } from '../db/schema';
import { isSiteArtwork } from '../domain/artwork-reference';
import { createContentStore } from '../db/stores';
import { createMemoryStorage, parseFileUrl, type UploadStorage } from '../storage/upload-storage';
import { openIsolatedTestDb, TEST_SEED_PASSWORD } from '../test/kit';
import { prepareDemoDatabase } from './prepare';
import { addSeedArtwork, posterPng } from './seed-artwork';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const fastHash = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let storage: UploadStorage;
beforeAll(async () => {
  own = await openIsolatedTestDb();
  storage = createMemoryStorage();
  await prepareDemoDatabase(own.handle, { config: { seed: true, seedPassword: TEST_SEED_PASSWORD, seedScale: 0.02, production: false, argon2: fastHash }, log, storage });
}, 120_000);
afterAll(async () => {
  await own?.drop();
});

describe('seeded artwork (server/demo/seed-artwork.ts)', () => {
  it('gives every seeded item a stored PNG poster of its own site, which an edit may reference', async () => {
    const items = await own.handle.db.select({ id: contentItems.id, siteId: contentItems.siteId, artworkUrl: contentItems.artworkUrl }).from(contentItems);
    expect(items.length).toBeGreaterThan(10);
    for (const item of items) {
      expect(item.artworkUrl).toMatch(ARTWORK_URL);
      const ref = parseFileUrl(item.artworkUrl);
      expect(ref).toMatchObject({ siteId: item.siteId });
      expect(await isSiteArtwork(createContentStore(own.handle.db), storage, item.siteId, item.artworkUrl)).toBe(true);
    }
    const sample = parseFileUrl(items[0]!.artworkUrl) as { key: string };
    const meta = await sharp((await storage.get(sample.key))!).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 320, height: 180 });
    // One upload_files row per (site, file): the files route serves a site only its own.
    const keys = new Set(items.map((item) => `${item.siteId}/${item.artworkUrl.split('/').at(-1)}`));
    const [held] = await own.handle.db.select({ n: count() }).from(uploadFiles);
    expect(Number(held!.n)).toBe(keys.size);
    const [viewlift] = await own.handle.db.select({ id: sites.id }).from(sites).where(eq(sites.siteInternalName, 'viewlift-demo'));
    expect(items.some((item) => item.siteId === viewlift!.id)).toBe(true);
  });

  it('draws the same poster for the same title and genre (same bytes, same key), another for another title', async () => {
    const a = await posterPng('Harbour Lights', 'Drama');
    const b = await posterPng('Harbour Lights', 'Drama');
    const c = await posterPng('Harbour Nights', 'Drama');
    expect(a.key).toBe(b.key);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.key).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(c.key).not.toBe(a.key);
  });

  it('keeps an artwork an item already has, and shares one file between items alike of one site', async () => {
    const site = '11111111-2222-4333-8444-555555555555';
    const rows: Record<string, unknown>[] = [
      { site_id: site, title: 'Salt Road', genre: 'Drama', artwork_url: '' },
      { site_id: site, title: 'Salt Road', genre: 'Drama', artwork_url: '' },
      { site_id: site, title: 'Kept', genre: 'Drama', artwork_url: '/v2.0/appcms/files/kept.png' },
    ];
    const files = await addSeedArtwork(rows, createMemoryStorage());
    expect(files).toHaveLength(1);
    expect(rows[0]!.artwork_url).toBe(`/v2.0/appcms/files/${site}/${files[0]!.key}`);
    expect(rows[1]!.artwork_url).toBe(rows[0]!.artwork_url);
    expect(rows[2]!.artwork_url).toBe('/v2.0/appcms/files/kept.png');
  });
});

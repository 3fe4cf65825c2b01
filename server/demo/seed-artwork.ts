/**
 * Issue 38: the demo world's items get real artwork at seed time: each item's drawn poster (its title
 * and genre, common/artwork-poster.ts, the item page's look) rendered to a 320 × 180 PNG (the
 * thumbnail slot's smallest size), stored in the upload store the artwork uploads use, held by the
 * item's site (upload_files, issue 37) and named by the item's artworkUrl. Deterministic: the same
 * title and genre give the same bytes, hence the same content-hash key (two items alike share a file).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { posterSvg } from '../../common/artwork-poster';
import type { Db } from '../db/client';
import { recordSiteFile } from '../db/upload-files-repository';
import { siteFileUrl, type UploadStorage } from '../storage/upload-storage';

/** A content_items row as the world generator makes it (site_id, title, genre, artwork_url). */
type SeededItem = Record<string, unknown>;

/** How many posters are rendered at once (libvips threads each; the seed stays a few seconds at most). */
const BATCH = 8;

/** The PNG of an item's poster and its storage key (`<sha256>.png`). */
export async function posterPng(title: string, genre: string): Promise<{ key: string; bytes: Buffer }> {
  const bytes = await sharp(Buffer.from(posterSvg(title, genre))).png().toBuffer();
  return { key: `${createHash('sha256').update(bytes).digest('hex')}.png`, bytes };
}

/**
 * Renders and stores a poster for every item without artwork, and sets its artwork_url (the rows are
 * changed in place, before they are written). Answers the (site, key) pairs to record with
 * `recordSeededArtwork` once the sites' rows are written.
 */
export async function addSeedArtwork(items: SeededItem[], storage: UploadStorage): Promise<{ siteId: string; key: string }[]> {
  const todo = items.filter((item) => !item.artwork_url);
  const rendered = new Map<string, Promise<{ key: string; bytes: Buffer }>>();
  const held = new Map<string, { siteId: string; key: string }>();
  for (let i = 0; i < todo.length; i += BATCH) {
    await Promise.all(todo.slice(i, i + BATCH).map(async (item) => {
      const title = String(item.title);
      const genre = String(item.genre);
      const siteId = String(item.site_id);
      const name = `${genre}\u0000${title}`;
      if (!rendered.has(name)) rendered.set(name, posterPng(title, genre).then(async (png) => (await storage.put(png.key, png.bytes), png)));
      const { key } = await rendered.get(name)!;
      item.artwork_url = siteFileUrl(siteId, key);
      held.set(`${siteId}/${key}`, { siteId, key });
    }));
  }
  return [...held.values()];
}

/** Records that each site holds its seeded posters (the files route serves a site only its own). */
export async function recordSeededArtwork(db: Db, files: { siteId: string; key: string }[]): Promise<void> {
  for (const file of files) await recordSiteFile(db, file.siteId, file.key);
}

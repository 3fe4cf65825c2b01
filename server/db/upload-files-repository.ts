/**
 * Which site holds which stored upload (upload_files, issue 37). The bytes are in the shared,
 * content-addressed store (server/storage/upload-storage.ts); a row here is what makes a file one
 * site's: an upload records it, a reference in a write and the files route ask for it.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from './client';
import { uploadFiles } from './schema';

type Executor = Pick<Db, 'select' | 'insert'>;

/** Records that siteId holds the stored file `key` (again is a no-op). */
export async function recordSiteFile(db: Executor, siteId: string, key: string): Promise<void> {
  await db.insert(uploadFiles).values({ siteId, key }).onConflictDoNothing({ target: [uploadFiles.siteId, uploadFiles.key] });
}

/**
 * The site's hold on a stored file: 'scoped' (its file), 'legacy' (its file from before issue 37,
 * also addressable unscoped), or undefined (not its file: never uploaded, or another site's).
 */
export async function siteFileHold(db: Executor, siteId: string, key: string): Promise<'scoped' | 'legacy' | undefined> {
  const [row] = await db.select({ legacy: uploadFiles.legacy }).from(uploadFiles).where(and(eq(uploadFiles.siteId, siteId), eq(uploadFiles.key, key)));
  return row ? (row.legacy ? 'legacy' : 'scoped') : undefined;
}

/** True when some site holds `key` from before issue 37 (its old unscoped address still serves it). */
export async function isLegacyFile(db: Executor, key: string): Promise<boolean> {
  const [row] = await db.select({ key: uploadFiles.key }).from(uploadFiles).where(and(eq(uploadFiles.key, key), eq(uploadFiles.legacy, true))).limit(1);
  return row !== undefined;
}

/**
 * Whether a site may reference the file a URL names (issue 37): its own file at its own address, or
 * its own legacy file at the old unscoped one. Another site's file, a file never uploaded and a URL
 * naming another site are all refused alike (no answer tells them apart).
 */
export async function siteMayReference(db: Executor, siteId: string, ref: { siteId?: string; key: string }): Promise<boolean> {
  if (ref.siteId !== undefined && ref.siteId !== siteId) return false;
  const hold = await siteFileHold(db, siteId, ref.key);
  return ref.siteId !== undefined ? hold !== undefined : hold === 'legacy';
}

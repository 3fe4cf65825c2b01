/**
 * Issue 40: SQL of the site's videos (media_assets, media_captions) and of the video attached to a
 * content item. The rules are server/domain/media.ts and media-jobs.ts; the encode attempt's lease
 * (`claimEncode`, `updateAsset` with an attempt guard) is what keeps two workers from writing one asset.
 */
import { and, count, desc, eq, ilike, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { insertAuditEvent } from './audit-repository';
import { transactionalStore } from './bound-store';
import { insertRevision } from './revision-repository';
import { containsPattern } from './like-pattern';
import { contentItems, ingestionKeys, mediaAssets, mediaCaptions, networkSettings, networks, subscribers } from './schema';
import { createHash } from 'node:crypto';

export type MediaAssetDbRow = typeof mediaAssets.$inferSelect;

type Changes = Partial<Omit<MediaAssetDbRow, 'id' | 'siteId' | 'createdAt' | 'version'>>;

export async function insertAsset(db: Db, values: typeof mediaAssets.$inferInsert): Promise<MediaAssetDbRow> {
  const [row] = await db.insert(mediaAssets).values(values).returning();
  if (!row) throw new Error('media asset insert returned nothing');
  return row;
}

export async function findAsset(db: Db, siteId: string, id: string): Promise<MediaAssetDbRow | undefined> {
  const [row] = await db.select().from(mediaAssets).where(and(eq(mediaAssets.siteId, siteId), eq(mediaAssets.id, id))).limit(1);
  return row;
}

export async function findAssetAnySite(db: Db, id: string): Promise<MediaAssetDbRow | undefined> {
  const [row] = await db.select().from(mediaAssets).where(eq(mediaAssets.id, id)).limit(1);
  return row;
}

export async function listAssets(db: Db, siteId: string, query: { start: number; limit: number; q?: string; status?: string }): Promise<{ rows: MediaAssetDbRow[]; total: number }> {
  const where = and(
    eq(mediaAssets.siteId, siteId),
    query.status ? eq(mediaAssets.status, query.status) : undefined,
    query.q ? or(ilike(mediaAssets.title, containsPattern(query.q)), ilike(mediaAssets.filename, containsPattern(query.q))) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(mediaAssets).where(where).orderBy(desc(mediaAssets.createdAt), desc(mediaAssets.id)).offset(query.start).limit(query.limit),
    db.select({ n: count() }).from(mediaAssets).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function updateAsset(db: Db, id: string, changes: Changes, guard: { attempt?: number; statuses?: string[] } = {}): Promise<MediaAssetDbRow | undefined> {
  const [row] = await db.update(mediaAssets)
    .set({ ...changes, version: sql`${mediaAssets.version} + 1`, updatedAt: new Date() })
    .where(and(
      eq(mediaAssets.id, id),
      guard.attempt === undefined ? undefined : eq(mediaAssets.attempt, guard.attempt),
      guard.statuses ? inArray(mediaAssets.status, guard.statuses) : undefined,
    ))
    .returning();
  return row;
}

export async function claimEncode(db: Db, id: string, leaseSeconds: number): Promise<MediaAssetDbRow | undefined> {
  const [row] = await db.update(mediaAssets)
    .set({
      attempt: sql`${mediaAssets.attempt} + 1`,
      leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      progress: {},
      version: sql`${mediaAssets.version} + 1`,
      updatedAt: new Date(),
    })
    .where(and(
      eq(mediaAssets.id, id),
      inArray(mediaAssets.status, ['preparing', 'viewable']),
      or(sql`${mediaAssets.leaseUntil} IS NULL`, lt(mediaAssets.leaseUntil, sql`now()`)),
    ))
    .returning();
  return row;
}

export async function staleEncodes(db: Db, limit: number): Promise<{ id: string }[]> {
  return db.select({ id: mediaAssets.id }).from(mediaAssets).where(and(
    inArray(mediaAssets.status, ['preparing', 'viewable']),
    isNotNull(mediaAssets.leaseUntil),
    lt(mediaAssets.leaseUntil, sql`now()`),
  )).limit(limit);
}

export async function abandonedUploads(db: Db, before: Date, limit: number): Promise<MediaAssetDbRow[]> {
  return db.select().from(mediaAssets).where(and(
    inArray(mediaAssets.status, ['waiting', 'uploading']),
    lt(mediaAssets.updatedAt, before),
  )).limit(limit);
}

export async function captionsOf(db: Db, assetIds: string[]): Promise<{ assetId: string; language: string; label: string; vtt: string }[]> {
  if (assetIds.length === 0) return [];
  return db.select({ assetId: mediaCaptions.assetId, language: mediaCaptions.language, label: mediaCaptions.label, vtt: sql<string>`''` })
    .from(mediaCaptions).where(inArray(mediaCaptions.assetId, assetIds)).orderBy(mediaCaptions.language);
}

export async function putCaption(db: Db, siteId: string, row: { assetId: string; language: string; label: string; vtt: string }): Promise<void> {
  await db.insert(mediaCaptions).values({ siteId, ...row })
    .onConflictDoUpdate({ target: [mediaCaptions.assetId, mediaCaptions.language], set: { label: row.label, vtt: row.vtt, createdAt: new Date() } });
}

export async function findCaption(db: Db, assetId: string, language: string): Promise<{ assetId: string; language: string; label: string; vtt: string } | undefined> {
  const [row] = await db.select({ assetId: mediaCaptions.assetId, language: mediaCaptions.language, label: mediaCaptions.label, vtt: mediaCaptions.vtt })
    .from(mediaCaptions).where(and(eq(mediaCaptions.assetId, assetId), eq(mediaCaptions.language, language))).limit(1);
  return row;
}

export async function deleteCaption(db: Db, assetId: string, language: string): Promise<boolean> {
  const rows = await db.delete(mediaCaptions).where(and(eq(mediaCaptions.assetId, assetId), eq(mediaCaptions.language, language))).returning({ id: mediaCaptions.id });
  return rows.length > 0;
}

export async function contentIdsOf(db: Db, assetIds: string[]): Promise<{ assetId: string; contentId: string }[]> {
  if (assetIds.length === 0) return [];
  const rows = await db.select({ assetId: contentItems.mediaAssetId, contentId: contentItems.id }).from(contentItems)
    .where(inArray(contentItems.mediaAssetId, assetIds));
  return rows.flatMap((r) => (r.assetId ? [{ assetId: r.assetId, contentId: r.contentId }] : []));
}

const CONTENT_COLUMNS = {
  id: contentItems.id, siteId: contentItems.siteId, kind: contentItems.kind, title: contentItems.title, status: contentItems.status,
  mediaAssetId: contentItems.mediaAssetId, version: contentItems.version,
};

export async function findMediaContent(db: Db, siteId: string, id: string, lock = false) {
  const query = db.select(CONTENT_COLUMNS).from(contentItems).where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id))).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function setContentVideo(db: Db, row: { id: string; siteId: string }, assetId: string | null) {
  const [after] = await db.update(contentItems)
    .set({ mediaAssetId: assetId, version: sql`${contentItems.version} + 1`, updatedAt: new Date() })
    .where(and(eq(contentItems.id, row.id), eq(contentItems.siteId, row.siteId)))
    .returning(CONTENT_COLUMNS);
  if (!after) throw new Error('content item vanished during its video change');
  return after;
}

export async function publishViewableVideos(db: Db, siteId: string): Promise<boolean> {
  const [row] = await db.select({ values: networkSettings.values }).from(networkSettings)
    .innerJoin(networks, eq(networks.id, networkSettings.networkId))
    .where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true))).limit(1);
  return row?.values.publishViewableVideos === true;
}

/** The console preview's viewer (one per site). */
export const PREVIEW_VIEWER = { email: 'preview@cms-tools.invalid', name: 'CMS Tools preview', country: 'US' } as const;

/**
 * The site's preview ingestion key (stored by its SHA-256 only, label "CMS Tools preview") and its
 * preview viewer on the default network, made on first use. Answers null for a site without a network.
 */
export async function previewIdentity(db: Db, siteId: string, key: string): Promise<{ subscriberId: string; networkId: string; country: string } | null> {
  const keyHash = createHash('sha256').update(key).digest('hex');
  await db.insert(ingestionKeys).values({ siteId, keyHash, label: 'CMS Tools preview' }).onConflictDoNothing();
  const [existing] = await db.select({ id: subscribers.id, networkId: subscribers.networkId, country: subscribers.country }).from(subscribers)
    .where(and(eq(subscribers.siteId, siteId), eq(subscribers.email, PREVIEW_VIEWER.email))).limit(1);
  if (existing) return { subscriberId: existing.id, networkId: existing.networkId, country: existing.country };
  const [network] = await db.select({ id: networks.id }).from(networks).where(eq(networks.siteId, siteId)).orderBy(desc(networks.isDefault)).limit(1);
  if (!network) return null;
  const [row] = await db.insert(subscribers).values({ siteId, networkId: network.id, email: PREVIEW_VIEWER.email, name: PREVIEW_VIEWER.name, country: PREVIEW_VIEWER.country })
    .returning({ id: subscribers.id });
  return row ? { subscriberId: row.id, networkId: network.id, country: PREVIEW_VIEWER.country } : null;
}

/** The media store (server/domain/media-ports.ts MediaStore) over `db`. */
export function createMediaStore(db: Db) {
  return transactionalStore(db, {
    insertAuditEvent, insertRevision, insertAsset, findAsset, findAssetAnySite, listAssets, updateAsset, claimEncode, staleEncodes, abandonedUploads,
    captionsOf, putCaption, findCaption, deleteCaption, contentIdsOf, findContent: findMediaContent, setContentVideo, previewIdentity, publishViewableVideos,
  });
}

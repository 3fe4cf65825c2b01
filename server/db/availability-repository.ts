/**
 * SQL of content availability (issue 29): country groups, licences, an item's publish/unpublish
 * times and the pg-boss job ids that carry them out, and the "all matching" bulk action. Every
 * statement is scoped to one site.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ContentKind, ContentStatus } from '../../common/content';
import type { CountryGroup, Licence } from '../../common/content-availability';
import type { Db } from './client';
import { matchCondition } from './content-repository';
import { contentItems, contentLicences, countryGroups } from './schema';

export type CountryGroupRow = typeof countryGroups.$inferSelect;
export type LicenceRow = typeof contentLicences.$inferSelect;
type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/* ------------------------------------ country groups ------------------------------------ */

function usage(siteId: string) {
  return {
    usedByItems: sql<number>`(SELECT count(*)::int FROM ${contentItems} c WHERE c.site_id = ${siteId}::uuid AND c.country_group_ids @> jsonb_build_array("country_groups"."id"::text))`,
    usedByLicences: sql<number>`(SELECT count(*)::int FROM ${contentLicences} l WHERE l.site_id = ${siteId}::uuid AND l.country_group_ids @> jsonb_build_array("country_groups"."id"::text))`,
  };
}

function toGroup(row: CountryGroupRow & { usedByItems: number; usedByLicences: number }): CountryGroup {
  return {
    id: row.id, name: row.name, countries: row.countries, version: row.version,
    usedByItems: Number(row.usedByItems), usedByLicences: Number(row.usedByLicences),
  };
}

export async function listCountryGroups(db: Tx, siteId: string): Promise<CountryGroup[]> {
  const rows = await db.select({ ...selectGroup, ...usage(siteId) }).from(countryGroups)
    .where(eq(countryGroups.siteId, siteId)).orderBy(asc(sql`lower(${countryGroups.name})`), asc(countryGroups.id));
  return rows.map(toGroup);
}

const selectGroup = {
  id: countryGroups.id, siteId: countryGroups.siteId, name: countryGroups.name, countries: countryGroups.countries,
  version: countryGroups.version, createdAt: countryGroups.createdAt, updatedAt: countryGroups.updatedAt,
};

export async function findCountryGroup(db: Tx, siteId: string, id: string): Promise<CountryGroup | undefined> {
  const [row] = await db.select({ ...selectGroup, ...usage(siteId) }).from(countryGroups)
    .where(and(eq(countryGroups.siteId, siteId), eq(countryGroups.id, id))).limit(1);
  return row ? toGroup(row) : undefined;
}

export async function countryGroupNameTaken(db: Tx, siteId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: countryGroups.id }).from(countryGroups)
    .where(and(eq(countryGroups.siteId, siteId), sql`lower(${countryGroups.name}) = lower(${name})`)).limit(2);
  return rows.some((row) => row.id !== exceptId);
}

export async function insertCountryGroup(db: Tx, siteId: string, values: { name: string; countries: string[] }, at: Date): Promise<CountryGroupRow> {
  const [row] = await db.insert(countryGroups).values({ siteId, ...values, createdAt: at, updatedAt: at }).returning();
  return row!;
}

export async function updateCountryGroup(db: Tx, siteId: string, id: string, version: number, values: { name?: string; countries?: string[] }, at: Date): Promise<CountryGroupRow | undefined> {
  const [row] = await db.update(countryGroups).set({ ...values, version: sql`${countryGroups.version} + 1`, updatedAt: at })
    .where(and(eq(countryGroups.siteId, siteId), eq(countryGroups.id, id), eq(countryGroups.version, version))).returning();
  return row;
}

export async function deleteCountryGroup(db: Tx, siteId: string, id: string, version: number): Promise<boolean> {
  const rows = await db.delete(countryGroups)
    .where(and(eq(countryGroups.siteId, siteId), eq(countryGroups.id, id), eq(countryGroups.version, version))).returning({ id: countryGroups.id });
  return rows.length > 0;
}

/** How many of `ids` are country groups of the site. */
export async function countCountryGroups(db: Tx, siteId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.select({ id: countryGroups.id }).from(countryGroups)
    .where(and(eq(countryGroups.siteId, siteId), inArray(countryGroups.id, ids)));
  return rows.length;
}

/* --------------------------------------- licences --------------------------------------- */

const selectLicence = {
  id: contentLicences.id, contentId: contentLicences.contentId, contentTitle: contentItems.title, name: contentLicences.name,
  startsAt: contentLicences.startsAt, endsAt: contentLicences.endsAt, countryGroupIds: contentLicences.countryGroupIds,
  version: contentLicences.version,
};

function toLicence(row: { id: string; contentId: string; contentTitle: string; name: string; startsAt: Date; endsAt: Date; countryGroupIds: string[]; version: number }): Licence {
  return { ...row, startsAt: row.startsAt.toISOString(), endsAt: row.endsAt.toISOString() };
}

export async function listLicences(db: Tx, siteId: string, contentId?: string): Promise<Licence[]> {
  const rows = await db.select(selectLicence).from(contentLicences)
    .innerJoin(contentItems, eq(contentItems.id, contentLicences.contentId))
    .where(and(eq(contentLicences.siteId, siteId), contentId ? eq(contentLicences.contentId, contentId) : undefined))
    .orderBy(asc(contentLicences.startsAt), asc(contentLicences.id)).limit(1000);
  return rows.map(toLicence);
}

export async function findLicence(db: Tx, siteId: string, id: string): Promise<Licence | undefined> {
  const [row] = await db.select(selectLicence).from(contentLicences)
    .innerJoin(contentItems, eq(contentItems.id, contentLicences.contentId))
    .where(and(eq(contentLicences.siteId, siteId), eq(contentLicences.id, id))).limit(1);
  return row ? toLicence(row) : undefined;
}

export async function insertLicence(db: Tx, siteId: string, values: { contentId: string; name: string; startsAt: Date; endsAt: Date; countryGroupIds: string[] }, at: Date): Promise<LicenceRow> {
  const [row] = await db.insert(contentLicences).values({ siteId, ...values, createdAt: at, updatedAt: at }).returning();
  return row!;
}

export async function updateLicence(db: Tx, siteId: string, id: string, version: number, values: Partial<Pick<LicenceRow, 'name' | 'startsAt' | 'endsAt' | 'countryGroupIds'>>, at: Date): Promise<LicenceRow | undefined> {
  const [row] = await db.update(contentLicences).set({ ...values, version: sql`${contentLicences.version} + 1`, updatedAt: at })
    .where(and(eq(contentLicences.siteId, siteId), eq(contentLicences.id, id), eq(contentLicences.version, version))).returning();
  return row;
}

export async function deleteLicence(db: Tx, siteId: string, id: string, version: number): Promise<boolean> {
  const rows = await db.delete(contentLicences)
    .where(and(eq(contentLicences.siteId, siteId), eq(contentLicences.id, id), eq(contentLicences.version, version))).returning({ id: contentLicences.id });
  return rows.length > 0;
}

/** The licences of some items (the publish rule reads them). */
export async function licencesOfItems(db: Tx, siteId: string, contentIds: string[]): Promise<LicenceRow[]> {
  if (contentIds.length === 0) return [];
  return db.select().from(contentLicences)
    .where(and(eq(contentLicences.siteId, siteId), inArray(contentLicences.contentId, contentIds)))
    .orderBy(asc(contentLicences.startsAt));
}

/* ----------------------------------- availability of items ----------------------------------- */

export type AvailabilityRow = typeof contentItems.$inferSelect;

export async function findItem(db: Tx, siteId: string, id: string, lock = false): Promise<AvailabilityRow | undefined> {
  const query = db.select().from(contentItems).where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id))).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export type AvailabilityChanges = Partial<Pick<AvailabilityRow, 'status' | 'scheduledAt' | 'unpublishAt' | 'countryGroupIds' | 'publishedAt'>>;

export async function updateAvailability(db: Tx, siteId: string, id: string, version: number, changes: AvailabilityChanges, at: Date): Promise<AvailabilityRow | undefined> {
  const [row] = await db.update(contentItems).set({ ...changes, version: sql`${contentItems.version} + 1`, updatedAt: at })
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id), eq(contentItems.version, version))).returning();
  return row;
}

/** Bookkeeping of the scheduler: the job now carrying a time (no version bump, no revision). Compare-and-set on the previous job id. */
export async function setJob(db: Tx, siteId: string, id: string, which: 'publish' | 'unpublish', previous: string | null, next: { id: string | null; at: Date | null }): Promise<boolean> {
  const idColumn = which === 'publish' ? contentItems.publishJobId : contentItems.unpublishJobId;
  const set = which === 'publish' ? { publishJobId: next.id, publishJobAt: next.at } : { unpublishJobId: next.id, unpublishJobAt: next.at };
  const rows = await db.update(contentItems).set(set)
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id), previous === null ? sql`${idColumn} IS NULL` : eq(idColumn, previous)))
    .returning({ id: contentItems.id });
  return rows.length > 0;
}

/** Items whose times and jobs may disagree, or whose job may be missing (the scheduler's start). */
export async function itemsWithSchedules(db: Tx, limit: number): Promise<Pick<AvailabilityRow, 'id' | 'siteId' | 'publishJobId' | 'publishJobAt' | 'unpublishJobId' | 'unpublishJobAt'>[]> {
  return db.select({
    id: contentItems.id, siteId: contentItems.siteId, publishJobId: contentItems.publishJobId, publishJobAt: contentItems.publishJobAt,
    unpublishJobId: contentItems.unpublishJobId, unpublishJobAt: contentItems.unpublishJobAt,
  }).from(contentItems).where(sql`(${contentItems.scheduledAt} IS NOT NULL OR ${contentItems.unpublishAt} IS NOT NULL
      OR ${contentItems.publishJobId} IS NOT NULL OR ${contentItems.unpublishJobId} IS NOT NULL)`).limit(limit);
}

/* ------------------------------------ all matching ------------------------------------ */

export interface MatchingFilter {
  siteId: string;
  kind?: ContentKind;
  status?: ContentStatus;
  q: string;
}

/** The items a library filter matches, locked for the bulk write (at most `limit`). */
export async function lockMatching(db: Tx, filter: MatchingFilter, limit: number): Promise<AvailabilityRow[]> {
  return db.select().from(contentItems).where(and(
    eq(contentItems.siteId, filter.siteId),
    filter.kind ? eq(contentItems.kind, filter.kind) : undefined,
    filter.status ? eq(contentItems.status, filter.status) : undefined,
    matchCondition(filter.q),
  )).orderBy(asc(contentItems.id)).limit(limit).for('update');
}

export async function setStatusOf(db: Tx, siteId: string, ids: string[], status: 'published' | 'unpublished', at: Date): Promise<AvailabilityRow[]> {
  if (ids.length === 0) return [];
  return db.update(contentItems).set({
    status,
    scheduledAt: null,
    // Issue 37: a manual status change cancels a pending unpublish, publish or unpublish alike.
    unpublishAt: null,
    publishedAt: status === 'published' ? sql`COALESCE(${contentItems.publishedAt}, ${at.toISOString()}::timestamptz)` : contentItems.publishedAt,
    version: sql`${contentItems.version} + 1`,
    updatedAt: at,
  }).where(and(eq(contentItems.siteId, siteId), inArray(contentItems.id, ids))).returning();
}

/* -------------------------------- the scheduler's writes -------------------------------- */

/** Of these pg-boss job ids, those still in the queue's table. */
export async function existingJobIds(db: Tx, queue: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const result = await db.execute<{ id: string }>(sql`SELECT id::text AS id FROM pgboss.job WHERE name = ${queue} AND id = ANY(${`{${chunk.join(',')}}`}::uuid[])`);
    for (const row of (result as unknown as { rows: { id: string }[] }).rows) found.add(row.id);
  }
  return found;
}

export async function clearJob(db: Tx, row: Pick<AvailabilityRow, 'id' | 'siteId'>, which: 'publish' | 'unpublish'): Promise<void> {
  const set = which === 'publish' ? { publishJobId: null, publishJobAt: null } : { unpublishJobId: null, unpublishJobAt: null };
  await db.update(contentItems).set(set).where(and(eq(contentItems.id, row.id), eq(contentItems.siteId, row.siteId)));
}

/** A scheduled item's job ran: published, or back to draft when a licence refuses it. */
export async function applyScheduledPublish(db: Tx, row: AvailabilityRow, at: Date, refused: boolean): Promise<AvailabilityRow> {
  const [after] = await db.update(contentItems).set({
    status: refused ? 'draft' : 'published',
    scheduledAt: null,
    publishJobId: null,
    publishJobAt: null,
    ...(refused ? {} : { publishedAt: row.publishedAt ?? at }),
    version: sql`${contentItems.version} + 1`,
    updatedAt: at,
  }).where(and(eq(contentItems.id, row.id), eq(contentItems.siteId, row.siteId))).returning();
  return after!;
}

export async function applyScheduledUnpublish(db: Tx, row: AvailabilityRow, at: Date): Promise<AvailabilityRow> {
  const [after] = await db.update(contentItems).set({
    status: 'unpublished', unpublishAt: null, unpublishJobId: null, unpublishJobAt: null,
    version: sql`${contentItems.version} + 1`, updatedAt: at,
  }).where(and(eq(contentItems.id, row.id), eq(contentItems.siteId, row.siteId))).returning();
  return after!;
}

/**
 * SQL of the create flow (issue 29), every statement scoped to one site: a new item, a series with
 * its seasons, the episodes of a series and an episode's series (the item page's family).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { ContentFamilyEpisode, ContentStatus } from '../../common/content';
import type { Db } from './client';
import type { ContentRow } from './content-repository';
import { contentItems } from './schema';

export type NewContentRow = Omit<typeof contentItems.$inferInsert, 'id' | 'version' | 'titleWords'>;

/** Inserts one item; answers the stored row. */
export async function insertContent(db: Pick<Db, 'insert'>, values: NewContentRow): Promise<ContentRow> {
  const [row] = await db.insert(contentItems).values(values).returning();
  return row!;
}

/** A series of the site (undefined when the id names nothing, or another kind). */
export async function findSeries(db: Pick<Db, 'select'>, siteId: string, id: string): Promise<ContentRow | undefined> {
  const [row] = await db.select().from(contentItems)
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id), eq(contentItems.kind, 'series')))
    .limit(1);
  return row;
}

/** The season numbers a series' episodes use (the demo's series declare none of their own). */
export async function episodeSeasons(db: Pick<Db, 'selectDistinct'>, siteId: string, seriesId: string): Promise<number[]> {
  const rows = await db.selectDistinct({ season: contentItems.seasonNumber }).from(contentItems)
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.seriesId, seriesId), sql`${contentItems.seasonNumber} IS NOT NULL`));
  return rows.map((row) => row.season!).sort((a, b) => a - b);
}

/** Whether the series already has this episode number in this season. */
export async function episodeTaken(db: Pick<Db, 'select'>, siteId: string, seriesId: string, season: number, episode: number): Promise<boolean> {
  const [row] = await db.select({ id: contentItems.id }).from(contentItems).where(and(
    eq(contentItems.siteId, siteId), eq(contentItems.seriesId, seriesId),
    eq(contentItems.seasonNumber, season), eq(contentItems.episodeNumber, episode),
  )).limit(1);
  return Boolean(row);
}

/** A series' episodes, by season and number. */
export async function seriesEpisodes(db: Pick<Db, 'select'>, siteId: string, seriesId: string): Promise<ContentFamilyEpisode[]> {
  const rows = await db.select({
    id: contentItems.id, title: contentItems.title, status: contentItems.status,
    seasonNumber: contentItems.seasonNumber, episodeNumber: contentItems.episodeNumber, artworkUrl: contentItems.artworkUrl,
  }).from(contentItems)
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.seriesId, seriesId), eq(contentItems.kind, 'episode')))
    .orderBy(asc(contentItems.seasonNumber), asc(contentItems.episodeNumber), asc(contentItems.title));
  return rows.map((row) => ({ ...row, status: row.status as ContentStatus }));
}

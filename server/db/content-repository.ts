/**
 * SQL of the content library, every statement scoped to one site.
 *
 * Search (issue 29: the words of the tags too, ranked with the 'relevance' sort): the query goes through `searchKeyOf` (the rule the stored `title_search` follows), then an
 * item matches when its search key starts with the whole query (btree
 * content_site_title_search_prefix_idx, text_pattern_ops) or when every query word is the prefix of
 * a word of the title (GIN content_title_words_idx over the stored, generated column title_words =
 * to_tsvector('simple', title_search), queried with `word:* & word:*`). PostgreSQL combines both
 * with a BitmapOr; the stored column spares re-parsing every candidate title when it filters.
 *
 * Plays: the sum of `sessions` of daily_playback_rollups (dimension 'content', dim_key = item id)
 * over the last CONTENT_STATS_DAYS UTC days, read through daily_playback_site_dim_key_day_idx.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  CONTENT_STATS_DAYS, searchKeyOf,
  type ContentItem, type ContentKind, type ContentQosSummary, type ContentSort, type ContentSortField, type ContentStatus, type ContentSummary,
} from '../../common/content';
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../common/constants';
import type { Db } from './client';
import { contentItems, dailyPlaybackRollups } from './schema';

export type ContentRow = typeof contentItems.$inferSelect;

/** Query words beyond this many add nothing a person would miss and only cost index lookups. */
const MAX_QUERY_WORDS = 8;

interface ListFilter {
  siteId: string;
  kind?: ContentKind;
  status?: ContentStatus;
  q: string;
  sort: ContentSort;
  start: number;
  limit: number;
  max: number;
  now: Date;
}

/** The first day (UTC, 'YYYY-MM-DD') of the CONTENT_STATS_DAYS days ending on `now`'s day. */
export function statsSince(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (CONTENT_STATS_DAYS - 1)));
  return day.toISOString().slice(0, 10);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `stor:* & wint:*` for "Stor wint"; null when the query has no words. */
function prefixTsQuery(key: string): string | null {
  const words = key.split(' ').filter(Boolean).slice(0, MAX_QUERY_WORDS);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

export function matchCondition(q: string): SQL | undefined {
  const key = searchKeyOf(q);
  const tsQuery = prefixTsQuery(key);
  if (!tsQuery) return undefined;
  return sql`(${contentItems.titleSearch} LIKE ${`${escapeLike(key)}%`}
    OR ${contentItems.titleWords} @@ to_tsquery('simple'::regconfig, ${tsQuery}))`;
}

function playsOf(siteId: string, since: string): SQL<number> {
  return sql<number>`(SELECT COALESCE(SUM(r.sessions), 0)::int FROM ${dailyPlaybackRollups} r
    WHERE r.site_id = ${siteId}::uuid AND r.dimension = 'content' AND r.dim_key = ${contentItems.id}::text AND r.day >= ${since}::date)`;
}

/** Best match first: the whole query as the title's start, then ts_rank over the words of the title and the tags. */
function relevance(q: string): SQL[] | null {
  const key = searchKeyOf(q);
  const tsQuery = prefixTsQuery(key);
  if (!tsQuery) return null;
  return [
    desc(sql`(${contentItems.titleSearch} LIKE ${`${escapeLike(key)}%`})`),
    desc(sql`ts_rank(${contentItems.titleWords}, to_tsquery('simple'::regconfig, ${tsQuery}))`),
    desc(contentItems.updatedAt),
    asc(contentItems.id),
  ];
}

function orderBy(sort: ContentSort, plays: SQL<number>, q = ''): SQL[] {
  if (sort === 'relevance') return relevance(q) ?? [desc(contentItems.updatedAt), asc(contentItems.id)];
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as ContentSortField;
  const column: SQL | typeof contentItems.titleSearch = {
    title: contentItems.titleSearch,
    kind: contentItems.kind,
    status: contentItems.status,
    duration: contentItems.durationSeconds,
    plays30d: plays,
    updated: contentItems.updatedAt,
  }[field] as SQL;
  return [descending ? desc(column) : asc(column), asc(contentItems.id)];
}

function toSummary(row: Pick<ContentRow, 'id' | 'kind' | 'title' | 'status' | 'durationSeconds' | 'updatedAt' | 'version' | 'artworkUrl'>, plays30d: number): ContentSummary {
  return {
    id: row.id,
    kind: row.kind as ContentKind,
    title: row.title,
    status: row.status as ContentStatus,
    durationSeconds: row.durationSeconds,
    plays30d,
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
    artworkUrl: row.artworkUrl,
  };
}

export function toItem(row: ContentRow, plays30d: number): ContentItem {
  return {
    ...toSummary(row, plays30d),
    description: row.description,
    genre: row.genre,
    tags: row.tags,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    posterUrl: row.posterUrl,
    rating: row.rating,
    originalLanguage: row.originalLanguage,
    releaseDate: row.releaseDate,
    startsAt: row.startsAt?.toISOString() ?? null,
    seasons: row.seasons,
    seriesId: row.seriesId,
    seasonNumber: row.seasonNumber,
    episodeNumber: row.episodeNumber,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listContent(db: Db, filter: ListFilter): Promise<{ items: ContentSummary[]; total: number }> {
  const plays = playsOf(filter.siteId, statsSince(filter.now));
  const where = and(
    eq(contentItems.siteId, filter.siteId),
    filter.kind ? eq(contentItems.kind, filter.kind) : undefined,
    filter.status ? eq(contentItems.status, filter.status) : undefined,
    matchCondition(filter.q),
  );
  // The page never reaches past `max` matching items.
  const limit = Math.max(0, Math.min(filter.limit, filter.max - filter.start));
  const [rows, counted] = await Promise.all([
    limit === 0 ? Promise.resolve([]) : db.select({
      id: contentItems.id, kind: contentItems.kind, title: contentItems.title, status: contentItems.status, artworkUrl: contentItems.artworkUrl,
      durationSeconds: contentItems.durationSeconds, updatedAt: contentItems.updatedAt, version: contentItems.version,
      plays30d: plays,
    }).from(contentItems).where(where).orderBy(...orderBy(filter.sort, plays, filter.q)).limit(limit).offset(filter.start),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM (SELECT 1 FROM ${contentItems} WHERE ${where} LIMIT ${filter.max}) matched`),
  ]);
  const total = Number((counted as unknown as { rows: { total: number }[] }).rows[0]?.total ?? 0);
  const items = rows.map((row) => toSummary(row, Number(row.plays30d)));
  return { items: filter.kind === 'series' ? await withSeasons(db, filter.siteId, items) : items, total };
}

/** Issue 38: each series' season numbers, declared or used by its episodes (Create New's series list). */
async function withSeasons(db: Db, siteId: string, items: ContentSummary[]): Promise<ContentSummary[]> {
  if (items.length === 0) return items;
  const ids = items.map((item) => item.id);
  const [declared, used] = await Promise.all([
    db.select({ id: contentItems.id, seasons: contentItems.seasons }).from(contentItems).where(and(eq(contentItems.siteId, siteId), inArray(contentItems.id, ids))),
    db.selectDistinct({ id: contentItems.seriesId, season: contentItems.seasonNumber }).from(contentItems)
      .where(and(eq(contentItems.siteId, siteId), inArray(contentItems.seriesId, ids), sql`${contentItems.seasonNumber} IS NOT NULL`)),
  ]);
  const seasons = new Map<string, Set<number>>(ids.map((id) => [id, new Set<number>()]));
  for (const row of declared) for (const season of row.seasons) seasons.get(row.id)?.add(season.number);
  for (const row of used) if (row.id && row.season !== null) seasons.get(row.id)?.add(row.season);
  return items.map((item) => ({ ...item, seasonNumbers: [...(seasons.get(item.id) ?? [])].sort((a, b) => a - b) }));
}

export async function findContent(db: Db, siteId: string, id: string): Promise<ContentRow | undefined> {
  const [row] = await db.select().from(contentItems).where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id))).limit(1);
  return row;
}

function emptyQos(): ContentQosSummary {
  return {
    sessions: 0,
    avgStartupMs: null,
    rebufferRatio: null,
    errorRate: null,
    avgBitrateKbps: null,
    startupHistogram: Array<number>(STARTUP_MS_BUCKETS.length + 1).fill(0),
    rebufferHistogram: Array<number>(REBUFFER_RATIO_BUCKETS.length + 1).fill(0),
  };
}

function addInto(target: number[], add: readonly number[]): void {
  add.forEach((value, i) => {
    if (i < target.length) target[i] = (target[i] ?? 0) + Number(value);
  });
}

/** Plays per day (every day of the window, oldest first) and the QoS summary of one item. */
export async function contentStats(db: Db, siteId: string, id: string, now: Date): Promise<{
  plays30d: number; playsByDay: { day: string; plays: number }[]; qos: ContentQosSummary;
}> {
  const since = statsSince(now);
  const rows = await db.select({
    day: dailyPlaybackRollups.day,
    sessions: dailyPlaybackRollups.sessions,
    watchedSeconds: dailyPlaybackRollups.watchedSeconds,
    startupMsSum: dailyPlaybackRollups.startupMsSum,
    rebufferSeconds: dailyPlaybackRollups.rebufferSeconds,
    errorSessions: dailyPlaybackRollups.errorSessions,
    bitrateKbpsSum: dailyPlaybackRollups.bitrateKbpsSum,
    startupHistogram: dailyPlaybackRollups.startupHistogram,
    rebufferHistogram: dailyPlaybackRollups.rebufferHistogram,
  }).from(dailyPlaybackRollups).where(and(
    eq(dailyPlaybackRollups.siteId, siteId),
    eq(dailyPlaybackRollups.dimension, 'content'),
    eq(dailyPlaybackRollups.dimKey, id),
    sql`${dailyPlaybackRollups.day} >= ${since}::date`,
  ));

  const byDay = new Map<string, number>();
  const qos = emptyQos();
  let watched = 0;
  let startup = 0;
  let rebuffer = 0;
  let errors = 0;
  let bitrate = 0;
  for (const row of rows) {
    const day = String(row.day);
    byDay.set(day, (byDay.get(day) ?? 0) + row.sessions);
    qos.sessions += row.sessions;
    watched += Number(row.watchedSeconds);
    startup += Number(row.startupMsSum);
    rebuffer += Number(row.rebufferSeconds);
    errors += row.errorSessions;
    bitrate += Number(row.bitrateKbpsSum);
    addInto(qos.startupHistogram, row.startupHistogram);
    addInto(qos.rebufferHistogram, row.rebufferHistogram);
  }
  if (qos.sessions > 0) {
    qos.avgStartupMs = Math.round(startup / qos.sessions);
    qos.errorRate = errors / qos.sessions;
    qos.avgBitrateKbps = Math.round(bitrate / qos.sessions);
  }
  if (watched + rebuffer > 0) qos.rebufferRatio = rebuffer / (watched + rebuffer);

  const playsByDay: { day: string; plays: number }[] = [];
  const first = Date.parse(`${since}T00:00:00Z`);
  for (let i = 0; i < CONTENT_STATS_DAYS; i += 1) {
    const day = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    playsByDay.push({ day, plays: byDay.get(day) ?? 0 });
  }
  return { plays30d: qos.sessions, playsByDay, qos };
}

export type ContentChanges = Partial<Pick<ContentRow, 'title' | 'titleSearch' | 'description' | 'genre' | 'tags' | 'status' | 'scheduledAt' | 'unpublishAt' | 'publishedAt' | 'rating' | 'originalLanguage' | 'releaseDate' | 'artworkUrl' | 'posterUrl'>>;

/** Writes `changes` when the row still has `version`; undefined when it does not (someone else wrote). */
export async function updateContent(db: Db, siteId: string, id: string, version: number, changes: ContentChanges, now: Date): Promise<ContentRow | undefined> {
  const [row] = await db.update(contentItems)
    .set({ ...changes, version: sql`${contentItems.version} + 1`, updatedAt: now })
    .where(and(eq(contentItems.siteId, siteId), eq(contentItems.id, id), eq(contentItems.version, version)))
    .returning();
  return row;
}

/**
 * Sets one status on every listed item in one transaction, each guarded by its version. Resolves
 * with the rows before and after, or with `conflict` (nothing written) when any item is missing or
 * was changed since it was read.
 */
export async function bulkSetStatus(db: Db, siteId: string, items: { id: string; version: number }[], status: ContentStatus, now: Date): Promise<
  { conflict: true; missing: string[] } | { conflict: false; before: ContentRow[]; after: ContentRow[] }
> {
  const ids = [...new Set(items.map((item) => item.id))];
  return db.transaction(async (tx) => {
    const before = await tx.select().from(contentItems)
      .where(and(eq(contentItems.siteId, siteId), inArray(contentItems.id, ids)))
      .for('update');
    const found = new Map(before.map((row) => [row.id, row]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) return { conflict: true as const, missing };
    if (items.some((item) => found.get(item.id)?.version !== item.version)) return { conflict: true as const, missing: [] };
    const after = await tx.update(contentItems)
      .set({
        status,
        scheduledAt: null,
        // Issue 37: a manual status change cancels a pending unpublish (server/domain/content.ts cancelsUnpublish).
        unpublishAt: status === 'scheduled' ? contentItems.unpublishAt : sql`CASE WHEN ${contentItems.status} = ${status} THEN ${contentItems.unpublishAt} ELSE NULL END`,
        publishedAt: status === 'published' ? sql`COALESCE(${contentItems.publishedAt}, ${now.toISOString()}::timestamptz)` : contentItems.publishedAt,
        version: sql`${contentItems.version} + 1`,
        updatedAt: now,
      })
      .where(and(eq(contentItems.siteId, siteId), inArray(contentItems.id, ids)))
      .returning();
    return { conflict: false as const, before, after };
  });
}

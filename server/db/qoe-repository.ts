/**
 * The QoE engine over raw playback sessions (issue 41): any filter set (common/qoe.ts QoeFilter) on
 * any QoS figure, broken down by any dimension, and the sessions behind a figure ("Views").
 *
 * Filters become a WHERE on the playback_sessions columns QOE_DIMENSIONS names, parameterised (a
 * value is never SQL text): include = IN, exclude = NOT IN, '' = "not reported" (the text columns
 * store '' for it, the uuid columns — series, plan — NULL). Figures are counted into the same sums and
 * fixed-bucket histograms as the daily rollups (server/db/rollups.ts) and read with the same
 * arithmetic (common/playback-measures.ts), so an unfiltered figure here equals the rollups' one.
 *
 * Which sessions: `select: 'started'` = sessions started in [since, until) (every report figure);
 * `select: 'active'` = sessions whose last event is in [since, until) (alert windows), among those
 * started at most a day before `since` (players end longer sessions; the bound lets PostgreSQL prune
 * the day partitions and use (site_id, started_at), as the real-time reports do).
 */
import { sql, type SQL } from 'drizzle-orm';
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../common/constants';
import { qoeMeasures, type PlaybackSumsLike } from '../../common/playback-measures';
import { QOE_DIMENSIONS, type QoeDimension, type QoeFilter, type QoeMetricKey } from '../../common/qoe';
import type { QoeGrouping, QoeHeartbeatRow, QoeSelection, QoeSessionRow, QoeSessionSort, QoeSumsRow } from '../qoe-shapes';
import type { Db } from './client';
import { LIVE_SESSION_COLUMNS, rowsOf } from './report-repository';
import type { LiveSessionRow } from '../report-shapes';
import { siteTimeZone } from './rollups';

export type { QoeGrouping, QoeHeartbeatRow, QoeSelection, QoeSessionRow, QoeSessionSort, QoeSumsRow };

/** Dimensions stored as uuid (NULL where the session has none: '' filters on it). */
const UUID_COLUMNS: ReadonlySet<string> = new Set(['content_id', 'series_id', 'plan_id', 'network_id']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A session started at most this long before an 'active' window (see the module comment). */
export const QOE_ACTIVE_LOOKBACK_MS = 86_400_000;

/** The playback_sessions column of a dimension (only names from QOE_DIMENSIONS reach SQL). */
export function qoeColumnOf(dimension: QoeDimension): string {
  const column = QOE_DIMENSIONS.find((d) => d.key === dimension)?.column;
  if (!column) throw new Error(`qoe: unknown dimension ${dimension}`);
  return column;
}

/** A dimension's value of a session as text ('' = not reported), for grouping and the values list. */
export function qoeKeySql(dimension: QoeDimension, alias = 'p'): SQL {
  const column = `${alias}.${qoeColumnOf(dimension)}`;
  return UUID_COLUMNS.has(qoeColumnOf(dimension)) ? sql.raw(`coalesce(${column}::text, '')`) : sql.raw(column);
}

/** Whether a session's value is one of `values` (never NULL, so NOT of it is the exclusion). */
function matchOne(dimension: QoeDimension, values: readonly string[], alias: string): SQL {
  const columnName = qoeColumnOf(dimension);
  const column = sql.raw(`${alias}.${columnName}`);
  if (!UUID_COLUMNS.has(columnName)) {
    return sql`${column} IN (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;
  }
  // A uuid column: '' is NULL; a value that is not a uuid matches no session (it cannot be stored).
  const ids = values.filter((v) => UUID.test(v)).map((v) => v.toLowerCase());
  const parts: SQL[] = [];
  if (ids.length > 0) parts.push(sql`(${column} IS NOT NULL AND ${column} IN (${sql.join(ids.map((v) => sql`${v}::uuid`), sql`, `)}))`);
  if (values.includes('')) parts.push(sql`${column} IS NULL`);
  return parts.length === 0 ? sql`false` : sql`(${sql.join(parts, sql` OR `)})`;
}

/**
 * The WHERE of a filter set on playback_sessions (alias `p` by default): every filter must hold; an
 * include filter keeps the sessions whose value is one of its values, an exclude filter the others.
 * `true` for no filters.
 */
export function qoeFilterSql(filters: readonly QoeFilter[], alias = 'p'): SQL {
  const parts = filters.filter((f) => f.values.length > 0).map((f) => {
    const match = matchOne(f.dimension, f.values, alias);
    return f.exclude ? sql`NOT ${match}` : match;
  });
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` AND `);
}

/** The WHERE of a selection on playback_sessions `alias`. */
export function qoeSelectionSql(s: QoeSelection, alias = 'p'): SQL {
  const a = (column: string) => sql.raw(`${alias}.${column}`);
  const parts: SQL[] = [sql`${a('site_id')} = ${s.siteId}::uuid`];
  if (s.select === 'started') {
    parts.push(sql`${a('started_at')} >= ${s.since.toISOString()}::timestamptz`, sql`${a('started_at')} < ${s.until.toISOString()}::timestamptz`);
  } else {
    parts.push(
      sql`${a('last_event_at')} >= ${s.since.toISOString()}::timestamptz`, sql`${a('last_event_at')} < ${s.until.toISOString()}::timestamptz`,
      sql`${a('started_at')} >= ${new Date(s.since.getTime() - QOE_ACTIVE_LOOKBACK_MS).toISOString()}::timestamptz`,
      sql`${a('started_at')} < ${s.until.toISOString()}::timestamptz`,
    );
  }
  if (s.networkId) parts.push(sql`${a('network_id')} = ${s.networkId}::uuid`);
  parts.push(qoeFilterSql(s.filters, alias));
  return sql.join(parts, sql` AND `);
}

const floatArray = (values: readonly number[]) => sql.raw(`ARRAY[${values.map((v) => Number(v)).join(',')}]::float8[]`);

/** The rollups' sums and histogram buckets (h0.., r0..) of the rows of a group, as float8 columns. */
function sumsSql(alias = 'p'): SQL {
  const a = (column: string) => `${alias}.${column}`;
  const startupBucket = sql`width_bucket(${sql.raw(a('startup_ms'))}::float8, ${floatArray(STARTUP_MS_BUCKETS)})`;
  const rebufferBucket = sql`width_bucket(CASE WHEN ${sql.raw(a('watched_seconds'))} + ${sql.raw(a('rebuffer_seconds'))} > 0
    THEN ${sql.raw(a('rebuffer_seconds'))}::float8 / (${sql.raw(a('watched_seconds'))} + ${sql.raw(a('rebuffer_seconds'))}) ELSE 0 END, ${floatArray(REBUFFER_RATIO_BUCKETS)})`;
  const buckets = [
    ...Array.from({ length: STARTUP_MS_BUCKETS.length + 1 }, (_, i) => sql`count(*) FILTER (WHERE ${startupBucket} = ${sql.raw(String(i))})::float8 AS ${sql.raw(`h${i}`)}`),
    ...Array.from({ length: REBUFFER_RATIO_BUCKETS.length + 1 }, (_, i) => sql`count(*) FILTER (WHERE ${rebufferBucket} = ${sql.raw(String(i))})::float8 AS ${sql.raw(`r${i}`)}`),
  ];
  return sql`count(*)::float8 AS sessions, count(DISTINCT ${sql.raw(a('subscriber_id'))})::float8 AS viewers,
    coalesce(sum(${sql.raw(a('watched_seconds'))}), 0)::float8 AS "watchedSeconds", coalesce(sum(${sql.raw(a('startup_ms'))}), 0)::float8 AS "startupMsSum",
    coalesce(sum(${sql.raw(a('rebuffer_count'))}), 0)::float8 AS "rebufferCount", coalesce(sum(${sql.raw(a('rebuffer_seconds'))}), 0)::float8 AS "rebufferSeconds",
    count(*) FILTER (WHERE ${sql.raw(a('error_code'))} IS NOT NULL)::float8 AS "errorSessions",
    coalesce(sum(${sql.raw(a('avg_bitrate_kbps'))}), 0)::float8 AS "bitrateKbpsSum", ${sql.join(buckets, sql`, `)}`;
}

type SumsRow = Omit<PlaybackSumsLike, 'startupHistogram' | 'rebufferHistogram'> & Record<string, unknown>;

function toSums(row: SumsRow): PlaybackSumsLike {
  return {
    sessions: Number(row.sessions), viewers: Number(row.viewers), watchedSeconds: Number(row.watchedSeconds),
    startupMsSum: Number(row.startupMsSum), rebufferCount: Number(row.rebufferCount), rebufferSeconds: Number(row.rebufferSeconds),
    errorSessions: Number(row.errorSessions), bitrateKbpsSum: Number(row.bitrateKbpsSum),
    startupHistogram: Array.from({ length: STARTUP_MS_BUCKETS.length + 1 }, (_, i) => Number(row[`h${i}`] ?? 0)),
    rebufferHistogram: Array.from({ length: REBUFFER_RATIO_BUCKETS.length + 1 }, (_, i) => Number(row[`r${i}`] ?? 0)),
  };
}

/**
 * Raw sessions of a selection added up like the rollups: one row without `by`/`dayZone`, else one per
 * value of `by` and/or per site day (in `dayZone`) of the session's start. `viewers` is the distinct
 * viewers of each row.
 */
export async function qoeSums(db: Db, selection: QoeSelection, group: QoeGrouping = {}): Promise<QoeSumsRow[]> {
  const key = group.by ? qoeKeySql(group.by) : sql`''`;
  const day = group.dayZone ? sql`((p.started_at) AT TIME ZONE ${group.dayZone}::text)::date::text` : sql`''`;
  const rows = rowsOf<SumsRow & { key: string; day: string }>(await db.execute(sql`
    SELECT ${key} AS key, ${day} AS day, ${sumsSql()}
    FROM playback_sessions p WHERE ${qoeSelectionSql(selection)} GROUP BY 1, 2`));
  return rows.filter((r) => Number(r.sessions) > 0).map((r) => ({ key: String(r.key), day: String(r.day), ...toSums(r) }));
}

/**
 * The QoE metrics (QOE_METRICS keys, FIGURES definitions) of the sessions of a selection: for the
 * alerts (select 'active': the sessions seen in the window) and any figure over raw sessions.
 * Ratios and percentiles of no sessions are null; counts are 0.
 */
export async function qoeTotals(db: Db, selection: QoeSelection): Promise<Record<QoeMetricKey, number | null>> {
  const [row] = await qoeSums(db, selection);
  const sums = row ?? toSums({ sessions: 0, viewers: 0, watchedSeconds: 0, startupMsSum: 0, rebufferCount: 0, rebufferSeconds: 0, errorSessions: 0, bitrateKbpsSum: 0 });
  return qoeMeasures(sums, sums.viewers);
}


/* ------------------------------------------------------------------------------------------------
 * Labels, values (the picker), views (the sessions behind a figure) and one view
 * ---------------------------------------------------------------------------------------------- */

/** The zone the site counts its days in (server/db/rollups.ts `siteTimeZone`). */
export async function qoeSiteTimeZone(db: Db, siteId: string): Promise<string> {
  return siteTimeZone(db, siteId);
}

/**
 * The names of the values of a dimension stored as ids (title and series: the content item's title;
 * plan: the plan's name; network: the network's name), keyed by id; ids of another site or removed
 * ones are absent. Other dimensions answer an empty map (their values are their words).
 */
export async function qoeNames(db: Db, siteId: string, dimension: QoeDimension, values: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(values.filter((v) => UUID.test(v)).map((v) => v.toLowerCase()))];
  const table = dimension === 'title' || dimension === 'series' ? 'content_items' : dimension === 'plan' ? 'plans' : dimension === 'network' ? 'networks' : null;
  if (!table || ids.length === 0) return new Map();
  const name = table === 'content_items' ? 'title' : 'name';
  const rows = rowsOf<{ id: string; name: string }>(await db.execute(sql`
    SELECT id::text AS id, ${sql.raw(name)} AS name FROM ${sql.raw(table)}
    WHERE site_id = ${siteId}::uuid AND id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Sessions per value of a dimension in a selection: the `limit` values with the most sessions (then
 * by value), plus each of `include` (the values filtered on) with its count, 0 when it has none.
 */
export async function qoeValueCounts(db: Db, selection: QoeSelection, dimension: QoeDimension, limit: number, include: readonly string[]): Promise<{ value: string; sessions: number }[]> {
  const key = qoeKeySql(dimension);
  const top = rowsOf<{ value: string; sessions: number }>(await db.execute(sql`
    SELECT ${key} AS value, count(*)::float8 AS sessions FROM playback_sessions p WHERE ${qoeSelectionSql(selection)}
    GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`));
  const missing = include.filter((v) => !top.some((t) => t.value === v));
  if (missing.length === 0) return top;
  const extra = rowsOf<{ value: string; sessions: number }>(await db.execute(sql`
    SELECT ${key} AS value, count(*)::float8 AS sessions FROM playback_sessions p
    WHERE ${qoeSelectionSql(selection)} AND ${matchOne(dimension, missing, 'p')} GROUP BY 1`));
  return [...top, ...missing.map((value) => ({ value, sessions: extra.find((e) => e.value === value)?.sessions ?? 0 }))];
}

const SORT_SQL: Record<QoeSessionSort, string> = {
  startedAt: 'p.started_at',
  startupMs: 'p.startup_ms',
  rebufferPct: 'CASE WHEN p.watched_seconds + p.rebuffer_seconds > 0 THEN p.rebuffer_seconds::float8 / (p.watched_seconds + p.rebuffer_seconds) ELSE 0 END',
  watchedSeconds: 'p.watched_seconds',
  bitrateKbps: 'p.avg_bitrate_kbps',
};

const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

function sessionColumns(): SQL {
  const dims = QOE_DIMENSIONS.map((d) => sql`${qoeKeySql(d.key)} AS ${sql.raw(`"dim_${d.key}"`)}`);
  return sql`p.id::text AS "sessionId", ${iso('p.started_at')} AS "startedAt", ${iso('p.ended_at')} AS "endedAt",
    ${iso('p.last_event_at')} AS "lastEventAt", p.subscriber_id::text AS "subscriberId", s.email AS "viewerEmail", s.name AS "viewerName",
    p.content_id::text AS "contentId", c.kind AS "contentType", c.title AS title,
    p.watched_seconds::float8 AS "watchedSeconds", p.startup_ms::float8 AS "startupMs", p.rebuffer_count::float8 AS "rebufferCount",
    p.rebuffer_seconds::float8 AS "rebufferSeconds", p.avg_bitrate_kbps::float8 AS "avgBitrateKbps", p.error_code AS "errorCode",
    ${sql.join(dims, sql`, `)}`;
}

const SESSION_JOINS = sql.raw(`LEFT JOIN subscribers s ON s.id = p.subscriber_id AND s.site_id = p.site_id
  LEFT JOIN content_items c ON c.id = p.content_id AND c.site_id = p.site_id`);

function toSessionRow(raw: Record<string, unknown>): QoeSessionRow {
  const v = (key: QoeDimension) => String(raw[`dim_${key}`] ?? '');
  const dims: Record<QoeDimension, string> = {
    device: v('device'), os: v('os'), osVersion: v('osVersion'), browser: v('browser'), player: v('player'), playerVersion: v('playerVersion'),
    appVersion: v('appVersion'), country: v('country'), region: v('region'), isp: v('isp'), cdn: v('cdn'), title: v('title'), series: v('series'),
    streamType: v('streamType'), sourceHost: v('sourceHost'), plan: v('plan'), network: v('network'),
  };
  const text = (k: string) => (raw[k] === null || raw[k] === undefined ? null : String(raw[k]));
  return {
    sessionId: String(raw.sessionId), startedAt: String(raw.startedAt), endedAt: text('endedAt'), lastEventAt: String(raw.lastEventAt),
    subscriberId: String(raw.subscriberId), viewerEmail: text('viewerEmail'), viewerName: text('viewerName'),
    contentId: String(raw.contentId), contentType: text('contentType'), title: text('title'),
    watchedSeconds: Number(raw.watchedSeconds), startupMs: Number(raw.startupMs), rebufferCount: Number(raw.rebufferCount),
    rebufferSeconds: Number(raw.rebufferSeconds), avgBitrateKbps: Number(raw.avgBitrateKbps), errorCode: text('errorCode'), dims,
  };
}

/** The sessions of a selection, one page in the given order (ties by start, then id), and how many there are. */
export async function qoeSessions(db: Db, selection: QoeSelection, page: { sort: QoeSessionSort; dir: 'asc' | 'desc'; offset: number; limit: number }): Promise<{ total: number; rows: QoeSessionRow[] }> {
  const dir = page.dir === 'asc' ? 'ASC' : 'DESC';
  const order = sql.raw(`${SORT_SQL[page.sort]} ${dir}, p.started_at ${dir}, p.id ${dir}`);
  const [count] = rowsOf<{ total: number }>(await db.execute(sql`
    SELECT count(*)::float8 AS total FROM playback_sessions p WHERE ${qoeSelectionSql(selection)}`));
  const total = Number(count?.total ?? 0);
  if (total === 0 || page.offset >= total) return { total, rows: [] };
  // The page is chosen from the sessions alone, then joined to its viewers and titles (not every match).
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`
    SELECT ${sessionColumns()} FROM (
      SELECT * FROM playback_sessions p WHERE ${qoeSelectionSql(selection)} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}
    ) p ${SESSION_JOINS} ORDER BY ${order}`));
  return { total, rows: rows.map(toSessionRow) };
}

/** One session of the site with its heartbeats; null when the site has no session of that id. */
export async function qoeSession(db: Db, siteId: string, sessionId: string): Promise<{ row: QoeSessionRow; heartbeats: QoeHeartbeatRow[] } | null> {
  if (!UUID.test(sessionId)) return null;
  const [raw] = rowsOf<Record<string, unknown>>(await db.execute(sql`
    SELECT ${sessionColumns()} FROM playback_sessions p ${SESSION_JOINS}
    WHERE p.site_id = ${siteId}::uuid AND p.id = ${sessionId.toLowerCase()}::uuid LIMIT 1`));
  if (!raw) return null;
  const row = toSessionRow(raw);
  const heartbeats = rowsOf<QoeHeartbeatRow>(await db.execute(sql`
    SELECT ${iso('at')} AS at, playhead_seconds::float8 AS "playheadSeconds", watched_seconds::float8 AS "watchedSeconds",
      bitrate_kbps::float8 AS "bitrateKbps", rebuffer_count::float8 AS "rebufferCount", rebuffer_ms::float8 AS "rebufferMs"
    FROM player_heartbeats WHERE session_id = ${row.sessionId}::uuid AND site_id = ${siteId}::uuid
      AND at >= ${row.startedAt}::timestamptz - interval '1 day'
    ORDER BY at, event_id`));
  return { row, heartbeats };
}

/**
 * The real-time reports' sessions under a filter set (issue 41): the sessions of a selection (select
 * 'active' for the reports' window) as the unfiltered real-time read gives them (report-repository liveSessions).
 */
export async function qoeLiveSessions(db: Db, selection: QoeSelection): Promise<LiveSessionRow[]> {
  return rowsOf<LiveSessionRow>(await db.execute(sql`
    SELECT ${LIVE_SESSION_COLUMNS} FROM playback_sessions p WHERE ${qoeSelectionSql(selection)}`));
}

/**
 * The repository as the rules and qoe-alerts call it (bound to a database):
 * `totals({ siteId, filters, since, until, select })` and the reads of the QoE pages.
 */
export function createQoeRepository(db: Db) {
  return {
    totals: (selection: QoeSelection) => qoeTotals(db, selection),
    sums: (selection: QoeSelection, group?: QoeGrouping) => qoeSums(db, selection, group),
    siteTimeZone: (siteId: string) => qoeSiteTimeZone(db, siteId),
    names: (siteId: string, dimension: QoeDimension, values: readonly string[]) => qoeNames(db, siteId, dimension, values),
    valueCounts: (selection: QoeSelection, dimension: QoeDimension, limit: number, include: readonly string[]) => qoeValueCounts(db, selection, dimension, limit, include),
    sessions: (selection: QoeSelection, page: Parameters<typeof qoeSessions>[2]) => qoeSessions(db, selection, page),
    session: (siteId: string, sessionId: string) => qoeSession(db, siteId, sessionId),
    liveSessions: (selection: QoeSelection) => qoeLiveSessions(db, selection),
  };
}
export type QoeRepository = ReturnType<typeof createQoeRepository>;

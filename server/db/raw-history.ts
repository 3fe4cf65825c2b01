/**
 * Raw history by UTC day (issue 31, migration 0017; docs/data-model.md "Raw history"):
 * `playback_sessions` (by started_at) and `player_heartbeats` (by at) are range-partitioned, one
 * partition per UTC day (`<table>_pYYYYMMDD`) plus a default partition that takes a row whose day has
 * no partition yet, so an insert never fails.
 *
 * - `ensureRawHistoryDays`: the consumers call it before their write transaction with the days of
 *   the events in hand (remembered per database handle, so a known day costs nothing); the
 *   maintenance calls it for today and the next two days. The SQL function of migration 0017
 *   (`raw_history_ensure_day`) builds the day beside the table and attaches it, moving the rows the
 *   default partition took for that day.
 * - `splitDefaultPartitions`: gives every day found in a default partition its own partition (rows
 *   written by the seed or by another writer that does not call ensureRawHistoryDays).
 * - `dropExpiredRawHistory`: drops day partitions older than the retention, deletes default rows
 *   older than it, and moves `raw_history_retention.kept_from` so folds and rollup rebuilds leave the
 *   rollups of those days alone (server/db/rollups.ts). Rollups are never dropped.
 * - `runIngestMaintenance`: all of the above plus the window of the recorded session starts
 *   (ingest_session_starts, INGEST_WINDOW_DAYS), what the fold worker of every server process and of
 *   `npm run ingest:worker` runs every INGEST_MAINTENANCE_INTERVAL_MS. (The per-event idempotency
 *   record it also pruned, ingested_events, is gone: migration 0048, issue 42.)
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import type { SqlRunner } from './rollups';
import { queryRows } from './seed-world';

/** The raw tables partitioned by day, with their partition column. */
export const RAW_HISTORY_TABLES = [
  { table: 'playback_sessions', column: 'started_at' },
  { table: 'player_heartbeats', column: 'at' },
] as const;

const DAY_MS = 86_400_000;
const PARTITION_RE = /_p(\d{4})(\d{2})(\d{2})$/;

/** The UTC day of an ISO timestamp (or a Date / epoch ms), 'YYYY-MM-DD'. */
export function utcDayOf(at: string | number | Date): string {
  // A checked event time in UTC ('…Z', DATE_TIME_PATTERN) starts with its day: no Date made and printed
  // (once per event of a consumer's flush, ~0.5 s of a consumer's CPU per 200,000 events).
  if (typeof at === 'string' && at.length >= 20 && at.charCodeAt(at.length - 1) === 90 && at.charCodeAt(10) === 84 && at.charCodeAt(4) === 45 && at.charCodeAt(7) === 45) return at.slice(0, 10);
  return new Date(typeof at === 'string' ? Date.parse(at) : at).toISOString().slice(0, 10);
}

/** Days this process knows have their partitions, per database (a day dropped by this process is forgotten). */
const knownDays = new WeakMap<object, Set<string>>();
const known = (db: object) => {
  let set = knownDays.get(db);
  if (!set) knownDays.set(db, (set = new Set()));
  return set;
};

/**
 * Makes sure every given UTC day ('YYYY-MM-DD') has its partition in both raw tables; returns the
 * partitions created. Runs in its own statement (not inside a consumer's write transaction): the
 * attach takes a lock on the table that must not wait behind a long write.
 */
export async function ensureRawHistoryDays(db: Db, days: Iterable<string>): Promise<number> {
  const seen = known(db);
  const wanted = [...new Set(days)].filter((d) => !seen.has(d)).sort();
  if (wanted.length === 0) return 0;
  let created = 0;
  // One day per statement: each attach commits (and releases the partition lock) on its own.
  for (const day of wanted) {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT raw_history_ensure_day(${day}::date) AS n`);
    created += row!.n;
    seen.add(day);
  }
  return created;
}

/**
 * What this process knows of a day's statistics, per database handle: the events it wrote to the
 * day since it last looked at the catalog, how many more before it looks again, the size of the
 * sessions partition at that look (pages) and whether the day needs no more looks at all.
 */
interface DayWatch { since: number; next: number; pages: number | null; done: boolean }
const watches = new WeakMap<object, Map<string, DayWatch>>();

/** A partition without statistics is analyzed once it has this many pages (64 kB: a few hundred rows). */
const FIRST_ANALYZE_PAGES = 8;
/** The sessions partition is analyzed again each time it has grown this many times since its last analyze. */
const ANALYZE_GROWTH = 4;
/** Beyond this many rows at its last analyze a partition is left to autovacuum. */
const LAST_ANALYZE_ROWS = 4_000_000;
/** Events this process writes to a day between two looks at the catalog, at least and at most. */
const LOOK_MIN_EVENTS = 500;
const LOOK_MAX_EVENTS = 100_000;

const partitionOf = (table: string, day: string) => `${table}_p${day.replace(/-/g, '')}`;

/**
 * Keeps the planner's statistics of a young day partition current: a partition created at midnight
 * has none, and without them the consumer's session update was planned as a nested loop over every
 * session of the day for every session of the group (14 s per group of 5,000 sessions in the bench,
 * 0.7 s once analyzed). Autovacuum analyzes partitions too, but only after a minute or more (and not
 * at all where it is off, as on the bench's PostgreSQL). Called after a consumer's commit, never
 * inside its transaction; returns the partitions it analyzed.
 *
 * The rule reads PostgreSQL's catalog, so it holds for every consumer process together (each
 * counting its own rows analyzed the same partitions twice as often with two consumers):
 * - a partition without statistics (pg_class.reltuples -1, never analyzed, or 0, analyzed empty: no
 *   column statistics either) is analyzed once it has FIRST_ANALYZE_PAGES pages;
 * - the sessions partition is analyzed again once it has ANALYZE_GROWTH times the pages it had at
 *   its last analyze, by whoever ran it (pg_class.relpages; the planner scales the rows it expects
 *   by the pages a table has now, so this is also how far its estimates can have drifted), up to
 *   LAST_ANALYZE_ROWS rows. The heartbeats partition needs no more than its first statistics: the
 *   only reads of it (the LATERAL of an ending session's update, a session's detail) look a session
 *   up by the (session_id, at) index whatever the estimates, and its insert reads nothing; its
 *   ANALYZE was a third of what the consumer spent analyzing.
 * Size is the partition's pages now (pg_relation_size: exact at once), not pg_stat's n_live_tup,
 * which a backend publishes up to a second after its commit: a look right after this process's own
 * commit would not see its own rows.
 *
 * Cheap to decide: a day is looked at (one catalog query for every day due a look) only after this
 * process wrote enough events to it to make something due at the growth it saw between its last two
 * looks (halved, for a change of pace; LOOK_MIN_EVENTS to LOOK_MAX_EVENTS); no query otherwise, and
 * none for a day whose partitions need nothing more. ANALYZE (SKIP_LOCKED) leaves a partition
 * another process (or autovacuum) is analyzing at that moment to it.
 */
export async function analyzeGrowingDays(db: Db, rowsByDay: Map<string, number>): Promise<string[]> {
  let perDay = watches.get(db);
  if (!perDay) watches.set(db, (perDay = new Map()));
  const look: string[] = [];
  for (const [day, rows] of rowsByDay) {
    const w = perDay.get(day) ?? { since: 0, next: LOOK_MIN_EVENTS, pages: null, done: false };
    perDay.set(day, w);
    if (w.done) continue;
    w.since += rows;
    if (w.since >= w.next && known(db).has(day)) look.push(day);
  }
  if (look.length === 0) return [];
  const names = look.flatMap((day) => RAW_HISTORY_TABLES.map(({ table }) => partitionOf(table, day)));
  // Statistics are a help, never a condition of the write (committed by now): a failed look is
  // tried again at the next call.
  const found = await queryRows<{ name: string; reltuples: number; relpages: number; pages: number }>(db, sql`
    SELECT c.relname AS name, c.reltuples::float8 AS reltuples, c.relpages::int AS relpages,
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages
    FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
      AND c.relname IN (SELECT value FROM json_array_elements_text(${JSON.stringify(names)}::json))`).catch(() => null);
  if (!found) return [];
  const stats = new Map(found.map((r) => [r.name, { reltuples: Number(r.reltuples), relpages: Number(r.relpages), pages: Number(r.pages) }]));
  const due: string[] = [];
  for (const day of look) {
    const w = perDay.get(day)!;
    const sessions = stats.get(partitionOf('playback_sessions', day));
    const heartbeats = stats.get(partitionOf('player_heartbeats', day));
    // A day dropped meanwhile (another process's retention): nothing to look at again.
    if (!sessions || !heartbeats) {
      w.done = true;
      continue;
    }
    const heartbeatsBare = heartbeats.reltuples <= 0;
    if (heartbeatsBare && heartbeats.pages >= FIRST_ANALYZE_PAGES) due.push(partitionOf('player_heartbeats', day));
    // The pages at which the sessions partition is due, and whether it is (now).
    const sessionsBare = sessions.reltuples <= 0;
    const target = sessionsBare ? FIRST_ANALYZE_PAGES : ANALYZE_GROWTH * Math.max(sessions.relpages, 1);
    const sessionsDue = sessions.pages >= target && sessions.reltuples < LAST_ANALYZE_ROWS;
    if (sessionsDue) due.push(partitionOf('playback_sessions', day));
    // The next look. Not before LOOK_MIN_EVENTS while a partition still waits for its first
    // statistics or the pace is unknown (the first look at a day); else when, at half the pages per
    // event this process saw the partition grow (every writer's rows and updates) since its last look,
    // the sessions partition can have reached its next target; never after LOOK_MAX_EVENTS.
    const waitingHeartbeats = heartbeatsBare && heartbeats.pages < FIRST_ANALYZE_PAGES;
    if (!waitingHeartbeats && !sessionsBare && !sessionsDue && sessions.reltuples >= LAST_ANALYZE_ROWS) {
      w.done = true;
      continue;
    }
    const gap = sessionsDue ? (ANALYZE_GROWTH - 1) * Math.max(sessions.pages, 1) : target - sessions.pages;
    const rate = w.pages === null ? null : (sessions.pages - w.pages) / Math.max(w.since, 1);
    w.next = waitingHeartbeats || (sessionsBare && !sessionsDue) || rate === null ? LOOK_MIN_EVENTS
      : rate <= 0 ? LOOK_MAX_EVENTS : Math.min(LOOK_MAX_EVENTS, Math.max(LOOK_MIN_EVENTS, Math.floor(gap / rate / 2)));
    w.since = 0;
    w.pages = sessions.pages;
  }
  if (due.length > 0) {
    // A partition dropped between the look and here fails the statement: its statistics are simply not taken.
    await db.execute(sql.raw(`ANALYZE (SKIP_LOCKED) ${due.sort().map((n) => `public."${n}"`).join(', ')}`)).catch(() => undefined);
  }
  return due;
}

/** The day partitions of both raw tables, oldest first. */
export async function rawHistoryPartitions(db: SqlRunner): Promise<{ table: string; partition: string; day: string }[]> {
  const rows = await queryRows<{ parent: string; name: string }>(db, sql`
    SELECT p.relname AS parent, c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname IN ('playback_sessions', 'player_heartbeats') AND p.relnamespace = 'public'::regnamespace`);
  return rows.flatMap((r) => {
    const m = PARTITION_RE.exec(r.name);
    return m ? [{ table: r.parent, partition: r.name, day: `${m[1]}-${m[2]}-${m[3]}` }] : [];
  }).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.table < b.table ? -1 : 1));
}

/** Gives every day that has rows in a default partition its own partition (the rows move); returns the partitions created. */
export async function splitDefaultPartitions(db: Db): Promise<number> {
  const rows = await queryRows<{ day: string }>(db, sql`
    SELECT DISTINCT to_char((started_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day FROM playback_sessions_default
    UNION SELECT DISTINCT to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') FROM player_heartbeats_default`);
  if (rows.length === 0) return 0;
  const seen = known(db);
  // The process may believe a day exists that another process dropped: look again.
  for (const r of rows) seen.delete(r.day);
  return ensureRawHistoryDays(db, rows.map((r) => r.day));
}

/** The first UTC day raw history keeps whole (null: nothing was ever dropped). */
export async function rawHistoryKeptFrom(db: SqlRunner): Promise<string | null> {
  const [row] = await queryRows<{ day: string }>(db, sql`SELECT to_char(kept_from, 'YYYY-MM-DD') AS day FROM raw_history_retention`);
  return row?.day ?? null;
}

/**
 * Drops the day partitions older than `retentionDays` (the day `retentionDays` before today, UTC, is
 * the first one kept), deletes default-partition rows older than that, and records the first day kept
 * (never moved back). Rollups stay. Returns the partitions dropped.
 */
export async function dropExpiredRawHistory(db: Db, retentionDays: number, now = new Date()): Promise<{ dropped: string[]; keptFrom: string }> {
  const keptFrom = utcDayOf(Math.floor(now.getTime() / DAY_MS) * DAY_MS - retentionDays * DAY_MS);
  const dropped = await db.transaction(async (tx) => {
    // The lock of raw_history_ensure_day: no day is created while another is dropped.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('raw-history-partitions'))`);
    const old = (await rawHistoryPartitions(tx)).filter((p) => p.day < keptFrom);
    for (const p of old) await tx.execute(sql.raw(`DROP TABLE public."${p.partition.replace(/"/g, '')}"`));
    const bound = sql`(${keptFrom}::date::timestamp AT TIME ZONE 'UTC')`;
    await tx.execute(sql`DELETE FROM playback_sessions_default WHERE started_at < ${bound}`);
    await tx.execute(sql`DELETE FROM player_heartbeats_default WHERE at < ${bound}`);
    await tx.execute(sql`
      INSERT INTO raw_history_retention (id, kept_from) VALUES (true, ${keptFrom}::date)
      ON CONFLICT (id) DO UPDATE SET kept_from = greatest(raw_history_retention.kept_from, excluded.kept_from), updated_at = now()`);
    return old.map((p) => p.partition);
  });
  const seen = known(db);
  for (const day of [...seen]) if (day < keptFrom) seen.delete(day);
  return { dropped, keptFrom };
}

/** Forgets session starts the producer recorded longer ago than `windowDays` (ingest_session_starts); returns the rows deleted. */
export async function pruneSessionStarts(db: Db, windowDays: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`
    WITH gone AS (DELETE FROM ingest_session_starts WHERE accepted_at < now() - make_interval(days => ${windowDays}) RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return row!.n;
}

export interface IngestMaintenanceSettings {
  /** INGEST_RETENTION_DAYS: days of raw history kept. */
  retentionDays: number;
  /** Days a recorded session start is kept (INGEST_WINDOW_DAYS). */
  sessionStartDays: number;
}

export interface IngestMaintenanceResult {
  created: number;
  split: number;
  dropped: string[];
  keptFrom: string;
  sessionStartsPruned: number;
}

/**
 * One maintenance pass (idempotent; any number of processes may run it): today's and the next two
 * days' partitions, retention, days out of the default partitions, and the window of the recorded
 * session starts (ingested_events, pruned by the duplicate window until issue 42, is dropped: migration 0048).
 */
export async function runIngestMaintenance(db: Db, settings: IngestMaintenanceSettings, now = new Date()): Promise<IngestMaintenanceResult> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const created = await ensureRawHistoryDays(db, [0, 1, 2].map((n) => utcDayOf(today + n * DAY_MS)));
  // Retention first: default rows older than it are deleted rather than given a day to be dropped.
  const { dropped, keptFrom } = await dropExpiredRawHistory(db, settings.retentionDays, now);
  const split = await splitDefaultPartitions(db);
  const sessionStartsPruned = await pruneSessionStarts(db, settings.sessionStartDays);
  return { created, split, dropped, keptFrom, sessionStartsPruned };
}

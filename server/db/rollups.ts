/**
 * Daily rollups: what reports read instead of raw rows (ARCHITECTURE.md, docs/data-model.md).
 *
 * Every rollup is computed by one set-based statement per table (INSERT ... SELECT ... GROUP BY)
 * after deleting the slice it replaces, so a rebuild and the incremental fold of ingestion run the
 * very same SQL and cannot disagree. Days are the SITE's calendar days of the row's timestamp, in the
 * site profile's zone (`sites.default_timezone`, `siteTimeZone`; issue 38: the zone every signed-in
 * page states): a session counts on the site's day it started, "the end of the day" is 23:59:59 in the
 * site's zone. `siteDay` is the one SQL expression of "the day of a timestamp in a zone" (its
 * TypeScript twin: `siteDayOf`, common/site-day.ts).
 *
 * - daily_playback_rollups: playback_sessions by the site's day they started, per network and
 *   dimension ('all' with key '', content id, device type, country, ISP, CDN, and the session's
 *   plan_id: the plan the viewer was on when it started, NO_PLAN_KEY when none).
 *   Histograms count sessions per STARTUP_MS_BUCKETS / REBUFFER_RATIO_BUCKETS bucket.
 * - daily_subscription_rollups: per network and plan, the day's movements (trials started, paid
 *   starts, trial conversions, cancellations, endings) and the subscriptions paying / trialing at
 *   the end of the day (a running sum of +1/-1 movements, so history before `from` still counts).
 * - daily_payment_rollups: payments by day, network, plan, currency and status, and support refunds
 *   (payment_refunds) on the day they were given, as status REFUND_STATUS.
 * - daily_audience_rollups: sign-ups (subscribers created) by day, network and country.
 *
 * The incremental fold (`foldPlaybackDays`) re-aggregates only the (site, day) slices a batch of
 * player events touched. Re-aggregating a slice rather than adding deltas keeps distinct-viewer
 * counts exact (they are not additive) and costs one index range scan of that day's sessions.
 */
import { sql, type SQL } from 'drizzle-orm';
import { NO_PLAN_KEY, REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../common/constants';
import { siteDayOf } from '../../common/site-day';
import { knownTimeZone } from '../../common/zoned-time';
import type { Db } from './client';

/** What the rollup statements need: a database or a transaction of one. */
export type SqlRunner = Pick<Db, 'execute'>;

export interface RollupRange {
  /** Limit to one site (uuid). */
  siteId?: string;
  /** First day of the site (in its zone), 'YYYY-MM-DD' (inclusive). */
  from?: string;
  /** Last day of the site (in its zone), 'YYYY-MM-DD' (inclusive). */
  to?: string;
  /**
   * The moment subscription movements are counted up to (default: the database's now()). The seed
   * passes the clock its world was built around, so statuses and rollups agree to the minute.
   */
  asOf?: Date;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function checkRange(range: RollupRange): void {
  for (const key of ['from', 'to'] as const) {
    const value = range[key];
    if (value !== undefined && (!DAY_RE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))) {
      throw new Error(`rollups: ${key} must be a day as YYYY-MM-DD, got ${value}`);
    }
  }
}

/**
 * The zone a site's reports count days in: its profile's `default_timezone` when the runtime knows it
 * (`knownTimeZone`, the same rule as the zone every page states), else UTC. A site that does not exist
 * reads UTC.
 */
export async function siteTimeZone(db: SqlRunner, siteId: string): Promise<string> {
  const result: unknown = await db.execute(sql`SELECT default_timezone AS zone FROM sites WHERE id = ${siteId}::uuid`);
  // Both drivers answer { rows }; read without a cast.
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) return 'UTC';
  const row: unknown = result.rows[0];
  return knownTimeZone(typeof row === 'object' && row !== null && 'zone' in row ? row.zone : null);
}

/** Every site's id (a refresh of every site refreshes them one by one, each in its own zone). */
async function allSiteIds(db: SqlRunner): Promise<string[]> {
  const result: unknown = await db.execute(sql`SELECT id::text AS id FROM sites ORDER BY id`);
  if (typeof result !== 'object' || result === null || !('rows' in result) || !Array.isArray(result.rows)) return [];
  return result.rows.flatMap((row: unknown) => {
    const id = typeof row === 'object' && row !== null && 'id' in row ? row.id : null;
    return typeof id === 'string' ? [id] : [];
  });
}

/** A zone name (from `siteTimeZone`) as SQL text. */
const zoneText = (zone: string) => sql`${zone}::text`;

/** THE day of a timestamptz in a zone (SQL): the site's calendar day of `column`. */
export const siteDay = (column: SQL, zone: string) => sql`((${column}) AT TIME ZONE ${zoneText(zone)})::date`;
/** Midnight at the start of a 'YYYY-MM-DD' day in a zone, as timestamptz. */
export const siteDayStart = (day: string | SQL, zone: string) => sql`((${day})::date::timestamp AT TIME ZONE ${zoneText(zone)})`;
/** Midnight at the end of a 'YYYY-MM-DD' day in a zone (the next day's start), as timestamptz. */
export const siteDayEnd = (day: string | SQL, zone: string) => sql`(((${day})::date + 1)::timestamp AT TIME ZONE ${zoneText(zone)})`;

/** WHERE conditions on a raw table: its site and a timestamp within the site's days [from, to]. */
function rawFilter(range: SiteRange, siteColumn: SQL, atColumn: SQL): SQL {
  const parts: SQL[] = [sql`${siteColumn} = ${range.siteId}::uuid`];
  if (range.from) parts.push(sql`${atColumn} >= ${siteDayStart(range.from, range.zone)}`);
  if (range.to) parts.push(sql`${atColumn} < ${siteDayEnd(range.to, range.zone)}`);
  return sql.join(parts, sql` AND `);
}

/** A range of one site's days, with the site's zone. */
interface SiteRange extends RollupRange { siteId: string; zone: string }

/** WHERE conditions on a rollup table (site_id, day). */
function rollupFilter(range: SiteRange): SQL {
  const parts: SQL[] = [sql`site_id = ${range.siteId}::uuid`];
  if (range.from) parts.push(sql`day >= ${range.from}::date`);
  if (range.to) parts.push(sql`day <= ${range.to}::date`);
  return sql.join(parts, sql` AND `);
}

const intArray = (values: readonly number[]) => sql.raw(`ARRAY[${values.map((v) => Number(v)).join(',')}]::float8[]`);

/**
 * Raw sessions before raw_history_retention.kept_from (a UTC day: the raw tables' partitions are UTC
 * days) are lost to the retention (server/db/raw-history.ts): the playback rollups of a site's day that
 * started before that instant are all that is left, so neither a rebuild nor a fold touches them.
 */
const keptFromAt = sql`coalesce((SELECT kept_from FROM raw_history_retention)::timestamp AT TIME ZONE 'UTC', '-infinity'::timestamptz)`;
/** The site's first day whose raw sessions are all kept: the day of `keptFromAt`, or the next one when it starts before. */
const keptFromDay = (zone: string) =>
  sql`(CASE WHEN ${siteDayStart(siteDay(keptFromAt, zone), zone)} >= ${keptFromAt} THEN ${siteDay(keptFromAt, zone)} ELSE ${siteDay(keptFromAt, zone)} + 1 END)`;

/**
 * The playback rollups' dimensions, each with the session column that keys it ('all': one row, key
 * ''). A GROUPING SET each (rebuildPlayback); `mask` is GROUPING() over DIMENSION_COLUMNS of that set:
 * a bit is 1 where a column is aggregated away.
 */
const PLAYBACK_DIMENSIONS: readonly { dimension: string; column: string | null }[] = [
  { dimension: 'all', column: null },
  { dimension: 'content', column: 's.content_key' },
  { dimension: 'device', column: 's.device_type' },
  { dimension: 'country', column: 's.country' },
  { dimension: 'isp', column: 's.isp' },
  { dimension: 'cdn', column: 's.cdn' },
  { dimension: 'plan', column: 's.plan_key' },
];
const DIMENSION_COLUMNS = PLAYBACK_DIMENSIONS.flatMap((d) => (d.column ? [d.column] : []));
const groupingMask = (column: string | null) => DIMENSION_COLUMNS.reduce((mask, c, i) => (c === column ? mask : mask | (1 << (DIMENSION_COLUMNS.length - 1 - i))), 0);

/** Per-bucket session counts of a width_bucket column as columns `<prefix>0..n` (first level), and their sums as one JSON array (second). */
const bucketCounts = (bucketColumn: string, bounds: readonly number[], prefix: string) =>
  Array.from({ length: bounds.length + 1 }, (_, i) => `count(*) FILTER (WHERE ${bucketColumn} = ${i}) AS ${prefix}${i}`).join(', ');
const bucketSums = (bounds: readonly number[], prefix: string) =>
  `jsonb_build_array(${Array.from({ length: bounds.length + 1 }, (_, i) => `sum(v.${prefix}${i})::bigint`).join(', ')})`;

/**
 * A slice's playback rows, in two hashed aggregations (issue 42: the fold of a busy day is what the
 * ingestion's PostgreSQL spends most on after the writes): first per dimension key AND viewer, every
 * dimension in one pass over the sessions (GROUPING SETS), then per dimension key, where the viewers
 * are the rows counted. One GROUP BY with count(DISTINCT subscriber_id) over seven rows made per
 * session sorted them all instead: 0.66-1.3 s for a day of 25,000 sessions against 0.13-0.2 s, the
 * same rows (compared with EXCEPT ALL both ways on the bench's day).
 */
async function rebuildPlayback(db: SqlRunner, range: SiteRange): Promise<void> {
  await db.execute(sql`DELETE FROM daily_playback_rollups WHERE ${rollupFilter(range)} AND day >= ${keptFromDay(range.zone)}`);
  // One value per grouping set: which set a first-level row belongs to decides its dimension and key.
  const perSet = (value: (d: (typeof PLAYBACK_DIMENSIONS)[number]) => string) =>
    sql.raw(`CASE GROUPING(${DIMENSION_COLUMNS.join(', ')}) ${PLAYBACK_DIMENSIONS.map((d) => `WHEN ${groupingMask(d.column)} THEN ${value(d)}`).join(' ')} END`);
  const dimensionOf = perSet((d) => `'${d.dimension}'`);
  const keyOf = perSet((d) => d.column ?? "''");
  const sets = sql.raw(PLAYBACK_DIMENSIONS.map((d) => `(${d.column ?? ''})`).join(', '));
  await db.execute(sql`
    INSERT INTO daily_playback_rollups (site_id, network_id, day, dimension, dim_key, sessions, viewers,
      watched_seconds, startup_ms_sum, rebuffer_count, rebuffer_seconds, error_sessions, bitrate_kbps_sum,
      startup_histogram, rebuffer_histogram)
    SELECT v.site_id, v.network_id, v.day, v.dimension, v.dim_key,
      sum(v.sessions), count(*),
      coalesce(sum(v.watched_seconds), 0), coalesce(sum(v.startup_ms), 0), coalesce(sum(v.rebuffer_count), 0),
      coalesce(sum(v.rebuffer_seconds), 0), sum(v.error_sessions), coalesce(sum(v.bitrate_kbps), 0),
      ${sql.raw(bucketSums(STARTUP_MS_BUCKETS, 'sh'))}, ${sql.raw(bucketSums(REBUFFER_RATIO_BUCKETS, 'rh'))}
    FROM (
      SELECT s.site_id, s.network_id, s.day, ${dimensionOf} AS dimension, ${keyOf} AS dim_key, s.subscriber_id,
        count(*) AS sessions, sum(s.watched_seconds) AS watched_seconds, sum(s.startup_ms) AS startup_ms,
        sum(s.rebuffer_count) AS rebuffer_count, sum(s.rebuffer_seconds) AS rebuffer_seconds,
        count(*) FILTER (WHERE s.error_code IS NOT NULL) AS error_sessions, sum(s.avg_bitrate_kbps) AS bitrate_kbps,
        ${sql.raw(bucketCounts('s.startup_bucket', STARTUP_MS_BUCKETS, 'sh'))}, ${sql.raw(bucketCounts('s.rebuffer_bucket', REBUFFER_RATIO_BUCKETS, 'rh'))}
      FROM (
        SELECT p.site_id, p.network_id, p.subscriber_id, p.content_id::text AS content_key, p.device_type, p.country, p.isp, p.cdn,
          p.watched_seconds, p.startup_ms, p.rebuffer_count, p.rebuffer_seconds, p.error_code, p.avg_bitrate_kbps,
          ${siteDay(sql`p.started_at`, range.zone)} AS day,
          width_bucket(p.startup_ms::float8, ${intArray(STARTUP_MS_BUCKETS)}) AS startup_bucket,
          width_bucket(CASE WHEN p.watched_seconds + p.rebuffer_seconds > 0
            THEN p.rebuffer_seconds::float8 / (p.watched_seconds + p.rebuffer_seconds) ELSE 0 END,
            ${intArray(REBUFFER_RATIO_BUCKETS)}) AS rebuffer_bucket,
          coalesce(p.plan_id::text, ${NO_PLAN_KEY}) AS plan_key
        FROM playback_sessions p
        WHERE ${rawFilter(range, sql`p.site_id`, sql`p.started_at`)} AND p.started_at >= ${siteDayStart(keptFromDay(range.zone), range.zone)}
      ) s
      GROUP BY s.site_id, s.network_id, s.day, s.subscriber_id, GROUPING SETS (${sets})
    ) v
    GROUP BY v.site_id, v.network_id, v.day, v.dimension, v.dim_key`);
}

async function rebuildSubscriptions(db: SqlRunner, range: SiteRange): Promise<void> {
  await db.execute(sql`DELETE FROM daily_subscription_rollups WHERE ${rollupFilter(range)}`);
  // Movements as rows of (day, counters); paying/trialing at end of day are running sums of +1/-1
  // over all history of the key, so a partial range still starts from the right totals. Only
  // movements up to now count: today's row is the state so far. Past-due subscriptions count as
  // paying until they end.
  const at = range.asOf ? sql`${range.asOf.toISOString()}::timestamptz` : sql`now()`;
  const siteOnly = sql`site_id = ${range.siteId}::uuid`;
  const today = siteDay(at, range.zone);
  const lastDay = range.to ? sql`least(${range.to}::date, ${today})` : today;
  const dayOf = (column: SQL) => siteDay(column, range.zone);
  await db.execute(sql`
    WITH subs AS (
      SELECT site_id, network_id, plan_id, started_at, trial_ends_at, cancelled_at, ended_at,
        coalesce(trial_ends_at, started_at) AS activated_at
      FROM subscriptions WHERE ${siteOnly}
    ), ev(site_id, network_id, plan_id, day, trials, paid, conv, canc, expi, act, trl) AS (
      SELECT site_id, network_id, plan_id, ${dayOf(sql`started_at`)},
        (trial_ends_at IS NOT NULL)::int, (trial_ends_at IS NULL)::int, 0, 0, 0, 0, (trial_ends_at IS NOT NULL)::int
      FROM subs
      UNION ALL
      SELECT site_id, network_id, plan_id, ${dayOf(sql`trial_ends_at`)}, 0, 0, 1, 0, 0, 0, 0
      FROM subs WHERE trial_ends_at IS NOT NULL AND trial_ends_at <= ${at} AND (ended_at IS NULL OR ended_at > trial_ends_at)
      UNION ALL
      SELECT site_id, network_id, plan_id, ${dayOf(sql`cancelled_at`)}, 0, 0, 0, 1, 0, 0, 0
      FROM subs WHERE cancelled_at IS NOT NULL
      UNION ALL
      SELECT site_id, network_id, plan_id, ${dayOf(sql`ended_at`)}, 0, 0, 0, 0, 1, 0, 0
      FROM subs WHERE ended_at <= ${at}
      UNION ALL
      SELECT site_id, network_id, plan_id, ${dayOf(sql`activated_at`)}, 0, 0, 0, 0, 0, 1, 0
      FROM subs WHERE activated_at <= ${at} AND (ended_at IS NULL OR ended_at > activated_at)
      UNION ALL
      SELECT site_id, network_id, plan_id, ${dayOf(sql`ended_at`)}, 0, 0, 0, 0, 0, -1, 0
      FROM subs WHERE ended_at <= ${at} AND ended_at > activated_at
      UNION ALL
      -- A trial ends at its end or when the subscription ends, whichever comes first. Only subscriptions
      -- with a trial: LEAST ignores NULLs, so without this a paid subscription that ended took one off
      -- the trialing count (issue 27: "In trial (end)" was -68).
      SELECT site_id, network_id, plan_id, ${dayOf(sql`least(trial_ends_at, coalesce(ended_at, trial_ends_at))`)}, 0, 0, 0, 0, 0, 0, -1
      FROM subs WHERE trial_ends_at IS NOT NULL AND least(trial_ends_at, coalesce(ended_at, trial_ends_at)) <= ${at}
    ), daily AS (
      SELECT site_id, network_id, plan_id, day, sum(trials) AS trials, sum(paid) AS paid, sum(conv) AS conv,
        sum(canc) AS canc, sum(expi) AS expi, sum(act) AS act, sum(trl) AS trl
      FROM ev GROUP BY site_id, network_id, plan_id, day
    ), keys AS (
      SELECT site_id, network_id, plan_id, min(day) AS first_day FROM daily GROUP BY site_id, network_id, plan_id
    ), filled AS (
      SELECT k.site_id, k.network_id, k.plan_id, g.ts::date AS day,
        coalesce(d.trials, 0) AS trials, coalesce(d.paid, 0) AS paid, coalesce(d.conv, 0) AS conv,
        coalesce(d.canc, 0) AS canc, coalesce(d.expi, 0) AS expi,
        sum(coalesce(d.act, 0)) OVER w AS active_at_end, sum(coalesce(d.trl, 0)) OVER w AS trialing_at_end
      FROM keys k
      CROSS JOIN LATERAL generate_series(k.first_day::timestamp, (${lastDay})::timestamp, interval '1 day') AS g(ts)
      LEFT JOIN daily d ON d.site_id = k.site_id AND d.network_id = k.network_id AND d.plan_id = k.plan_id AND d.day = g.ts::date
      WINDOW w AS (PARTITION BY k.site_id, k.network_id, k.plan_id ORDER BY g.ts)
    )
    INSERT INTO daily_subscription_rollups (site_id, network_id, day, plan_id, trials_started, paid_started,
      conversions, cancellations, expirations, active_at_end, trialing_at_end)
    SELECT site_id, network_id, day, plan_id, trials, paid, conv, canc, expi, active_at_end, trialing_at_end
    FROM filled
    WHERE ${range.from ? sql`day >= ${range.from}::date` : sql`true`}
      AND (trials <> 0 OR paid <> 0 OR conv <> 0 OR canc <> 0 OR expi <> 0 OR active_at_end <> 0 OR trialing_at_end <> 0)`);
}

/**
 * The rollup status of a support refund (issue 29, payment_refunds): its own row on the day it was
 * given. A charge refunded by support keeps counting as a charge taken ('succeeded') on its own day;
 * a charge marked 'refunded' with no refund rows (the generated worlds') counts as before: taken and
 * refunded on its day.
 */
export const REFUND_STATUS = 'refund';

async function rebuildPayments(db: SqlRunner, range: SiteRange): Promise<void> {
  const dayOf = (column: SQL) => siteDay(column, range.zone);
  await db.execute(sql`DELETE FROM daily_payment_rollups WHERE ${rollupFilter(range)}`);
  await db.execute(sql`
    INSERT INTO daily_payment_rollups (site_id, network_id, day, plan_id, currency, status, payments, amount)
    SELECT site_id, network_id, day, plan_id, currency, status, count(*), sum(amount) FROM (
      SELECT site_id, network_id, ${dayOf(sql`at`)} AS day, coalesce(plan_id, ${NO_PLAN_KEY}::uuid) AS plan_id, currency,
        CASE WHEN refunded_amount > 0 THEN 'succeeded' ELSE status END AS status, amount
      FROM payments WHERE ${rawFilter(range, sql`site_id`, sql`at`)}
      UNION ALL
      SELECT site_id, network_id, ${dayOf(sql`at`)}, coalesce(plan_id, ${NO_PLAN_KEY}::uuid), currency, ${REFUND_STATUS}::text, amount
      FROM payment_refunds WHERE ${rawFilter(range, sql`site_id`, sql`at`)}
    ) AS rows
    GROUP BY 1, 2, 3, 4, 5, 6`);
}

async function rebuildAudience(db: SqlRunner, range: SiteRange): Promise<void> {
  await db.execute(sql`DELETE FROM daily_audience_rollups WHERE ${rollupFilter(range)}`);
  await db.execute(sql`
    INSERT INTO daily_audience_rollups (site_id, network_id, day, country, signups)
    SELECT site_id, network_id, ${siteDay(sql`created_at`, range.zone)}, country, count(*)
    FROM subscribers WHERE ${rawFilter(range, sql`site_id`, sql`created_at`)}
    GROUP BY 1, 2, 3, 4`);
}

/*
 * One lock for every refresh of a day (issue 37: a support action's refresh and the fold both
 * rewrote the same slice and one failed on the rollups' unique key, after its write had committed).
 * Two advisory locks, in this order:
 * - the site's refresh lock (rollupSiteLockKey): shared by every refresh of given days (the fold, a
 *   support action, a rebuild of a day range), exclusive by a refresh of every day of a site (the
 *   seed's rebuild, `npm run rollups` without days), which cannot name its days in advance;
 * - the day's lock (rollupDayLockKey), exclusive, one per (site, site's day), taken in key order.
 * Fold workers take both with try-locks (tryLockRollupDay: a slice someone else is refreshing is left
 * for the next fold), everyone else waits. Nobody who waits holds a lock another waiter needs in a
 * different order, so no two refreshes can wait for each other in a circle.
 */

/** A site id as the locks spell it (lower-case uuid text). */
const siteText = (site: SQL | string) => (typeof site === 'string' ? sql`${site.toLowerCase()}::text` : sql`lower((${site})::text)`);
/** A day as the locks spell it: 'YYYY-MM-DD' (a string of that form, or SQL giving that text). */
const dayText = (day: SQL | string) => (typeof day === 'string' ? sql`${day}::text` : sql`(${day})::text`);

/** The key of a site's refresh lock (see above). */
export function rollupSiteLockKey(site: SQL | string): SQL {
  return sql`hashtext('rollup-site:' || ${siteText(site)})`;
}

/**
 * THE key of one (site, day of the site) slice of the rollups: every refresh of that day (the fold, a
 * support action, a rebuild) takes it, exclusively, before it deletes and re-inserts the slice.
 * `day` is 'YYYY-MM-DD' text.
 */
export function rollupDayLockKey(site: SQL | string, day: SQL | string): SQL {
  return sql`hashtext('rollup:' || ${siteText(site)} || ':' || ${dayText(day)})`;
}

/**
 * The fold's try-lock of one slice, for a WHERE clause: the site's refresh lock shared, then the
 * day's lock, without waiting (false when either is held by another refresh; the slice stays dirty).
 */
export function tryLockRollupDay(site: SQL | string, day: SQL | string): SQL {
  return sql`(CASE WHEN pg_try_advisory_xact_lock_shared(${rollupSiteLockKey(site)}) THEN pg_try_advisory_xact_lock(${rollupDayLockKey(site, day)}) ELSE false END)`;
}

/** A range longer than this locks the whole site rather than one lock per day. */
const MAX_DAY_LOCKS = 1000;

function daySpan(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Takes, in the caller's transaction, the locks of every day the range refreshes (see above). */
async function lockRollupRange(tx: SqlRunner, range: RollupRange): Promise<void> {
  const { siteId, from, to } = range;
  if (siteId && from && to && daySpan(from, to) <= MAX_DAY_LOCKS) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${rollupSiteLockKey(siteId)})`);
    if (to < from) return;
    // One statement, keys in ascending order (the order every waiter takes day locks in).
    await tx.execute(sql`
      SELECT count(pg_advisory_xact_lock(k.key)) FROM (
        SELECT DISTINCT ${rollupDayLockKey(siteId, sql`to_char(g.d, 'YYYY-MM-DD')`)} AS key
        FROM generate_series(${from}::date::timestamp, ${to}::date::timestamp, interval '1 day') AS g(d)
        ORDER BY 1) AS k`);
    return;
  }
  if (siteId) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${rollupSiteLockKey(siteId)})`);
    return;
  }
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(k.key)) FROM (
      SELECT DISTINCT ${rollupSiteLockKey(sql`s.id`)} AS key FROM sites s ORDER BY 1) AS k`);
}

/**
 * Recomputes every daily rollup of the range inside the caller's transaction, under the range's
 * locks (see above): a write and the refresh of the figures it moves commit together (a support
 * action), and no other refresh of those days runs meanwhile.
 */
export async function refreshRollupsIn(tx: SqlRunner, opts: RollupRange = {}): Promise<void> {
  checkRange(opts);
  await lockRollupRange(tx, opts);
  // The grouping hashes ~7 groups per session: keep it in memory rather than spilling to disk.
  await tx.execute(sql`SET LOCAL work_mem = '32MB'`);
  // Each site in its own zone: a site's days are its own (a refresh of every site goes site by site).
  for (const siteId of opts.siteId ? [opts.siteId] : await allSiteIds(tx)) {
    const range: SiteRange = { ...opts, siteId, zone: await siteTimeZone(tx, siteId) };
    await rebuildPlayback(tx, range);
    await rebuildSubscriptions(tx, range);
    await rebuildPayments(tx, range);
    await rebuildAudience(tx, range);
  }
}

/**
 * Yesterday's and today's subscription rows of every site, as of `now` (issue 38). "Paying at end" of a
 * range that ends today is the state so far, and subscriptions move as time passes (a trial or a period
 * ends) with nothing written that a fold would see: without this the Dashboard's figure for today kept
 * the moment of the last rebuild while Users counts the subscriptions as they are now. The server runs
 * it when it starts and with its housekeeping.
 */
export async function refreshRecentSubscriptions(db: Db, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    for (const siteId of await allSiteIds(tx)) {
      const zone = await siteTimeZone(tx, siteId);
      const range: SiteRange = { siteId, zone, from: siteDayOf(now.getTime() - 86_400_000, zone), to: siteDayOf(now, zone), asOf: now };
      await lockRollupRange(tx, range);
      await rebuildSubscriptions(tx, range);
    }
  });
}

/**
 * Recomputes every daily rollup of a site (or all sites) over [from, to] (or all days) from the raw
 * rows, in one transaction under the range's locks: readers never see a half-rebuilt slice, and no
 * fold or support action refreshes the same days at the same time.
 */
export async function rebuildRollups(db: Db, opts: RollupRange = {}): Promise<void> {
  checkRange(opts);
  await db.transaction(async (tx) => refreshRollupsIn(tx, opts));
}

/**
 * The incremental fold of ingestion: re-aggregates the playback rollups of the given days (the site's) of one
 * site, inside the caller's transaction (so a batch and its rollups commit together), under the
 * same locks as every other refresh of those days (a fold worker holds them already: its try-locks).
 */
export async function foldPlaybackDays(tx: SqlRunner, siteId: string, days: Iterable<string>): Promise<void> {
  const sorted = [...new Set(days)].sort();
  for (const day of sorted) checkRange({ siteId, from: day, to: day });
  if (sorted.length === 0) return;
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${rollupSiteLockKey(siteId)})`);
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(k.key)) FROM (
      SELECT DISTINCT ${rollupDayLockKey(siteId, sql`x.day`)} AS key
      FROM json_array_elements_text(${JSON.stringify(sorted)}::json) AS x(day) ORDER BY 1) AS k`);
  const zone = await siteTimeZone(tx, siteId);
  for (const day of sorted) await rebuildPlayback(tx, { siteId, from: day, to: day, zone });
}

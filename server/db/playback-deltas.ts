/**
 * The consumers' playback rollups (issue 42): each flush adds what it changed to
 * daily_playback_rollups in its own transaction, instead of marking the (site, day) slice for a fold
 * that re-aggregated the whole day from raw sessions (seconds per fold once a day holds tens of
 * thousands of sessions, and growing with the day).
 *
 * What a flush changed, per session (`PlaybackDeltas`):
 * - a session it inserted counts once with its values as inserted (RETURNING of the insert);
 * - a session it updated counts its values after the update (RETURNING of the update) minus its values
 *   before (read under the session's advisory lock by the same transaction, just before the update):
 *   a session whose rebuffer ratio changes bucket leaves one histogram bucket for another; an end that
 *   moves earlier (values recomputed from fewer heartbeats) subtracts what it takes away.
 * Dimensions (network, day, content, device, country, ISP, CDN, plan) and the startup time are fixed
 * at the start, so only the values move. The consumer groups the contributions per rollup row in
 * memory (`dimensionsOf`: the TypeScript twin of rollups.ts `playbackDimensions`; the buckets come
 * from the rebuild's own SQL expressions, read with the rows), and `applyPlaybackDeltas` adds them with
 * one INSERT … ON CONFLICT DO UPDATE (histograms element by element): a few hundred rows per flush, so
 * the part that runs under the day's lock stays short (grouping 7 rows per session in SQL there took
 * 45 ms per flush of 2,500 events).
 *
 * Viewers (count(DISTINCT subscriber_id) per key and day) are not additive: a new session adds one
 * viewer to a key only if no other stored session of its subscriber, network and site day counts under
 * that key (those sessions' keys are read once per (subscriber, day) by the (subscriber_id,
 * started_at) index; a look-up per new session and key cost 2–3 s for a flush of 10,000 starts), and
 * the new sessions of one flush count their subscribers once. Two consumers adding sessions of one subscriber
 * on one day must not both count it: the whole step runs under the day's rollup lock (rollups.ts
 * rollupDayLockKey, exclusive; taken after every session lock, in (site, day) order, so the lock order
 * stays sessions → rollup days), which every other refresh of that day (a support action's refresh, a
 * rebuild, the fold) also takes: the look-up sees every session committed before, and a refresh never
 * runs between a raw write and its delta. Only this last step of a flush is serialised.
 *
 * Days before raw_history_retention.kept_from (frozen: their raw rows are gone) get no delta. A row
 * created by a delta of stored sessions only (its slice had no row for a key that stored sessions
 * count under: rollups never built for those rows) marks the slice dirty, and the fold re-aggregates it
 * from raw rows: a safety net, not the path.
 */
import { sql } from 'drizzle-orm';
import { NO_PLAN_KEY, REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../common/constants';
import { timed } from './ingest-timing';
import { queryRows } from './seed-world';
import {
  keptFromDay, playbackDimensions, rebufferBucket, rollupDayLockKey, rollupSiteLockKey, siteDay, siteDayEnd, siteDayStart,
  startupBucket, type SqlRunner,
} from './rollups';

/** What a session adds to the rollups: its fixed dimensions and its values (see `sessionRollupColumns`). */
export interface SessionRollupRow extends SessionRollupValues {
  id: string;
  network_id: string;
  day: string;
  subscriber_id: string;
  content_id: string;
  device_type: string;
  country: string;
  isp: string;
  cdn: string;
  plan_key: string;
}

/** The values of a session that move after its start (and its startup bucket, fixed). */
export interface SessionRollupValues {
  watched_seconds: number;
  startup_ms: number;
  rebuffer_count: number;
  rebuffer_seconds: number;
  errored: boolean;
  avg_bitrate_kbps: number;
  startup_bucket: number;
  rebuffer_bucket: number;
}

/** The values of the playback_sessions row `alias` a delta needs (SELECT / RETURNING list; see SessionRollupValues). */
export const sessionRollupValues = (alias: string) => {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  return sql`${col('watched_seconds')} AS watched_seconds, ${col('startup_ms')} AS startup_ms, ${col('rebuffer_count')} AS rebuffer_count,
    ${col('rebuffer_seconds')} AS rebuffer_seconds, (${col('error_code')} IS NOT NULL) AS errored, ${col('avg_bitrate_kbps')} AS avg_bitrate_kbps,
    ${startupBucket(alias)} AS startup_bucket, ${rebufferBucket(alias)} AS rebuffer_bucket`;
};

/** The dimensions and values of the playback_sessions row `alias` (RETURNING list; see SessionRollupRow), its day in `zone`. */
export const sessionRollupColumns = (alias: string, zone: string) => {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  return sql`${col('id')}::text AS id, ${col('network_id')}::text AS network_id, to_char(${siteDay(col('started_at'), zone)}, 'YYYY-MM-DD') AS day,
    ${col('subscriber_id')}::text AS subscriber_id, ${col('content_id')}::text AS content_id, ${col('device_type')} AS device_type,
    ${col('country')} AS country, ${col('isp')} AS isp, ${col('cdn')} AS cdn, coalesce(${col('plan_id')}::text, ${NO_PLAN_KEY}) AS plan_key,
    ${sessionRollupValues(alias)}`;
};

const VALUE_KEYS = ['watched_seconds', 'startup_ms', 'rebuffer_count', 'rebuffer_seconds', 'errored', 'avg_bitrate_kbps', 'startup_bucket', 'rebuffer_bucket'] as const;
const sameValues = (a: SessionRollupValues, b: SessionRollupValues) => VALUE_KEYS.every((k) => a[k] === b[k]);

/** One rollup row's delta: (network, day, dimension, key) and what to add to each column. */
interface KeyDelta {
  network_id: string;
  day: string;
  dimension: string;
  dim_key: string;
  sessions: number;
  watched_seconds: number;
  startup_ms_sum: number;
  rebuffer_count: number;
  rebuffer_seconds: number;
  error_sessions: number;
  bitrate_kbps_sum: number;
  startup_histogram: number[];
  rebuffer_histogram: number[];
}

/**
 * The (dimension, dim_key) pairs of a session: the TypeScript twin of rollups.ts `playbackDimensions`
 * (the same seven, the same keys: content id and plan key as PostgreSQL text). The deltas are grouped
 * here, in the consumer, so the database only adds a few hundred rows per flush under the day lock;
 * server/ingest-deltas.test.ts checks the result against a rebuild.
 */
const dimensionsOf = (r: SessionRollupRow): [string, string][] => [
  ['all', ''], ['content', r.content_id], ['device', r.device_type], ['country', r.country], ['isp', r.isp], ['cdn', r.cdn], ['plan', r.plan_key],
];

/** What one site's part of a flush adds to its playback rollups, grouped by rollup row. */
export class PlaybackDeltas {
  private readonly keys = new Map<string, KeyDelta>();
  /** The sessions this flush inserted (their viewers are looked up by applyPlaybackDeltas). */
  readonly fresh: SessionRollupRow[] = [];

  /** A session this flush inserted, as inserted. */
  inserted(row: SessionRollupRow): void {
    this.fresh.push(row);
    this.add(row, row, 1, 1);
  }

  /** A session this flush updated: its row after the update, and its values before. */
  updated(after: SessionRollupRow, before: SessionRollupValues): void {
    if (sameValues(after, before)) return;
    this.add(after, after, 1, 0);
    this.add(after, before, -1, 0);
  }

  private add(dims: SessionRollupRow, v: SessionRollupValues, sign: 1 | -1, sessions: number): void {
    for (const [dimension, dimKey] of dimensionsOf(dims)) {
      const id = `${dims.network_id}|${dims.day}|${dimension}|${dimKey}`;
      let k = this.keys.get(id);
      if (!k) {
        k = {
          network_id: dims.network_id, day: dims.day, dimension, dim_key: dimKey, sessions: 0, watched_seconds: 0, startup_ms_sum: 0, rebuffer_count: 0,
          rebuffer_seconds: 0, error_sessions: 0, bitrate_kbps_sum: 0,
          startup_histogram: new Array<number>(STARTUP_MS_BUCKETS.length + 1).fill(0), rebuffer_histogram: new Array<number>(REBUFFER_RATIO_BUCKETS.length + 1).fill(0),
        };
        this.keys.set(id, k);
      }
      k.sessions += sessions;
      k.watched_seconds += sign * v.watched_seconds;
      k.startup_ms_sum += sign * v.startup_ms;
      k.rebuffer_count += sign * v.rebuffer_count;
      k.rebuffer_seconds += sign * v.rebuffer_seconds;
      k.error_sessions += v.errored ? sign : 0;
      k.bitrate_kbps_sum += sign * v.avg_bitrate_kbps;
      k.startup_histogram[v.startup_bucket]! += sign;
      k.rebuffer_histogram[v.rebuffer_bucket]! += sign;
    }
  }

  /** The rollup rows that change (a key whose changes cancel out is left alone). */
  get rows(): KeyDelta[] {
    return [...this.keys.values()].filter((k) => k.sessions !== 0 || k.watched_seconds !== 0 || k.startup_ms_sum !== 0 || k.rebuffer_count !== 0
      || k.rebuffer_seconds !== 0 || k.error_sessions !== 0 || k.bitrate_kbps_sum !== 0 || k.startup_histogram.some((n) => n !== 0)
      || k.rebuffer_histogram.some((n) => n !== 0));
  }
}

/** A stored histogram plus a delta, element by element (`buckets` elements; a missing one counts 0). */
function addHistograms(stored: string, delta: string, buckets: number) {
  const sum = (i: number) => `coalesce((${stored}->>${i})::bigint, 0) + coalesce((${delta}->>${i})::bigint, 0)`;
  return sql.raw(`jsonb_build_array(${Array.from({ length: buckets }, (_, i) => sum(i)).join(', ')})`);
}

/**
 * Adds a site's deltas to daily_playback_rollups inside the flush's transaction, under the site's
 * refresh lock (shared) and its days' rollup locks (exclusive, in key order). Call it after every raw
 * write of the flush (the session locks come first). Returns the days whose slice it found without a
 * row it needed (the caller marks them dirty for the fold).
 */
export async function applyPlaybackDeltas(tx: SqlRunner, siteId: string, zone: string, deltas: PlaybackDeltas): Promise<string[]> {
  const keys = deltas.rows;
  if (keys.length === 0) return [];
  const days = [...new Set(keys.map((k) => k.day))].sort();
  await timed('rollups-lock', () => tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${rollupSiteLockKey(siteId)})`));
  await timed('rollups-lock', () => tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(k.key)) FROM (
      SELECT DISTINCT ${rollupDayLockKey(siteId, sql`x.day`)} AS key FROM json_array_elements_text(${JSON.stringify(days)}::json) AS x(day) ORDER BY 1) AS k`));
  const fresh = deltas.fresh.map((r) => ({ id: r.id, network_id: r.network_id, day: r.day, subscriber_id: r.subscriber_id, content_id: r.content_id,
    device_type: r.device_type, country: r.country, isp: r.isp, cdn: r.cdn, plan_key: r.plan_key }));
  const rows = await timed('rollups-upsert', () => queryRows<{ day: string; orphan: boolean }>(tx, sql`
    WITH g AS (
      SELECT g.* FROM json_to_recordset(${JSON.stringify(keys)}::json) AS g(network_id uuid, day date, dimension text, dim_key text, sessions integer,
        watched_seconds bigint, startup_ms_sum bigint, rebuffer_count integer, rebuffer_seconds bigint, error_sessions integer, bitrate_kbps_sum bigint,
        startup_histogram jsonb, rebuffer_histogram jsonb)
      WHERE g.day >= ${keptFromDay(zone)}
    ), n AS MATERIALIZED (
      SELECT n.* FROM json_to_recordset(${JSON.stringify(fresh)}::json) AS n(id uuid, network_id uuid, day date, subscriber_id uuid, content_id text,
        device_type text, country text, isp text, cdn text, plan_key text)
    ), d AS (
      SELECT n.network_id, n.day, n.subscriber_id, k.dimension, k.dim_key
      FROM n CROSS JOIN LATERAL ${playbackDimensions(sql`n.content_id`, sql`n.plan_key`, 'n')} AS k(dimension, dim_key)
    ), u AS (
      SELECT DISTINCT n.network_id, n.day, n.subscriber_id FROM n
    ), seen AS (
      -- The keys each of these subscribers already counts under that day: their other stored sessions
      -- (same site, network and site day; not this flush's new ones), read once per (subscriber, day)
      -- by the (subscriber_id, started_at) index. A new session's subscriber is a new viewer of a key
      -- only if it is not among them (and counts once however many new sessions it has there).
      -- LATERAL … OFFSET 0 (not pulled up into a join): an index scan per (subscriber, day); a join was
      -- planned as a scan of the whole day's sessions per flush (17 ms at 20,000, growing with the day).
      SELECT DISTINCT u.network_id, u.day, u.subscriber_id, k.dimension, k.dim_key
      FROM u CROSS JOIN LATERAL (
        SELECT o.id, o.content_id, o.plan_id, o.device_type, o.country, o.isp, o.cdn FROM playback_sessions o
        WHERE o.subscriber_id = u.subscriber_id AND o.started_at >= ${siteDayStart(sql`u.day`, zone)} AND o.started_at < ${siteDayEnd(sql`u.day`, zone)}
          AND o.site_id = ${siteId}::uuid AND o.network_id = u.network_id OFFSET 0) o
      CROSS JOIN LATERAL ${playbackDimensions(sql`o.content_id`, sql`coalesce(o.plan_id::text, ${NO_PLAN_KEY})`, 'o')} AS k(dimension, dim_key)
      WHERE NOT EXISTS (SELECT 1 FROM n WHERE n.id = o.id)
    ), v AS (
      SELECT d.network_id, d.day, d.dimension, d.dim_key, count(DISTINCT d.subscriber_id) AS viewers FROM d
      WHERE NOT EXISTS (SELECT 1 FROM seen WHERE seen.network_id = d.network_id AND seen.day = d.day AND seen.subscriber_id = d.subscriber_id
        AND seen.dimension = d.dimension AND seen.dim_key = d.dim_key)
      GROUP BY d.network_id, d.day, d.dimension, d.dim_key
    )
    INSERT INTO daily_playback_rollups AS r (site_id, network_id, day, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum,
      rebuffer_count, rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram, rebuffer_histogram)
    SELECT ${siteId}::uuid, g.network_id, g.day, g.dimension, g.dim_key, g.sessions, coalesce(v.viewers, 0), g.watched_seconds, g.startup_ms_sum,
      g.rebuffer_count, g.rebuffer_seconds, g.error_sessions, g.bitrate_kbps_sum, g.startup_histogram, g.rebuffer_histogram
    FROM g LEFT JOIN v ON v.network_id = g.network_id AND v.day = g.day AND v.dimension = g.dimension AND v.dim_key = g.dim_key
    ORDER BY g.network_id, g.day, g.dimension, g.dim_key
    ON CONFLICT (site_id, network_id, day, dimension, dim_key) DO UPDATE SET
      sessions = r.sessions + excluded.sessions, viewers = r.viewers + excluded.viewers,
      watched_seconds = r.watched_seconds + excluded.watched_seconds, startup_ms_sum = r.startup_ms_sum + excluded.startup_ms_sum,
      rebuffer_count = r.rebuffer_count + excluded.rebuffer_count, rebuffer_seconds = r.rebuffer_seconds + excluded.rebuffer_seconds,
      error_sessions = r.error_sessions + excluded.error_sessions, bitrate_kbps_sum = r.bitrate_kbps_sum + excluded.bitrate_kbps_sum,
      startup_histogram = ${addHistograms('r.startup_histogram', 'excluded.startup_histogram', STARTUP_MS_BUCKETS.length + 1)},
      rebuffer_histogram = ${addHistograms('r.rebuffer_histogram', 'excluded.rebuffer_histogram', REBUFFER_RATIO_BUCKETS.length + 1)}
    RETURNING to_char(r.day, 'YYYY-MM-DD') AS day, (r.xmax = 0 AND r.sessions = 0) AS orphan`));
  return [...new Set(rows.filter((r) => r.orphan).map((r) => r.day))].sort();
}

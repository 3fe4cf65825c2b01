/**
 * The reads of the reporting service. Every statement filters by site (and network when asked) and
 * reads the daily rollups, except `liveSessions` (real-time reports: sessions active in the last
 * minutes) and the cohort reads, which read subscriptions and payments per subscriber cohort (one
 * row per subscription or payment, never playback sessions). Numbers come back as float8 and days as
 * text so both drivers (PGlite, node-postgres) answer the same JavaScript values. Days and months are
 * the site's, in its zone (issue 38; server/db/rollups.ts `siteTimeZone`): `from` and `to` are the
 * site's dates, a cohort is the site's month.
 */
import { sql, type SQL } from 'drizzle-orm';
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS, type PlaybackDimension } from '../../common/constants';
import type { Db } from './client';
import { siteDayEnd, siteTimeZone } from './rollups';
import type { ContentInfo, LiveSessionRow, PaymentDayRow, PlaybackSums, ReportScope, SubscriptionDayRow } from '../report-shapes';

export type { PaymentDayRow, PlaybackSums, ReportScope };

/** The rows of a raw `db.execute` answer (the node-postgres and PGlite drivers both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows) ? result.rows : [];
}

function scopeFilter(scope: ReportScope, alias = ''): SQL {
  const p = alias ? `${alias}.` : '';
  const parts = [
    sql`${sql.raw(`${p}site_id`)} = ${scope.siteId}::uuid`,
    sql`${sql.raw(`${p}day`)} >= ${scope.from}::date`,
    sql`${sql.raw(`${p}day`)} <= ${scope.to}::date`,
  ];
  if (scope.networkId) parts.push(sql`${sql.raw(`${p}network_id`)} = ${scope.networkId}::uuid`);
  return sql.join(parts, sql` AND `);
}

interface PlaybackDayRow extends PlaybackSums { day: string }
interface PlaybackKeyRow extends PlaybackSums { key: string; days: number }

const PLAYBACK_SUMS = sql.raw(`sum(sessions)::float8 AS sessions, sum(viewers)::float8 AS viewers,
  sum(watched_seconds)::float8 AS "watchedSeconds", sum(startup_ms_sum)::float8 AS "startupMsSum",
  sum(rebuffer_count)::float8 AS "rebufferCount", sum(rebuffer_seconds)::float8 AS "rebufferSeconds",
  sum(error_sessions)::float8 AS "errorSessions", sum(bitrate_kbps_sum)::float8 AS "bitrateKbpsSum"`);

/**
 * Element-wise sums of the two histograms, as one column per bucket (h0..h5 startup, r0..r5 rebuffer)
 * in the same aggregate pass as the other sums: indexing a fixed number of buckets is far cheaper
 * than unnesting every jsonb array and grouping the elements (about 7x on the per-title report).
 */
const HISTOGRAM_SUMS = sql.raw([
  ...Array.from({ length: STARTUP_MS_BUCKETS.length + 1 }, (_, i) => `coalesce(sum((startup_histogram->>${i})::float8), 0) AS h${i}`),
  ...Array.from({ length: REBUFFER_RATIO_BUCKETS.length + 1 }, (_, i) => `coalesce(sum((rebuffer_histogram->>${i})::float8), 0) AS r${i}`),
].join(', '));

type WithBucketColumns<T> = T & Record<`h${number}` | `r${number}`, number>;

function withHistograms<T extends object>(row: WithBucketColumns<T>): T & Pick<PlaybackSums, 'startupHistogram' | 'rebufferHistogram'> {
  const startupHistogram = Array.from({ length: STARTUP_MS_BUCKETS.length + 1 }, (_, i) => Number(row[`h${i}`]));
  const rebufferHistogram = Array.from({ length: REBUFFER_RATIO_BUCKETS.length + 1 }, (_, i) => Number(row[`r${i}`]));
  const rest: Record<string, unknown> = { ...row };
  for (const key of Object.keys(rest)) if (/^[hr]\d+$/.test(key)) delete rest[key];
  return { ...(rest as T), startupHistogram, rebufferHistogram };
}

/** Playback per day of one dimension slice ('all' / '' for everything, or e.g. 'device' / 'web'). */
export async function playbackByDay(db: Db, scope: ReportScope, dimension: PlaybackDimension, key: string): Promise<PlaybackDayRow[]> {
  const rows = rowsOf<WithBucketColumns<Omit<PlaybackDayRow, 'startupHistogram' | 'rebufferHistogram'>>>(await db.execute(sql`
    SELECT day::text AS day, ${PLAYBACK_SUMS}, ${HISTOGRAM_SUMS} FROM daily_playback_rollups
    WHERE ${scopeFilter(scope)} AND dimension = ${dimension} AND dim_key = ${key} GROUP BY day ORDER BY day`));
  return rows.map(withHistograms);
}

/** Playback per key of a dimension over the whole range (optionally one key only). */
export async function playbackByKey(db: Db, scope: ReportScope, dimension: PlaybackDimension, onlyKey: string | null, withHistogramSums = true): Promise<PlaybackKeyRow[]> {
  const keyFilter = onlyKey === null ? sql`true` : sql`dim_key = ${onlyKey}`;
  const histograms = withHistogramSums ? sql`, ${HISTOGRAM_SUMS}` : sql``;
  const rows = rowsOf<WithBucketColumns<Omit<PlaybackKeyRow, 'startupHistogram' | 'rebufferHistogram'>>>(await db.execute(sql`
    SELECT dim_key AS key, count(DISTINCT day)::float8 AS days, ${PLAYBACK_SUMS}${histograms} FROM daily_playback_rollups
    WHERE ${scopeFilter(scope)} AND dimension = ${dimension} AND ${keyFilter} GROUP BY dim_key`));
  return withHistogramSums ? rows.map(withHistograms) : rows.map((r) => ({ ...r, startupHistogram: [], rebufferHistogram: [] }));
}

export async function subscriptionsByDay(db: Db, scope: ReportScope, planId: string | null): Promise<SubscriptionDayRow[]> {
  const plan = planId ? sql`plan_id = ${planId}::uuid` : sql`true`;
  return rowsOf<SubscriptionDayRow>(await db.execute(sql`
    SELECT day::text AS day, sum(trials_started)::float8 AS "trialsStarted", sum(paid_started)::float8 AS "paidStarted",
      sum(conversions)::float8 AS conversions, sum(cancellations)::float8 AS cancellations,
      sum(expirations)::float8 AS expirations, sum(active_at_end)::float8 AS "activeAtEnd",
      sum(trialing_at_end)::float8 AS "trialingAtEnd"
    FROM daily_subscription_rollups WHERE ${scopeFilter(scope)} AND ${plan} GROUP BY day ORDER BY day`));
}

/** Payments per day (key '') or per plan over the range (key = plan id, day = ''). */
export async function paymentsBy(db: Db, scope: ReportScope, planId: string | null, group: 'day' | 'plan'): Promise<PaymentDayRow[]> {
  const plan = planId ? sql`plan_id = ${planId}::uuid` : sql`true`;
  const cols = group === 'day' ? sql.raw(`day::text AS day, '' AS key`) : sql.raw(`'' AS day, plan_id::text AS key`);
  return rowsOf<PaymentDayRow>(await db.execute(sql`
    SELECT ${cols}, currency, status, sum(payments)::float8 AS payments, sum(amount)::float8 AS amount
    FROM daily_payment_rollups WHERE ${scopeFilter(scope)} AND ${plan} GROUP BY 1, 2, 3, 4 ORDER BY 1, 2`));
}

/** Watched seconds per day and content item (content-level payments share each day's revenue by them). */
export async function watchByDayAndContent(db: Db, scope: ReportScope): Promise<{ day: string; key: string; sessions: number; watchedSeconds: number }[]> {
  return rowsOf(await db.execute(sql`
    SELECT day::text AS day, dim_key AS key, sum(sessions)::float8 AS sessions, sum(watched_seconds)::float8 AS "watchedSeconds"
    FROM daily_playback_rollups WHERE ${scopeFilter(scope)} AND dimension = 'content' GROUP BY 1, 2`));
}

export async function signupsByDay(db: Db, scope: ReportScope, country: string | null): Promise<{ day: string; signups: number }[]> {
  const c = country ? sql`country = ${country}` : sql`true`;
  return rowsOf(await db.execute(sql`
    SELECT day::text AS day, sum(signups)::float8 AS signups FROM daily_audience_rollups
    WHERE ${scopeFilter(scope)} AND ${c} GROUP BY day ORDER BY day`));
}

interface CohortCell { cohort: string; key: string; offset: number; value: number }

/**
 * Subscribers of each monthly sign-up cohort (month of their first subscription) still subscribed
 * k months later; key is the plan of that first subscription.
 */
export async function cohortRetention(db: Db, scope: ReportScope, planId: string | null): Promise<CohortCell[]> {
  const network = scope.networkId ? sql`AND network_id = ${scope.networkId}::uuid` : sql``;
  const plan = planId ? sql`AND plan_id = ${planId}::uuid` : sql``;
  // One pass over the site's subscriptions: a window gives each row its subscriber's cohort and
  // first plan, and each row covers the month offsets from its start to its end (or the range's
  // last month) as integers. Months are counted as year * 12 + month, in the site's zone.
  const zone = sql`${await siteTimeZone(db, scope.siteId)}::text`;
  // Issue 41 (scale): only the subscriptions of viewers who subscribed in the range's months are read
  // (cohortSubscribers), not every subscription of the site.
  return rowsOf<CohortCell>(await db.execute(sql`
    WITH s AS (
      SELECT subscriber_id,
        first_value(plan_id) OVER w AS plan_id,
        date_trunc('month', first_value(started_at) OVER w AT TIME ZONE ${zone})::date AS cohort,
        extract(year FROM started_at AT TIME ZONE ${zone})::int * 12 + extract(month FROM started_at AT TIME ZONE ${zone})::int AS start_month,
        extract(year FROM ended_at AT TIME ZONE ${zone})::int * 12 + extract(month FROM ended_at AT TIME ZONE ${zone})::int AS end_month
      FROM subscriptions WHERE site_id = ${scope.siteId}::uuid ${network}
        AND subscriber_id IN (${cohortSubscribers(scope, network, zone)})
      -- Ties on started_at (two subscriptions of one sign-up) go to the lower id, the same in both cohort reads.
      WINDOW w AS (PARTITION BY subscriber_id ORDER BY started_at, id)
    ), f AS (
      SELECT *, extract(year FROM cohort)::int * 12 + extract(month FROM cohort)::int AS cohort_month FROM s
      WHERE cohort >= date_trunc('month', ${scope.from}::date)::date AND cohort <= ${scope.to}::date ${plan}
    )
    SELECT to_char(cohort, 'YYYY-MM') AS cohort, plan_id::text AS key, k AS "offset", count(DISTINCT subscriber_id)::float8 AS value
    FROM f CROSS JOIN LATERAL generate_series(
      start_month - cohort_month,
      least(coalesce(end_month, 2147483647), extract(year FROM ${scope.to}::date)::int * 12 + extract(month FROM ${scope.to}::date)::int) - cohort_month) AS k
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`));
}

/**
 * The viewers who may belong to a cohort of the range (SQL, a subquery of subscriber ids): those with a
 * subscription (of the network, when one is asked) started in the range's months in the site's zone,
 * from the first day of `from`'s month to the end of `to`'s month (a cohort is in the range when its
 * month starts on or before `to`). The cohort reads still find each viewer's first subscription among
 * all of theirs and keep those whose first falls in the range: this only spares them the subscriptions
 * of every other viewer of the site (issue 41: the cohort reports at 100x read the site's every
 * subscription, 0.5-1.3 s).
 */
function cohortSubscribers(scope: ReportScope, network: SQL, zone: SQL): SQL {
  const firstMonth = sql`(date_trunc('month', ${scope.from}::date)::timestamp AT TIME ZONE ${zone})`;
  const afterLastMonth = sql`((date_trunc('month', ${scope.to}::date) + interval '1 month')::timestamp AT TIME ZONE ${zone})`;
  return sql`SELECT subscriber_id FROM subscriptions WHERE site_id = ${scope.siteId}::uuid ${network}
    AND started_at >= ${firstMonth} AND started_at < ${afterLastMonth}`;
}

/** Net revenue (the charges kept: succeeded, less what support refunded of them; a charge marked refunded without refund rows adds nothing) per cohort and plan of first subscription, in one currency. */
export async function cohortRevenue(db: Db, scope: ReportScope, planId: string | null, currency: string): Promise<{ cohort: string; key: string; subscribers: number; revenue: number }[]> {
  const network = scope.networkId ? sql`AND network_id = ${scope.networkId}::uuid` : sql``;
  // Inside the CTE that defines f: the column unqualified (issue 27: `f.plan_id` there was a 500).
  const plan = planId ? sql`AND plan_id = ${planId}::uuid` : sql``;
  // Cohorts are the site's months; the range ends at the end of its last day in the site's zone.
  const timeZone = await siteTimeZone(db, scope.siteId);
  const end = siteDayEnd(scope.to, timeZone);
  return rowsOf(await db.execute(sql`
    WITH firsts AS (
      SELECT DISTINCT ON (subscriber_id) subscriber_id, plan_id, date_trunc('month', started_at AT TIME ZONE ${timeZone}::text)::date AS cohort
      FROM subscriptions WHERE site_id = ${scope.siteId}::uuid ${network}
        AND subscriber_id IN (${cohortSubscribers(scope, network, sql`${timeZone}::text`)})
      ORDER BY subscriber_id, started_at, id
    ), f AS (
      -- Issue 38: only the cohort's viewers billed in this currency (a subscription or a charge in it by the range's
      -- end) divide its revenue; a viewer billed in two currencies counts in each.
      SELECT * FROM firsts WHERE cohort >= date_trunc('month', ${scope.from}::date)::date AND cohort <= ${scope.to}::date ${plan}
        AND (EXISTS (SELECT 1 FROM subscriptions s WHERE s.subscriber_id = firsts.subscriber_id AND s.site_id = ${scope.siteId}::uuid
                       AND s.currency = ${currency} AND s.started_at < ${end})
          OR EXISTS (SELECT 1 FROM payments p WHERE p.subscriber_id = firsts.subscriber_id AND p.site_id = ${scope.siteId}::uuid
                       AND p.currency = ${currency} AND p.at < ${end}))
    )
    SELECT to_char(f.cohort, 'YYYY-MM') AS cohort, f.plan_id::text AS key, count(*)::float8 AS subscribers,
      coalesce(sum(p.net), 0)::float8 AS revenue
    FROM f LEFT JOIN LATERAL (
      SELECT sum(CASE WHEN status = 'succeeded' OR refunded_amount > 0 THEN amount - refunded_amount ELSE 0 END) AS net
      FROM payments WHERE subscriber_id = f.subscriber_id AND site_id = ${scope.siteId}::uuid AND currency = ${currency}
        AND at < ${end}
    ) p ON true
    GROUP BY 1, 2 ORDER BY 1, 2`));
}

/** Currencies with payments of the site in the range, most revenue first. */
export async function currenciesOf(db: Db, scope: ReportScope): Promise<string[]> {
  const rows = rowsOf<{ currency: string }>(await db.execute(sql`
    SELECT currency FROM daily_payment_rollups WHERE ${scopeFilter(scope)}
    GROUP BY currency ORDER BY sum(amount) DESC, currency`));
  return rows.map((r) => r.currency);
}

/** The columns of a LiveSessionRow (the real-time reports' filtered path reads them too: server/db/qoe-repository.ts). */
export const LIVE_SESSION_COLUMNS = sql.raw(`content_id::text AS "contentId", subscriber_id::text AS "subscriberId",
  to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "startedAt",
  to_char(coalesce(ended_at, last_event_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "lastEventAt",
  startup_ms::float8 AS "startupMs", watched_seconds::float8 AS "watchedSeconds",
  rebuffer_seconds::float8 AS "rebufferSeconds", error_code AS "errorCode"`);

/**
 * Real-time reports: playback sessions with an event in the last `minutes` minutes (the only read of
 * raw sessions; bounded by the index on (site_id, started_at) and the window).
 */
export async function liveSessions(db: Db, input: { siteId: string; networkId: string | null; since: Date; device: string | null; country: string | null; content: string | null }): Promise<LiveSessionRow[]> {
  const parts = [sql`site_id = ${input.siteId}::uuid`, sql`last_event_at >= ${input.since.toISOString()}::timestamptz`,
    // A session seen in the window started at most a day before it (players end longer ones).
    sql`started_at >= ${new Date(input.since.getTime() - 86_400_000).toISOString()}::timestamptz`];
  if (input.networkId) parts.push(sql`network_id = ${input.networkId}::uuid`);
  if (input.device) parts.push(sql`device_type = ${input.device}`);
  if (input.country) parts.push(sql`country = ${input.country}`);
  if (input.content) parts.push(sql`content_id = ${input.content}::uuid`);
  return rowsOf<LiveSessionRow>(await db.execute(sql`
    SELECT ${LIVE_SESSION_COLUMNS} FROM playback_sessions WHERE ${sql.join(parts, sql` AND `)}`));
}

export async function networkIdOf(db: Db, siteId: string, identifier: string): Promise<string | null> {
  const rows = rowsOf<{ id: string }>(await db.execute(sql`
    SELECT id::text AS id FROM networks WHERE site_id = ${siteId}::uuid AND identifier = ${identifier} LIMIT 1`));
  return rows[0]?.id ?? null;
}

export async function contentInfo(db: Db, siteId: string, ids: string[]): Promise<Map<string, ContentInfo>> {
  const uuids = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (uuids.length === 0) return new Map();
  const rows = rowsOf<ContentInfo>(await db.execute(sql`
    SELECT id::text AS id, title, kind, genre, duration_seconds::float8 AS "durationSeconds" FROM content_items
    WHERE site_id = ${siteId}::uuid AND id = ANY(${`{${uuids.join(',')}}`}::uuid[])`));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The site's plans by name, for the plan filter. */
export async function planOptions(db: Db, siteId: string): Promise<{ value: string; label: string }[]> {
  return rowsOf(await db.execute(sql`
    SELECT id::text AS value, name AS label FROM plans WHERE site_id = ${siteId}::uuid ORDER BY name, id`));
}

/**
 * The titles with the most sessions in the scope (from the content rollups), plus `include` when it
 * is one of the site's titles (a link filtered on a title outside the top keeps its label).
 */
export async function contentOptions(db: Db, scope: ReportScope, limit: number, include: string | null): Promise<{ value: string; label: string }[]> {
  const extra = include && /^[0-9a-f-]{36}$/i.test(include) ? sql`UNION SELECT ${include}::uuid AS id, 0` : sql``;
  return rowsOf(await db.execute(sql`
    WITH top AS (
      (SELECT dim_key::uuid AS id, sum(sessions) AS n FROM daily_playback_rollups
        WHERE ${scopeFilter(scope)} AND dimension = 'content' GROUP BY dim_key ORDER BY n DESC, dim_key LIMIT ${limit})
      ${extra}
    )
    SELECT c.id::text AS value, c.title AS label FROM top JOIN content_items c ON c.id = top.id AND c.site_id = ${scope.siteId}::uuid
    ORDER BY c.title, c.id`));
}

export async function planNames(db: Db, siteId: string): Promise<Map<string, string>> {
  const rows = rowsOf<{ id: string; name: string }>(await db.execute(sql`
    SELECT id::text AS id, name FROM plans WHERE site_id = ${siteId}::uuid`));
  return new Map(rows.map((r) => [r.id, r.name]));
}

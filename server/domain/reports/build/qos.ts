/**
 * Quality of service: qos (by period or by a breakdown), qos_video_level_report (by title) and
 * qos_bucket_metric_report (the share of sessions in each startup-time bucket).
 *
 * Issue 41: qos takes a filter set of session dimensions (`f`) and breaks down by any of them. An
 * answer the rollups keep (no `f`; by period, device, country, ISP, CDN or title) is read from them;
 * any other is counted from raw playback sessions (ReportContext.qoe, server/db/qoe-repository.ts)
 * into the same sums and histograms, so both give the same figures (server/qoe-report.test.ts).
 */
import { STARTUP_MS_BUCKETS } from '../../../../common/constants';
import { isQoeDimension, qoeDimensionLabel, type QoeDimension, type QoeFilter } from '../../../../common/qoe';
import { daysBetween, type QosBreakdown, type ReportFilter } from '../../../../common/reports';
import { siteDaySpan } from '../../../../common/site-day';
import type { QoeSelection } from '../../../qoe-shapes';
import { isNamedDimension, qoeValueLabel } from '../../qoe-labels';
import { reportParamError } from '../params';
import type { PlaybackSums, QoeReads } from '../reads';
import { histogramQuantile, ratio, round } from '../stats';
import { playbackMeasures, playbackSeries, playbackSeriesOf } from './playback';
import { addSums, col, emptySums, fig, percent, pickKeys, scopeOf, type ReportBody, type ReportContext } from './shared';

const QOS_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('startupAvgMs', 'Startup avg (ms)', 'ms'),
  fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms'),
  fig('rebufferPct', 'Rebuffer ratio (%)', 'percent'), fig('rebufferP50Pct', 'Rebuffer p50 (%)', 'percent'),
  fig('rebufferP95Pct', 'Rebuffer p95 (%)', 'percent'), fig('errorPct', 'Error sessions (%)', 'percent'),
  fig('bitrateKbps', 'Bitrate avg (kbps)', 'kbps'),
];

/** The QoS report's breakdowns the rollups keep, by the `by` that asks for them (`title` is `content`'s QoE name). */
const ROLLUP_BREAKDOWN: Readonly<Record<string, QosBreakdown>> = { device: 'device', country: 'country', isp: 'isp', cdn: 'cdn', content: 'content', title: 'content' };
/** The session dimension of each report filter (a report filter is one included value of it). */
const FILTER_DIMENSION: Record<ReportFilter, QoeDimension> = { device: 'device', country: 'country', content: 'title', plan: 'plan' };
const SHARE = fig('sharePct', 'Share of sessions (%)', 'percent', 'sessionSharePct');

export async function qos(ctx: ReportContext): Promise<ReportBody> {
  const by = ctx.params.by ?? 'period';
  const raw = (ctx.params.qoeFilters ?? []).length > 0;
  if (by === 'period') return raw ? qosSeriesRaw(ctx) : playbackSeries(ctx, pickKeys(QOS_COLUMNS), QOS_COLUMNS);
  const rollup = ROLLUP_BREAKDOWN[by];
  if (rollup && !raw) return qosByKey(ctx, rollup);
  const dimension = by === 'content' ? 'title' : by;
  if (!isQoeDimension(dimension)) throw reportParamError(`by: ${by} is not a breakdown of qos`);
  return qosByKeyRaw(ctx, dimension);
}

/** Rollup rows always count at least one session (each is a group of sessions), so no row is empty. */
export async function qosByKey(ctx: ReportContext, dimension: QosBreakdown, share = true): Promise<ReportBody> {
  const filter = ctx.params.filter;
  if (filter && filter.name !== dimension) throw reportParamError(`${filter.name}: cannot be combined with by=${dimension}; filter on the breakdown's own dimension`);
  const rows = await ctx.reads.playbackByKey(scopeOf(ctx), dimension, filter?.value ?? null);
  const info = dimension === 'content' ? await ctx.reads.contentInfo(ctx.siteId, rows.map((r) => r.key)) : new Map<string, { title: string }>();
  const names = new Map([...info].map(([id, item]) => [id, item.title]));
  const qoeDimension = dimension === 'content' ? 'title' : dimension;
  return breakdown(ctx, dimension, rows.map((r) => ({ value: r.key, label: qoeValueLabel(qoeDimension, r.key, names), sums: r })), share);
}

/**
 * One row per value of a dimension, most sessions first (then by value), with its share of the
 * sessions of every row (`share` false: neither); `value` (not a column) is the dimension's stored value, so a page can filter
 * on the row or open the views behind it.
 */
function breakdown(ctx: ReportContext, by: string, rows: { value: string; label: string; sums: PlaybackSums }[], share = true): ReportBody {
  const days = daysBetween(ctx.params.from, ctx.params.to);
  const pick = pickKeys(QOS_COLUMNS);
  const total = rows.reduce((acc, r) => addSums(acc, r.sums), emptySums());
  const sorted = [...rows].sort((a, b) => b.sums.sessions - a.sums.sessions || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  // qos_video_level_report (one row per title) keeps its columns: no share, no value.
  if (!share) {
    return { columns: [col('key', dimensionLabel(by), 'text'), ...QOS_COLUMNS], rows: sorted.map((r) => ({ key: r.label, ...pick(playbackMeasures(r.sums, days)) })), totals: pick(playbackMeasures(total, days)) };
  }
  return {
    columns: [col('key', dimensionLabel(by), 'text'), ...QOS_COLUMNS, SHARE],
    rows: sorted.map((r) => ({
      key: r.label, value: r.value, ...pick(playbackMeasures(r.sums, days)), sharePct: round(percent(ratio(r.sums.sessions, total.sessions)), 2),
    })),
    totals: { ...pick(playbackMeasures(total, days)), sharePct: total.sessions > 0 ? 100 : null },
  };
}

/** The filter set of the raw answer: `f` and the report filter, if any (one included value). */
function sessionFilters(ctx: ReportContext): QoeFilter[] {
  const filter = ctx.params.filter;
  const own = ctx.params.qoeFilters ?? [];
  return filter ? [...own, { dimension: FILTER_DIMENSION[filter.name], exclude: false, values: [filter.value] }] : own;
}

/** The raw sessions the report counts: started within the range's site days, on the network, under the filters. */
async function selectionOf(ctx: ReportContext): Promise<{ qoe: QoeReads; selection: QoeSelection; zone: string }> {
  const qoe = ctx.qoe;
  if (!qoe) throw new Error('qos: the raw session reads (ReportContext.qoe) were not handed in');
  const zone = await qoe.siteTimeZone(ctx.siteId);
  const from = siteDaySpan(ctx.params.from, zone);
  const to = siteDaySpan(ctx.params.to, zone);
  if (!from || !to) throw reportParamError('from: must be a day as YYYY-MM-DD');
  return { qoe, zone, selection: { siteId: ctx.siteId, networkId: ctx.networkId, filters: sessionFilters(ctx), since: new Date(from.start), until: new Date(to.end), select: 'started' } };
}

async function qosSeriesRaw(ctx: ReportContext): Promise<ReportBody> {
  const { qoe, selection, zone } = await selectionOf(ctx);
  const days = await qoe.sums(selection, { dayZone: zone });
  return playbackSeriesOf(ctx, days, pickKeys(QOS_COLUMNS), QOS_COLUMNS);
}

async function qosByKeyRaw(ctx: ReportContext, dimension: QoeDimension): Promise<ReportBody> {
  const { qoe, selection } = await selectionOf(ctx);
  const rows = await qoe.sums(selection, { by: dimension });
  const names = isNamedDimension(dimension) ? await qoe.names(ctx.siteId, dimension, rows.map((r) => r.key)) : new Map<string, string>();
  return breakdown(ctx, ctx.params.by ?? dimension, rows.map((r) => ({ value: r.key, label: qoeValueLabel(dimension, r.key, names), sums: r })));
}

/** The key column's label: the rollup breakdowns keep their words, every other dimension its QoE label. */
function dimensionLabel(by: string): string {
  const own: Record<string, string> = { device: 'Device', country: 'Country', isp: 'ISP', cdn: 'CDN', content: 'Title', title: 'Title' };
  return own[by] ?? (isQoeDimension(by) ? qoeDimensionLabel(by) : by);
}

function bucketLabels(bounds: readonly number[], format: (n: number) => string): string[] {
  return [`< ${format(bounds[0]!)}`, ...bounds.slice(1).map((b, i) => `${format(bounds[i]!)}–${format(b)}`), `≥ ${format(bounds[bounds.length - 1]!)}`];
}

export async function qosBuckets(ctx: ReportContext): Promise<ReportBody> {
  const dimension = (ctx.params.by ?? 'device') as QosBreakdown;
  const rows = await ctx.reads.playbackByKey(scopeOf(ctx), dimension, null);
  const labels = bucketLabels(STARTUP_MS_BUCKETS, (ms) => `${ms / 1000} s`);
  const bucketColumns = labels.map((label, i) => fig(`b${i}`, `Startup ${label} (%)`, 'percent', 'startupBucketPct'));
  const measure = (counts: number[], sessions: number): Record<string, number | null> => ({
    sessions,
    ...Object.fromEntries(labels.map((_, i) => [`b${i}`, round(percent(ratio(counts[i] ?? 0, sessions)), 1)])),
    startupP50Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.95), 0),
  });
  const total = rows.reduce((acc, r) => addSums(acc, r), emptySums());
  return {
    columns: [col('key', dimensionLabel(dimension), 'text'), fig('sessions', 'Sessions', 'count'), ...bucketColumns,
      fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms')],
    rows: rows.sort((a, b) => b.sessions - a.sessions).map((r) => ({ key: r.key, ...measure(r.startupHistogram, r.sessions) })),
    totals: measure(total.startupHistogram, total.sessions),
  };
}

/**
 * Quality of service: qos (by period or by a breakdown), qos_video_level_report (by title) and
 * qos_bucket_metric_report (the share of sessions in each startup-time bucket).
 */
import { STARTUP_MS_BUCKETS } from '../../../../common/constants';
import { daysBetween, type QosBreakdown } from '../../../../common/reports';
import { reportParamError } from '../params';
import { histogramQuantile, ratio, round } from '../stats';
import { playbackMeasures, playbackSeries } from './playback';
import { addSums, col, emptySums, fig, percent, pickKeys, scopeOf, type ReportBody, type ReportContext } from './shared';

const QOS_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('startupAvgMs', 'Startup avg (ms)', 'ms'),
  fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms'),
  fig('rebufferPct', 'Rebuffer ratio (%)', 'percent'), fig('rebufferP50Pct', 'Rebuffer p50 (%)', 'percent'),
  fig('rebufferP95Pct', 'Rebuffer p95 (%)', 'percent'), fig('errorPct', 'Error sessions (%)', 'percent'),
  fig('bitrateKbps', 'Bitrate avg (kbps)', 'kbps'),
];

/** A breakdown row's label: the title for content (its key is the content id), else the key itself. */
async function labelsFor(ctx: ReportContext, dimension: QosBreakdown, keys: string[]): Promise<(key: string) => string> {
  if (dimension !== 'content') return (key) => key;
  const info = await ctx.reads.contentInfo(ctx.siteId, keys);
  return (key) => info.get(key)?.title ?? 'Removed title';
}

export async function qos(ctx: ReportContext): Promise<ReportBody> {
  const by = ctx.params.by ?? 'period';
  if (by === 'period') return playbackSeries(ctx, pickKeys(QOS_COLUMNS), QOS_COLUMNS);
  return qosByKey(ctx, by as QosBreakdown);
}

/** Rollup rows always count at least one session (each is a group of sessions), so no row is empty. */
export async function qosByKey(ctx: ReportContext, dimension: QosBreakdown): Promise<ReportBody> {
  const filter = ctx.params.filter;
  if (filter && filter.name !== dimension) throw reportParamError(`${filter.name}: cannot be combined with by=${dimension}; filter on the breakdown's own dimension`);
  const rows = await ctx.reads.playbackByKey(scopeOf(ctx), dimension, filter?.value ?? null);
  const label = await labelsFor(ctx, dimension, rows.map((r) => r.key));
  const days = daysBetween(ctx.params.from, ctx.params.to);
  const pick = pickKeys(QOS_COLUMNS);
  const total = rows.reduce((acc, r) => addSums(acc, r), emptySums());
  return {
    columns: [col('key', dimensionLabel(dimension), 'text'), ...QOS_COLUMNS],
    rows: rows.sort((a, b) => b.sessions - a.sessions).map((r) => ({ key: label(r.key), ...pick(playbackMeasures(r, days)) })),
    totals: pick(playbackMeasures(total, days)),
  };
}

function dimensionLabel(dimension: QosBreakdown): string {
  return ({ device: 'Device', country: 'Country', isp: 'ISP', cdn: 'CDN', content: 'Title' } satisfies Record<QosBreakdown, string>)[dimension];
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

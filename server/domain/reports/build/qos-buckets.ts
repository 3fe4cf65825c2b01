/**
 * qos_bucket_metric_report: the share of sessions in each startup-time bucket, per value of a
 * breakdown. Issue 41: by any session dimension and under a filter set `f` (session-filters.ts: the
 * rollups answer device, country, ISP and CDN without `f`, raw sessions everything else).
 */
import { STARTUP_MS_BUCKETS } from '../../../../common/constants';
import { histogramQuantile, ratio, round } from '../stats';
import { breakdownLabel, bySessions, sumsByValue } from './session-filters';
import { addSums, col, emptySums, fig, percent, type ReportBody, type ReportContext } from './shared';

function bucketLabels(bounds: readonly number[], format: (n: number) => string): string[] {
  return [`< ${format(bounds[0]!)}`, ...bounds.slice(1).map((b, i) => `${format(bounds[i]!)}–${format(b)}`), `≥ ${format(bounds[bounds.length - 1]!)}`];
}

export async function qosBuckets(ctx: ReportContext): Promise<ReportBody> {
  const by = ctx.params.by ?? 'device';
  const rows = await sumsByValue(ctx, by);
  const labels = bucketLabels(STARTUP_MS_BUCKETS, (ms) => `${ms / 1000} s`);
  const bucketColumns = labels.map((label, i) => fig(`b${i}`, `Startup ${label} (%)`, 'percent', 'startupBucketPct'));
  const measure = (counts: number[], sessions: number): Record<string, number | null> => ({
    sessions,
    ...Object.fromEntries(labels.map((_, i) => [`b${i}`, round(percent(ratio(counts[i] ?? 0, sessions)), 1)])),
    startupP50Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.95), 0),
  });
  const total = rows.reduce((acc, r) => addSums(acc, r.sums), emptySums());
  return {
    columns: [col('key', breakdownLabel(by), 'text'), fig('sessions', 'Sessions', 'count'), ...bucketColumns,
      fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms')],
    rows: [...rows].sort(bySessions).map((r) => ({ key: r.label, ...measure(r.sums.startupHistogram, r.sums.sessions) })),
    totals: measure(total.startupHistogram, total.sessions),
  };
}

/**
 * Quality of service: qos (by period or by a breakdown) and qos_video_level_report (by title);
 * qos_bucket_metric_report is in qos-buckets.ts.
 *
 * Issue 41: both take a filter set of session dimensions (`f`) and qos breaks down by any of them. An
 * answer the rollups keep (no `f`; by period, device, country, ISP, CDN or title) is read from them;
 * any other is counted from raw playback sessions (session-filters.ts) into the same sums and
 * histograms, so both give the same figures (server/qoe-routes.test.ts, server/qoe-report-filters.test.ts).
 */
import { daysBetween } from '../../../../common/reports';
import { ratio, round } from '../stats';
import { playbackMeasures } from './playback';
import { breakdownLabel, bySessions, playbackSeriesFor, sumsByValue, type ValueSums } from './session-filters';
import { addSums, col, emptySums, fig, percent, pickKeys, type ReportBody, type ReportContext } from './shared';

const QOS_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('startupAvgMs', 'Startup avg (ms)', 'ms'),
  fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms'),
  fig('rebufferPct', 'Rebuffer ratio (%)', 'percent'), fig('rebufferP50Pct', 'Rebuffer p50 (%)', 'percent'),
  fig('rebufferP95Pct', 'Rebuffer p95 (%)', 'percent'), fig('errorPct', 'Error sessions (%)', 'percent'),
  fig('bitrateKbps', 'Bitrate avg (kbps)', 'kbps'),
];
const SHARE = fig('sharePct', 'Share of sessions (%)', 'percent', 'sessionSharePct');

export async function qos(ctx: ReportContext): Promise<ReportBody> {
  const by = ctx.params.by ?? 'period';
  if (by === 'period') return playbackSeriesFor(ctx, pickKeys(QOS_COLUMNS), QOS_COLUMNS);
  return breakdown(ctx, by, await sumsByValue(ctx, by));
}

/** qos_video_level_report: one row per title, the QoS columns without a share. */
export async function qosByTitle(ctx: ReportContext): Promise<ReportBody> {
  return breakdown(ctx, 'content', await sumsByValue(ctx, 'content'), false);
}

/**
 * One row per value of a dimension, most sessions first (then by value), with its share of the
 * sessions of every row (`share` false: neither); `value` (not a column) is the dimension's stored value, so a page can filter
 * on the row or open the views behind it.
 */
function breakdown(ctx: ReportContext, by: string, rows: ValueSums[], share = true): ReportBody {
  const days = daysBetween(ctx.params.from, ctx.params.to);
  const pick = pickKeys(QOS_COLUMNS);
  const total = rows.reduce((acc, r) => addSums(acc, r.sums), emptySums());
  const sorted = [...rows].sort(bySessions);
  // qos_video_level_report (one row per title) keeps its columns: no share, no value.
  if (!share) {
    return { columns: [col('key', breakdownLabel(by), 'text'), ...QOS_COLUMNS], rows: sorted.map((r) => ({ key: r.label, ...pick(playbackMeasures(r.sums, days)) })), totals: pick(playbackMeasures(total, days)) };
  }
  return {
    columns: [col('key', breakdownLabel(by), 'text'), ...QOS_COLUMNS, SHARE],
    rows: sorted.map((r) => ({
      key: r.label, value: r.value, ...pick(playbackMeasures(r.sums, days)), sharePct: round(percent(ratio(r.sums.sessions, total.sessions)), 2),
    })),
    totals: { ...pick(playbackMeasures(total, days)), sharePct: total.sessions > 0 ? 100 : null },
  };
}

/**
 * The playback measures of a slice (sessions, watch time, startup, rebuffering, errors, bitrate) and
 * their series over the periods of the range: shared by user_behavior (engagement) and qos.
 */
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS, type PlaybackDimension } from '../../../../common/constants';
import { daysBetween, type ReportColumn } from '../../../../common/reports';
import type { PlaybackSums } from '../reads';
import type { ParsedReportParams } from '../params';
import { histogramQuantile, periodOf, periodsOf, ratio, round } from '../stats';
import { PERIOD, addSums, emptySums, percent, scopeOf, type ReportBody, type ReportContext } from './shared';

/** Playback measures of a slice; `days` turns summed daily viewers into an average per day. */
export function playbackMeasures(s: PlaybackSums, days: number): Record<string, number | null> {
  return {
    sessions: s.sessions,
    viewers: round(s.viewers / Math.max(days, 1), 1),
    watchHours: round(s.watchedSeconds / 3600, 1),
    avgMinutes: round(ratio(s.watchedSeconds / 60, s.sessions), 1),
    startupAvgMs: round(ratio(s.startupMsSum, s.sessions), 0),
    startupP50Ms: round(histogramQuantile(s.startupHistogram, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: round(histogramQuantile(s.startupHistogram, STARTUP_MS_BUCKETS, 0.95), 0),
    rebufferPct: round(percent(ratio(s.rebufferSeconds, s.watchedSeconds + s.rebufferSeconds)), 2),
    rebufferP50Pct: round(percent(histogramQuantile(s.rebufferHistogram, REBUFFER_RATIO_BUCKETS, 0.5)), 2),
    rebufferP95Pct: round(percent(histogramQuantile(s.rebufferHistogram, REBUFFER_RATIO_BUCKETS, 0.95)), 2),
    errorPct: round(percent(ratio(s.errorSessions, s.sessions)), 2),
    bitrateKbps: round(ratio(s.bitrateKbpsSum, s.sessions), 0),
  };
}

/** The playback slice a filter selects ('all' without one). */
function slice(params: ParsedReportParams): { dimension: PlaybackDimension; key: string } {
  return params.filter ? { dimension: params.filter.name, key: params.filter.value } : { dimension: 'all', key: '' };
}

export async function playbackSeries(ctx: ReportContext, pick: (m: Record<string, number | null>) => Record<string, number | null>, columns: ReportColumn[]): Promise<ReportBody> {
  const { dimension, key } = slice(ctx.params);
  const days = await ctx.reads.playbackByDay(scopeOf(ctx), dimension, key);
  const byPeriod = new Map<string, PlaybackSums>();
  const total = emptySums();
  for (const day of days) {
    const period = periodOf(day.day, ctx.params.granularity);
    byPeriod.set(period, addSums(byPeriod.get(period) ?? emptySums(), day));
    addSums(total, day);
  }
  if (total.sessions === 0) return { columns: [PERIOD, ...columns], rows: [], totals: pick(playbackMeasures(total, 1)) };
  const rows = periodsOf(ctx.params.from, ctx.params.to, ctx.params.granularity).map(({ period, days: n }) => ({
    period, ...pick(playbackMeasures(byPeriod.get(period) ?? emptySums(), n)),
  }));
  return { columns: [PERIOD, ...columns], rows, totals: pick(playbackMeasures(total, daysBetween(ctx.params.from, ctx.params.to))) };
}

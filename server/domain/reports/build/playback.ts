/**
 * The playback measures of a slice (sessions, watch time, startup, rebuffering, errors, bitrate) and
 * their series over the periods of the range: shared by user_behavior (engagement) and qos.
 */
import type { PlaybackDimension } from '../../../../common/constants';
import { playbackMeasures } from '../../../../common/playback-measures';
import { daysBetween, type ReportColumn } from '../../../../common/reports';
import type { PlaybackSums } from '../reads';
import type { ParsedReportParams } from '../params';
import { periodOf, periodsOf } from '../stats';
import { PERIOD, addSums, emptySums, scopeOf, type ReportBody, type ReportContext } from './shared';

export { playbackMeasures };

/** The playback slice a filter selects ('all' without one). */
function slice(params: ParsedReportParams): { dimension: PlaybackDimension; key: string } {
  return params.filter ? { dimension: params.filter.name, key: params.filter.value } : { dimension: 'all', key: '' };
}

export async function playbackSeries(ctx: ReportContext, pick: (m: Record<string, number | null>) => Record<string, number | null>, columns: ReportColumn[]): Promise<ReportBody> {
  const { dimension, key } = slice(ctx.params);
  return playbackSeriesOf(ctx, await ctx.reads.playbackByDay(scopeOf(ctx), dimension, key), pick, columns);
}

/** The series over the range's periods of playback sums per site day (from the rollups or counted from raw sessions). */
export function playbackSeriesOf(ctx: ReportContext, days: readonly (PlaybackSums & { day: string })[], pick: (m: Record<string, number | null>) => Record<string, number | null>, columns: ReportColumn[]): ReportBody {
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

/**
 * The arithmetic of the playback figures (common/figures.ts), shared by the reports built from the
 * daily rollups (server/domain/reports) and the QoE engine over raw sessions (server/db/qoe-repository.ts,
 * issue 41): both count sessions into the same sums and the same fixed-bucket histograms
 * (STARTUP_MS_BUCKETS, REBUFFER_RATIO_BUCKETS), and read every figure from them here, so a filtered
 * figure and an unfiltered one are the same figure. Nothing here touches I/O.
 */
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from './constants';
import type { QoeMetricKey } from './qoe';

/** What a set of playback sessions adds up to (a rollup row, or raw sessions counted the same way). */
export interface PlaybackSumsLike {
  sessions: number;
  /** Summed distinct viewers (of each day, for rollups). */
  viewers: number;
  watchedSeconds: number;
  startupMsSum: number;
  rebufferCount: number;
  rebufferSeconds: number;
  errorSessions: number;
  bitrateKbpsSum: number;
  /** Session counts per STARTUP_MS_BUCKETS bucket (bucket 0: below the first bound). */
  startupHistogram: number[];
  /** Session counts per REBUFFER_RATIO_BUCKETS bucket. */
  rebufferHistogram: number[];
}

/**
 * The q-quantile (0 < q < 1) of values counted in buckets with ascending `bounds` (bucket 0 holds
 * values below bounds[0], the last bucket values at or above the last bound): linear within the
 * bucket that holds it, from 0 for the first bucket. A quantile in the open last bucket is reported
 * as its lower bound (a floor: "at least 8 s"). null when there are no counts.
 */
export function histogramQuantile(counts: readonly number[], bounds: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i] ?? 0;
    if (n > 0 && seen + n >= rank) {
      if (i >= bounds.length) return bounds[bounds.length - 1] ?? null;
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      const upper = bounds[i]!;
      return lower + ((rank - seen) / n) * (upper - lower);
    }
    seen += n;
  }
  return bounds[bounds.length - 1] ?? null;
}

/**
 * The bucket of a value among ascending bounds, as PostgreSQL's width_bucket(value, bounds) counts
 * it (the rollups' SQL): 0 below bounds[0], i for bounds[i-1] <= value < bounds[i], bounds.length at
 * or above the last bound.
 */
export function bucketOf(value: number, bounds: readonly number[]): number {
  let i = 0;
  while (i < bounds.length && value >= bounds[i]!) i++;
  return i;
}

/** A session's rebuffer ratio (0 when it has neither watched nor rebuffered seconds). */
export function rebufferRatioOf(rebufferSeconds: number, watchedSeconds: number): number {
  const total = watchedSeconds + rebufferSeconds;
  return total > 0 ? rebufferSeconds / total : 0;
}

export const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
export const round = (value: number | null, digits = 2): number | null =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;
export const percent = (value: number | null): number | null => (value === null ? null : value * 100);

/** Playback measures of a slice (report column keys); `days` turns summed daily viewers into an average per day. */
export function playbackMeasures(s: PlaybackSumsLike, days: number): Record<string, number | null> {
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

/**
 * The QoE metrics (common/qoe.ts QOE_METRICS) of a set of sessions: the same arithmetic as the
 * reports' columns; `distinctViewers` is the number of distinct viewers of the whole set (the
 * qoeViewers figure), not a daily average.
 */
export function qoeMeasures(s: PlaybackSumsLike, distinctViewers: number): Record<QoeMetricKey, number | null> {
  const m = playbackMeasures(s, 1);
  return {
    sessions: s.sessions,
    viewers: distinctViewers,
    watchHours: m.watchHours ?? null,
    startupP50Ms: m.startupP50Ms ?? null,
    startupP95Ms: m.startupP95Ms ?? null,
    rebufferPct: m.rebufferPct ?? null,
    rebufferP95Pct: m.rebufferP95Pct ?? null,
    errorPct: m.errorPct ?? null,
    bitrateKbps: m.bitrateKbps ?? null,
  };
}

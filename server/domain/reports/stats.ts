/**
 * Percentiles from the rollups' fixed-bucket histograms, and the period buckets of a date range.
 */
import type { Granularity } from '../../../common/reports';
import { addDays } from '../../../common/reports';

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

export function addCounts(into: number[], more: readonly number[]): number[] {
  for (let i = 0; i < more.length; i++) into[i] = (into[i] ?? 0) + (more[i] ?? 0);
  return into;
}

/** The period a day belongs to: the day, the Monday of its ISO week, or its month (YYYY-MM). */
export function periodOf(day: string, granularity: Granularity): string {
  if (granularity === 'month') return day.slice(0, 7);
  if (granularity === 'week') {
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    return addDays(day, -weekday);
  }
  return day;
}

/** Every period of [from, to] in order, and the days each one covers inside the range. */
export function periodsOf(from: string, to: string, granularity: Granularity): { period: string; days: number }[] {
  const out: { period: string; days: number }[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const period = periodOf(day, granularity);
    const last = out[out.length - 1];
    if (last?.period === period) last.days += 1;
    else out.push({ period, days: 1 });
  }
  return out;
}

export const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
export const round = (value: number | null, digits = 2): number | null =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

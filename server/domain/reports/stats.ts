/**
 * Percentiles from the rollups' fixed-bucket histograms, and the period buckets of a date range.
 */
import type { Granularity } from '../../../common/reports';
import { addDays } from '../../../common/reports';

// The quantile of fixed buckets and the ratios live in common/ (issue 41): the QoE engine over raw
// sessions (server/db/qoe-repository.ts) reads its figures with the very same arithmetic.
export { histogramQuantile, ratio, round } from '../../../common/playback-measures';

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


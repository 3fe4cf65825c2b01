/**
 * The analytics filters' granularities, filters, date presets and UTC day arithmetic (re-exported by
 * reports.ts): small enough for the sign-in page's first load, where the router validates search params.
 */
export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Filters a report may support; one at a time, since each playback rollup row has one dimension. */
export const REPORT_FILTERS = ['device', 'country', 'content', 'plan'] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

/** Date presets of the filter bar, in days. */
export const DATE_PRESETS = [7, 30, 90] as const;

/** The UTC calendar day of a date, YYYY-MM-DD. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDay(d);
}

/** Inclusive number of days from `from` to `to` (1 when equal). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The default range: the last `days` days ending today (UTC). */
export function presetRange(days: number, today: string): { from: string; to: string } {
  return { from: addDays(today, -(days - 1)), to: today };
}

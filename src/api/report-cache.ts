/**
 * The reports' answer cache (src/api/reports.ts), apart so that writers can drop it (a refund, an
 * Undo: issue 38) without loading the reports' catalogue into the sign-in page's first load.
 */
import type { ReportAnswer } from '../../common/reports';

export interface CachedReport { answer: ReportAnswer; at: number }

/** Answers by the exact request URL. */
export const reportCache = new Map<string, CachedReport>();
/**
 * Requests on their way, by URL: a page that asks for a report already asked for (the landing's data,
 * requested as soon as the session is stored: issue 26) waits for that answer instead of asking again.
 */
export const reportsInFlight = new Map<string, Promise<ReportAnswer>>();

/** Drops every cached answer (sign-out, a write that moves the figures, tests). */
export function clearReportCache(): void {
  reportCache.clear();
  reportsInFlight.clear();
}

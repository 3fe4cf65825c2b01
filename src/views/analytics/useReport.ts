/**
 * One report machine per page instance: the `report` page machine (src/page-actors.tsx) with the
 * Analytics wiring file's actors (src/adapters/report-actors.ts; view tests provide fakes through
 * PageLogicContext, src/test-harness/analytics-fixtures.tsx). The pages key their body by `requestKey`, so new filters in the URL start a new
 * machine and stop the old one (its request is aborted): no effect syncs the URL into a machine.
 */
import type { ReportActorRef, ReportRequest, SortState } from '../../../machines/report.machine';
import { siteDayOf } from '../../../common/site-day';
import { usePageActor } from '../../page-actors';
import { useSiteTimeZone } from '../shared/use-site-time-zone';

/** `sort`: the table's first order (from the URL); the machine keeps it, and the page, from then on. `share`: the count each row's share of the total is added for (issue 41). */
export function useReport(requests: ReportRequest[], realtime: boolean, sort?: SortState, share?: string): ReportActorRef {
  return usePageActor('report', { input: { requests, realtime, ...(sort && { sort }), ...(share && { share }) } });
}

/**
 * The site's today, 'YYYY-MM-DD' in its zone (issue 38): a report range's dates are the site's days,
 * like the server's (which counts days in the same zone), so "the last 7 days" ends on the site's today.
 */
export function useSiteToday(): string {
  return siteDayOf(new Date(), useSiteTimeZone());
}

/** The identity of a page's requests: a page body keyed by it gets a fresh machine when it changes. */
export function requestKey(requests: ReportRequest[]): string {
  return JSON.stringify(requests);
}

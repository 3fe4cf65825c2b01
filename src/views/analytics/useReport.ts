/**
 * One report machine per page instance: the `report` page machine (src/page-actors.tsx) with the
 * Analytics wiring file's actors (src/adapters/report-actors.ts; view tests provide fakes through
 * PageLogicContext, src/test-harness/analytics-fixtures.tsx). The pages key their body by `requestKey`, so new filters in the URL start a new
 * machine and stop the old one (its request is aborted): no effect syncs the URL into a machine.
 */
import type { ReportActorRef, ReportRequest, SortState } from '../../../machines/report.machine';
import { usePageActor } from '../../page-actors';

/** `sort`: the table's first order (from the URL); the machine keeps it, and the page, from then on. */
export function useReport(requests: ReportRequest[], realtime: boolean, sort?: SortState): ReportActorRef {
  return usePageActor('report', { input: { requests, realtime, ...(sort && { sort }) } });
}

/** The identity of a page's requests: a page body keyed by it gets a fresh machine when it changes. */
export function requestKey(requests: ReportRequest[]): string {
  return JSON.stringify(requests);
}

/**
 * One report machine per page instance, with the browser's actors (view tests provide fakes through
 * ReportLogicContext). The pages key their body by `requestKey`, so new filters in the URL start a new
 * machine and stop the old one (its request is aborted): no effect syncs the URL into a machine.
 */
import { useActorRef } from '@xstate/react';
import { createContext, useContext } from 'react';
import { reportMachine, type ReportActorRef, type ReportRequest, type SortState } from '../../../machines/report.machine';
import { reportActors } from '../../adapters/report-actors';

export const ReportLogicContext = createContext<typeof reportMachine>(reportMachine.provide({ actors: reportActors }));

/** `sort`: the table's first order (from the URL); the machine keeps it, and the page, from then on. */
export function useReport(requests: ReportRequest[], realtime: boolean, sort?: SortState): ReportActorRef {
  return useActorRef(useContext(ReportLogicContext), { input: { requests, realtime, ...(sort && { sort }) } });
}

/** The identity of a page's requests: a page body keyed by it gets a fresh machine when it changes. */
export function requestKey(requests: ReportRequest[]): string {
  return JSON.stringify(requests);
}

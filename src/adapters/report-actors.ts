/**
 * The real actors of the report machine (machines/report.machine.ts): the reports over the REST
 * client (its abort signal passed on) and the page visibility from the document; its CSV download.
 */
import { fromCallback, fromPromise } from 'xstate';
import { reportMachine, type FetchReportsInput, type ReportEvent } from '../../machines/report.machine';
import { CredentialsMissingError } from '../../machines/network.machine';
import type { ReportAnswer } from '../../common/reports';
import { fetchReport } from '../api/reports';
import { downloadCsv } from './download';
import { readNetworkCredentials } from './network-credentials';

export const fetchReportsActor = fromPromise<ReportAnswer[], FetchReportsInput>(async ({ input, signal }) => {
  const credentials = readNetworkCredentials();
  if (!credentials) throw new CredentialsMissingError();
  return Promise.all(input.requests.map((r) => fetchReport(r.report, r.params, { credentials, signal, fresh: input.fresh })));
});

/** page.hidden / page.visible from the document's visibility, starting with the current one. */
export const visibilityActor = fromCallback<ReportEvent>(({ sendBack }) => {
  const report = () => sendBack({ type: document.visibilityState === 'hidden' ? 'page.hidden' : 'page.visible' });
  if (document.visibilityState === 'hidden') report();
  document.addEventListener('visibilitychange', report);
  return () => document.removeEventListener('visibilitychange', report);
});

export const reportActors = { fetchReports: fetchReportsActor, visibility: visibilityActor };

/**
 * The Analytics area's wiring file (issue 26): the report page machine with its real actors, read by
 * src/adapters/page-logic.ts when an Analytics page first renders.
 */
export const analyticsPages = {
  report: reportMachine.provide({ actors: reportActors, actions: { downloadCsv } }),
};

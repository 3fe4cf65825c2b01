/**
 * The real actors of the report machine (machines/report.machine.ts): the reports over the REST
 * client (its abort signal passed on), the page visibility from the document and the other tabs' writes
 * (./write-signals.ts); its CSV download.
 */
import { fromCallback, fromPromise } from 'xstate';
import { reportMachine, type FetchReportsInput, type ReportEvent } from '../../machines/report.machine';
import { CredentialsMissingError } from '../../machines/network.machine';
import type { ReportAnswer } from '../../common/reports';
import { fetchReport } from '../api/reports';
import { downloadCsv } from './download';
import { readNetworkCredentials } from './network-credentials';
import { clearReportCache } from '../api/report-cache';
import { writeSignals, type WriteSignals } from './write-signals';

/**
 * Issue 38: answers cached before the last write any tab announced are not shown again. `seen` is the
 * last write this tab has already dropped its answers for (0: none yet, so the first read after a
 * write announced before this module loaded, the landing's prefetch, asks the server too).
 */
export function createStaleAnswerDrop(signals: Pick<WriteSignals, 'lastWriteAt'>, clear: () => void = clearReportCache) {
  let seen = 0;
  return (): void => {
    const last = signals.lastWriteAt();
    if (last <= seen) return;
    seen = last;
    clear();
  };
}

const dropStaleAnswers = createStaleAnswerDrop({ lastWriteAt: () => writeSignals().lastWriteAt() });

export const fetchReportsActor = fromPromise<ReportAnswer[], FetchReportsInput>(async ({ input, signal }) => {
  const credentials = readNetworkCredentials();
  if (!credentials) throw new CredentialsMissingError();
  dropStaleAnswers();
  return Promise.all(input.requests.map((r) => fetchReport(r.report, r.params, { credentials, signal, fresh: input.fresh })));
});

/** page.hidden / page.visible from the document's visibility, starting with the current one. */
export const visibilityActor = fromCallback<ReportEvent>(({ sendBack }) => {
  const report = () => sendBack({ type: document.visibilityState === 'hidden' ? 'page.hidden' : 'page.visible' });
  if (document.visibilityState === 'hidden') report();
  document.addEventListener('visibilitychange', report);
  return () => document.removeEventListener('visibilitychange', report);
});

/**
 * report.staleFromElsewhere for each write another tab announces; this tab's cached answers are dropped
 * first, so every report read after it (this page's refresh, the next page's) asks the server.
 */
export function writeSignalsActorOf(signals: Pick<WriteSignals, 'subscribe'>, clear: () => void = clearReportCache) {
  return fromCallback<ReportEvent>(({ sendBack }) => signals.subscribe((written) => {
    clear();
    sendBack({ type: 'report.staleFromElsewhere', kind: written.kind });
  }));
}

export const reportActors = {
  fetchReports: fetchReportsActor, visibility: visibilityActor,
  writeSignals: writeSignalsActorOf({ subscribe: (listener) => writeSignals().subscribe(listener) }),
};

/**
 * The Analytics area's wiring file (issue 26): the report page machine with its real actors, read by
 * src/adapters/page-logic.ts when an Analytics page first renders.
 */
export const analyticsPages = {
  report: reportMachine.provide({ actors: reportActors, actions: { downloadCsv } }),
};

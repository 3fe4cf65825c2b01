/**
 * The report machine's actions by name, on its setup (./report.setup.ts): `reportSetup` is what the
 * states (./report.state.*.ts) and the machine are built from.
 */
import { assign, raise } from 'xstate';
import type { ReportAnswer } from '../common/reports';
import { withShareColumn } from './qoe-share';
import { canRetry, clampedRequests, messageOf, reportBase, type ReportRequest, type SortState } from './report.setup';

export const reportSetup = reportBase.extend({
  actions: {
    assignRequests: assign({
      requests: ({ context }, params: { requests: ReportRequest[] }) => params.requests ?? context.requests,
    }),
    storeAnswers: assign({
      answers: ({ context }, params: { answers: ReportAnswer[] }) => (context.share ? params.answers.map((a) => withShareColumn(a, context.share!)) : params.answers),
      error: null,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error), retryable: (_, params: { error: unknown }) => canRetry(params.error) }),
    clampRanges: assign(({ context }) => clampedRequests(context.requests)),
    refreshNow: raise({ type: 'poll.tick' }),
    assignSort: assign((_, params: SortState) => ({ sort: { key: params.key, dir: params.dir }, page: 1 })),
    assignPage: assign({ page: (_, params: { page: number }) => params.page }),
    resetPage: assign({ page: 1 }),
    /** Hands the CSV to the browser as a download; provided by the wiring file (src/adapters/download.ts). */
    downloadCsv: (_, _params: { csv: string; filename: string }) => undefined,
  },
});

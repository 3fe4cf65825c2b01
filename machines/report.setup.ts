/**
 * The report machine's setup (machines/report.machine.ts assembles it with its states): its types,
 * its rules (retry, range clamp, table paging and order), its actors (supplied by
 * src/adapters/report-actors.ts) and its guards by name. The actions are added in ./report.actions.ts.
 */
import { fromCallback, setup } from 'xstate';
import { machineTypes } from './machine-types';
import {
  MAX_REPORT_RANGE_DAYS, REPORT_FILTER_MESSAGES, REPORT_PAGE_SIZE, addDays, daysBetween,
  type ReportAnswer, type ReportName, type ReportParams, type ReportRow,
} from '../common/reports';
import { reportCsv } from '../common/report-csv';
import { reportPollerMachine } from './report-poller.machine';
import { movesAnyOf, type WriteKind } from './report-signals';
import { providedLater } from './unprovided';

export interface ReportRequest {
  report: ReportName;
  /** `f`: the QoS report's filter set (issue 41, common/qoe.ts), in its URL form. */
  params: ReportParams & { f?: string };
}

/** The table's order: a column key (none: the answer's own order) and a direction. */
export interface SortState {
  key: string | undefined;
  dir: 'asc' | 'desc';
}

export interface ReportMachineInput {
  requests: ReportRequest[];
  realtime: boolean;
  /** The table's first order (the page's URL or its default); none keeps the answer's order. */
  sort?: SortState;
  /** Issue 41: the count column whose share of the total each row gets as a column (`sharePct`, after the row's name). */
  share?: string;
}

export interface FetchReportsInput {
  requests: ReportRequest[];
  /** true: bypass the answer cache (a real-time refresh). */
  fresh: boolean;
}

export interface ReportContext {
  requests: ReportRequest[];
  realtime: boolean;
  answers: ReportAnswer[] | null;
  error: string | null;
  /** false when asking again cannot help (a 4xx: the parameters are refused), so no Retry is offered. */
  retryable: boolean;
  /** Why the range shown is not the one asked for (over MAX_REPORT_RANGE_DAYS: clamped), else null. */
  note: string | null;
  sort: SortState;
  /** The table page shown, from 1. */
  page: number;
  /** The count column each row's share of the total is computed from (issue 41), else null. */
  share: string | null;
}

export type ReportEvent =
  | { type: 'report.filters'; requests: ReportRequest[] }
  | { type: 'report.retry' }
  | { type: 'poll.tick' }
  | { type: 'page.hidden' }
  | { type: 'page.visible' }
  /** Another tab committed a write of this kind (src/adapters/write-signals.ts): the figures it moves are stale here. */
  | { type: 'report.staleFromElsewhere'; kind: WriteKind }
  | { type: 'table.sort'; key: string; dir: 'asc' | 'desc' }
  | { type: 'table.page'; page: number }
  /** Download the table's every row, in the order shown, as CSV (`filename`: the page's name for it). */
  | { type: 'table.download'; filename: string };

/** Only failures a second try can fix: no answer at all (network), a timeout, throttling or a 5xx. */
export function canRetry(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status !== 'number' || status === 0 || status === 408 || status === 429 || status >= 500;
}

/** Requests over MAX_REPORT_RANGE_DAYS keep their end and start MAX_REPORT_RANGE_DAYS − 1 days before it. */
export function clampedRequests(requests: ReportRequest[]): Pick<ReportContext, 'requests' | 'note'> {
  let note: string | null = null;
  const clamped = requests.map((request) => {
    const { from, to } = request.params;
    if (!from || !to || daysBetween(from, to) <= MAX_REPORT_RANGE_DAYS) return request;
    const start = addDays(to, -(MAX_REPORT_RANGE_DAYS - 1));
    note = REPORT_FILTER_MESSAGES.clamped(from, start, to);
    return { ...request, params: { ...request.params, from: start } };
  });
  return { requests: clamped, note };
}

/** How many pages `rows` rows fill (at least 1, so an empty table has its page 1). */
export function pageCountOf(rows: number): number {
  return Math.max(1, Math.ceil(rows / REPORT_PAGE_SIZE));
}

/** The CSV of the table (common/report-csv.ts): every row of the first answer, in the table's order. */
export function tableCsvOf(context: Pick<ReportContext, 'answers' | 'sort'>): string {
  const answer = context.answers?.[0];
  return answer ? reportCsv(answer, sortRows(answer.rows, context.sort)) : '';
}

/** The rows in the table's order: nulls last whichever the direction; no key keeps the answer's order. */
export function sortRows(rows: ReportRow[], sort: SortState): ReportRow[] {
  if (!sort.key) return rows;
  const key = sort.key;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The report could not be loaded.';
}

export const reportBase = setup({
  types: machineTypes<{
    context: ReportContext; events: ReportEvent; input: ReportMachineInput;
    children: { fetchReports: 'fetchReports'; refreshReports: 'fetchReports'; poller: 'poller' };
  }>(),
  actors: {
    fetchReports: providedLater<ReportAnswer[], FetchReportsInput>('fetchReports'),
    poller: reportPollerMachine,
    /** Sends page.hidden / page.visible; the browser's comes from src/adapters/visibility.ts. */
    visibility: fromCallback<ReportEvent>(() => undefined),
    /** Sends report.staleFromElsewhere when another tab's write commits; the browser's is in src/adapters/report-actors.ts. */
    writeSignals: fromCallback<ReportEvent>(() => undefined),
  },
  guards: {
    isRealtime: ({ context }) => context.realtime,
    hasAnswer: ({ context }) => context.answers?.[0] !== undefined,
    hasReversedRange: ({ context }) => context.requests.some(({ params }) => Boolean(params.from && params.to && params.from > params.to)),
    /** A write of `kind` elsewhere moves a figure of one of this page's reports (machines/report-signals.ts). */
    readsMovedFigures: ({ context }, params: { kind: WriteKind }) => movesAnyOf(params.kind, context.requests.map((request) => request.report)),
    hasNoRows: (_, params: { answers: ReportAnswer[] }) => params.answers.every((answer) => answer.rows.length === 0),
    isPageOfTable: ({ context }, params: { page: number }) =>
      Number.isInteger(params.page) && params.page >= 1 && params.page <= pageCountOf(context.answers?.[0]?.rows.length ?? 0),
  },
});

/**
 * One analytics page's reports (spec §2.5, §7.6), one actor per page instance. Two concerns side by side:
 * - `data`: loading → ready | empty | failed. New filters re-enter `loading`, which stops the running
 *   request (its abort signal fires), so a late answer for old filters is never shown. Real-time
 *   pages refresh in `refreshing` while the last answer stays on screen.
 * - `refresh` (real-time pages only): the `poller` child ticks every 15 s while the page is visible;
 *   visibility arrives as `page.hidden` / `page.visible` from the `visibility` adapter actor, and
 *   coming back to a hidden page refreshes at once.
 * - the table (issue 27): its sort and page live in the context. `table.sort` re-sorts and goes back
 *   to page 1 (so do new filters); `table.page` moves to a page that exists. The answer is paged here,
 *   not on the server: the reports read daily rollups and answer at most a few hundred rows (200 titles,
 *   366 days), sorting is the table's, and the CSV and the totals need every row anyway.
 * The I/O actors are supplied by src/adapters/report-actors.ts.
 */
import { assign, fromCallback, raise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  DATE_PRESETS, MAX_REPORT_RANGE_DAYS, REPORT_FILTER_MESSAGES, REPORT_PAGE_SIZE, addDays, daysBetween, presetRange,
  type ReportAnswer, type ReportName, type ReportParams, type ReportRow,
} from '../common/reports';
import { reportPollerMachine } from './report-poller.machine';
import { providedLater } from './unprovided';

export interface ReportRequest {
  report: ReportName;
  params: ReportParams;
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
}

export type ReportEvent =
  | { type: 'report.filters'; requests: ReportRequest[] }
  | { type: 'report.retry' }
  | { type: 'poll.tick' }
  | { type: 'page.hidden' }
  | { type: 'page.visible' }
  | { type: 'table.sort'; key: string; dir: 'asc' | 'desc' }
  | { type: 'table.page'; page: number };

export const reportMachine = setup({
  types: {
    context: {} as ReportContext,
    events: {} as ReportEvent,
    input: {} as ReportMachineInput,
  },
  actors: {
    fetchReports: providedLater<ReportAnswer[], FetchReportsInput>('fetchReports'),
    poller: reportPollerMachine,
    /** Sends page.hidden / page.visible; the browser's comes from src/adapters/visibility.ts. */
    visibility: fromCallback<ReportEvent>(() => undefined),
  },
  actions: {
    assignRequests: assign({
      requests: ({ context }, params: { requests: ReportRequest[] }) => params.requests ?? context.requests,
    }),
    storeAnswers: assign({ answers: (_, params: { answers: ReportAnswer[] }) => params.answers, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error), retryable: (_, params: { error: unknown }) => canRetry(params.error) }),
    clampRanges: assign(({ context }) => clampedRequests(context.requests)),
    refreshNow: raise({ type: 'poll.tick' }),
    assignSort: assign((_, params: SortState) => ({ sort: { key: params.key, dir: params.dir }, page: 1 })),
    assignPage: assign({ page: (_, params: { page: number }) => params.page }),
    resetPage: assign({ page: 1 }),
  },
  guards: {
    isRealtime: ({ context }) => context.realtime,
    hasReversedRange: ({ context }) => context.requests.some(({ params }) => Boolean(params.from && params.to && params.from > params.to)),
    hasNoRows: (_, params: { answers: ReportAnswer[] }) => params.answers.every((answer) => answer.rows.length === 0),
    isPageOfTable: ({ context }, params: { page: number }) =>
      Number.isInteger(params.page) && params.page >= 1 && params.page <= pageCountOf(context.answers?.[0]?.rows.length ?? 0),
  },
}).createMachine({
  id: 'report',
  description: 'The reports of one analytics page: fetched for the filters in the URL, refreshed every 15 s on real-time pages while visible.',
  type: 'parallel',
  context: ({ input }) => ({
    requests: input.requests, realtime: input.realtime, answers: null, error: null, retryable: true, note: null,
    sort: input.sort ?? { key: undefined, dir: 'desc' }, page: 1,
  }),
  states: {
    data: {
      description: 'What the page shows.',
      initial: 'checking',
      on: {
        'report.filters': { target: '.checking', reenter: true, actions: [{ type: 'assignRequests', params: ({ event }) => ({ requests: event.requests }) }, 'resetPage'] },
        'table.sort': { actions: { type: 'assignSort', params: ({ event }) => ({ key: event.key, dir: event.dir }) } },
        'table.page': { guard: { type: 'isPageOfTable', params: ({ event }) => ({ page: event.page }) }, actions: { type: 'assignPage', params: ({ event }) => ({ page: event.page }) } },
      },
      states: {
        checking: {
          description: 'Checks the range before asking: a reversed range is explained, one over the limit is clamped with a note.',
          always: [{ guard: 'hasReversedRange', target: 'reversed' }, { target: 'loading', actions: 'clampRanges' }],
        },
        reversed: {
          description: 'The start date is after the end date: nothing is fetched; the page explains it beside the date fields and offers a one-click swap.',
        },
        loading: {
          description: 'Fetching the reports for the current filters: skeletons are shown.',
          invoke: {
            id: 'fetchReports',
            src: 'fetchReports',
            input: ({ context }) => ({ requests: context.requests, fresh: false }),
            onDone: [
              { guard: { type: 'hasNoRows', params: ({ event }) => ({ answers: event.output }) }, target: 'empty', actions: { type: 'storeAnswers', params: ({ event }) => ({ answers: event.output }) } },
              { target: 'ready', actions: { type: 'storeAnswers', params: ({ event }) => ({ answers: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {
          description: 'Charts and tables of the answers.',
          on: { 'poll.tick': 'refreshing' },
        },
        empty: {
          description: 'The answers have no rows: the page says why (range, network, filter).',
          on: { 'poll.tick': 'refreshing' },
        },
        refreshing: {
          description: 'A real-time refresh: the last answers stay on screen until the new ones arrive.',
          invoke: {
            id: 'refreshReports',
            src: 'fetchReports',
            input: ({ context }) => ({ requests: context.requests, fresh: true }),
            onDone: [
              { guard: { type: 'hasNoRows', params: ({ event }) => ({ answers: event.output }) }, target: 'empty', actions: { type: 'storeAnswers', params: ({ event }) => ({ answers: event.output }) } },
              { target: 'ready', actions: { type: 'storeAnswers', params: ({ event }) => ({ answers: event.output }) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          description: 'The request failed: the message and a Retry button; real-time pages also retry on the next tick.',
          on: { 'report.retry': 'loading', 'poll.tick': 'loading' },
        },
      },
    },
    refresh: {
      description: 'Automatic refresh of real-time pages.',
      initial: 'deciding',
      states: {
        deciding: {
          description: 'Real-time pages poll; the others never do.',
          always: [{ guard: 'isRealtime', target: 'live' }, { target: 'off' }],
        },
        off: {
          description: 'Not a real-time page.',
        },
        live: {
          description: 'Listening to the page visibility.',
          invoke: { src: 'visibility' },
          initial: 'visible',
          states: {
            visible: {
              description: 'The poller child ticks every 15 s.',
              invoke: { src: 'poller', id: 'poller' },
              on: { 'page.hidden': 'hidden' },
            },
            hidden: {
              description: 'The tab is hidden: polling paused; showing it again refreshes at once.',
              on: { 'page.visible': { target: 'visible', actions: 'refreshNow' } },
            },
          },
        },
      },
    },
  },
});

/** Only failures a second try can fix: no answer at all (network), a timeout, throttling or a 5xx. */
function canRetry(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status !== 'number' || status === 0 || status === 408 || status === 429 || status >= 500;
}

/** Requests over MAX_REPORT_RANGE_DAYS keep their end and start MAX_REPORT_RANGE_DAYS − 1 days before it. */
function clampedRequests(requests: ReportRequest[]): Pick<ReportContext, 'requests' | 'note'> {
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
function pageCountOf(rows: number): number {
  return Math.max(1, Math.ceil(rows / REPORT_PAGE_SIZE));
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

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'The report could not be loaded.';
}

export type ReportMachine = typeof reportMachine;
export type ReportActorRef = ActorRefFrom<ReportMachine>;
export type ReportSnapshot = SnapshotFrom<ReportMachine>;

export type ReportView = 'loading' | 'ready' | 'empty' | 'failed' | 'reversed';

/** What the page body shows; a refresh keeps showing what was there (ready or empty). */
export function selectView(snapshot: ReportSnapshot): ReportView {
  if (snapshot.matches({ data: 'reversed' })) return 'reversed';
  if (snapshot.matches({ data: 'loading' })) return 'loading';
  if (snapshot.matches({ data: 'failed' })) return 'failed';
  if (snapshot.matches({ data: 'refreshing' })) return snapshot.context.answers?.every((a) => a.rows.length === 0) ? 'empty' : 'ready';
  return snapshot.matches({ data: 'empty' }) ? 'empty' : 'ready';
}
export const selectAnswers = (snapshot: ReportSnapshot): ReportAnswer[] | null => snapshot.context.answers;
export const selectError = (snapshot: ReportSnapshot): string | null => snapshot.context.error;
/** Whether Retry can help: the last failure was the network or the server, not refused parameters. */
export const selectCanRetry = (snapshot: ReportSnapshot): boolean => snapshot.context.retryable;
/** The note about a clamped range (null when the range shown is the one asked for). */
export const selectRangeNote = (snapshot: ReportSnapshot): string | null => snapshot.context.note;
/**
 * Which of the 7/30/90-day presets the page's reports cover (issue 38: the buttons say which is
 * pressed): the preset whose range ending `today` (UTC) is the range asked for, else null (a custom or
 * reversed range, or a real-time page, which asks no range).
 */
export function selectPressedPreset(snapshot: ReportSnapshot, today: string): number | null {
  const params = snapshot.context.requests[0]?.params;
  if (!params?.from || !params.to) return null;
  return DATE_PRESETS.find((days) => {
    const range = presetRange(days, today);
    return range.from === params.from && range.to === params.to;
  }) ?? null;
}
/** The currency the money answer shows and every currency the site has payments in (none on other pages). */
export function selectCurrencies(snapshot: ReportSnapshot): { currency: string; currencies: string[] } | null {
  const money = snapshot.context.answers?.find((a) => a.currency && a.currencies);
  return money ? { currency: money.currency!, currencies: money.currencies! } : null;
}
/**
 * Where the plan and content choices stand: 'ready' once an answer brought them, 'failed' when the
 * request failed before any did, 'waiting' while the range is reversed (nothing is asked), else 'loading'.
 */
export function selectOptionsStatus(snapshot: ReportSnapshot): 'ready' | 'loading' | 'failed' | 'waiting' {
  if (snapshot.context.answers?.[0]?.options) return 'ready';
  if (snapshot.matches({ data: 'failed' })) return 'failed';
  return snapshot.matches({ data: 'reversed' }) ? 'waiting' : 'loading';
}
export const selectIsRefreshing = (snapshot: ReportSnapshot): boolean => snapshot.matches({ data: 'refreshing' });
export const selectIsPaused = (snapshot: ReportSnapshot): boolean => snapshot.matches({ refresh: { live: 'hidden' } });
/** When the shown answers were computed (the server's generatedAt of the first one). */
export const selectUpdatedAt = (snapshot: ReportSnapshot): string | null => snapshot.context.answers?.[0]?.generatedAt ?? null;
/**
 * Choices of the page's plan and content pickers (include=options), from the last answer: they stay
 * while new filters load, so the pickers do not blink.
 */
export const selectFilterOptions = (snapshot: ReportSnapshot): ReportAnswer['options'] => snapshot.context.answers?.[0]?.options;

export interface ReportTableState {
  sort: SortState;
  /** Every row of the (first) answer, sorted: what the CSV exports and the charts draw. */
  all: ReportRow[];
  /** The rows of the page shown. */
  rows: ReportRow[];
  page: number;
  pageCount: number;
  /** 1-based positions of the first and last row shown (0 and 0 when there are none). */
  first: number;
  last: number;
}

/**
 * The table of the first answer: sorted, then paged. A refresh that leaves fewer rows shows the last
 * page there is.
 */
export function selectTable(snapshot: ReportSnapshot): ReportTableState {
  const { sort, answers } = snapshot.context;
  const all = sortRows(answers?.[0]?.rows ?? [], sort);
  const pageCount = pageCountOf(all.length);
  const page = Math.min(snapshot.context.page, pageCount);
  const start = (page - 1) * REPORT_PAGE_SIZE;
  const rows = all.slice(start, start + REPORT_PAGE_SIZE);
  return { sort, all, rows, page, pageCount, first: rows.length ? start + 1 : 0, last: start + rows.length };
}

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
 *   `table.download` hands every row, in the table's order, as CSV to the provided `downloadCsv`.
 * - writes elsewhere (issue 38): the `writeSignals` actor sends `report.staleFromElsewhere { kind }` when
 *   another tab commits a refund or a subscription change; when that kind moves one of the page's reports
 *   (machines/report-signals.ts) the answers shown are read again past the cache (`refreshing`), and an
 *   answer on its way is asked for again.
 * The I/O actors and the download are supplied by src/adapters/report-actors.ts.
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { DATE_PRESETS, REPORT_PAGE_SIZE, presetRange, type ReportAnswer, type ReportRow } from '../common/reports';
import { reportSetup } from './report.actions';
import { pageCountOf, sortRows, type SortState } from './report.setup';
import { dataState } from './report.state.data';
import { refreshState } from './report.state.refresh';

export {
  sortRows, tableCsvOf,
  type FetchReportsInput, type ReportContext, type ReportEvent, type ReportMachineInput, type ReportRequest, type SortState,
} from './report.setup';

export const reportMachine = reportSetup.createMachine({
  id: 'report',
  description: 'The reports of one analytics page: fetched for the filters in the URL, refreshed every 15 s on real-time pages while visible.',
  type: 'parallel',
  context: ({ input }) => ({
    requests: input.requests, realtime: input.realtime, answers: null, error: null, retryable: true, note: null,
    sort: input.sort ?? { key: undefined, dir: 'desc' }, page: 1, share: input.share ?? null,
  }),
  // Issue 38: another tab's write that moves these figures arrives as report.staleFromElsewhere; `data` decides.
  invoke: { src: 'writeSignals' },
  states: {
    data: dataState,
    refresh: refreshState,
  },
});

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

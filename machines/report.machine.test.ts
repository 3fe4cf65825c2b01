import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, type AnyActorLogic } from 'xstate';
import { reportCsv } from '../common/report-csv';
import { REALTIME_POLL_MS, REPORT_FILTER_MESSAGES, type ReportAnswer } from '../common/reports';
import {
  reportMachine, selectAnswers, selectCanRetry, selectCurrencies, selectError, selectFilterOptions, selectIsPaused, selectIsRefreshing,
  selectOptionsStatus, selectPressedPreset, selectRangeNote, selectTable, selectUpdatedAt, selectView, sortRows, tableCsvOf,
  type FetchReportsInput, type ReportEvent, type ReportRequest, type SortState,
} from './report.machine';
import { createCoverage } from './test-harness/coverage';
import { pendingActor } from './test-harness/fakes';
import { coveringPaths, drivePath, pathTitle } from './test-harness/paths';

function answer(rows: number, generatedAt = '2024-05-20T10:00:00.000Z'): ReportAnswer {
  return {
    success: true, report: 'qos', params: { from: '2024-05-01', to: '2024-05-20', granularity: 'day' }, generatedAt,
    columns: [{ key: 'period', label: 'Period', kind: 'period' }, { key: 'sessions', label: 'Sessions', kind: 'count' }],
    rows: Array.from({ length: rows }, (_, i) => ({ period: `2024-05-${String(i + 1).padStart(2, '0')}`, sessions: i })),
    totals: { sessions: rows },
  };
}

const LAST_WEEK: ReportRequest[] = [{ report: 'qos', params: { from: '2024-05-14', to: '2024-05-20' } }];
const LAST_MONTH: ReportRequest[] = [{ report: 'qos', params: { from: '2024-04-21', to: '2024-05-20' } }];
const REVERSED: ReportRequest[] = [{ report: 'qos', params: { from: '2024-05-20', to: '2024-05-14' } }];
const TWO_YEARS: ReportRequest[] = [{ report: 'qos', params: { from: '2022-05-21', to: '2024-05-20', granularity: 'month' } }];

/** A fetch actor whose calls the test settles by hand, recording inputs and aborts. */
function controlledFetch() {
  const calls: { input: FetchReportsInput; resolve: (a: ReportAnswer[]) => void; reject: (e: Error) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<ReportAnswer[], FetchReportsInput>(({ input, signal }) => new Promise((resolve, reject) => {
    calls.push({ input, resolve, reject, aborted: () => signal.aborted });
  }));
  return { logic, calls };
}

function start(realtime: boolean, fetch: AnyActorLogic, visibility: AnyActorLogic = fromCallback(() => undefined), requests = LAST_WEEK, sort?: SortState) {
  const clock = new SimulatedClock();
  const actor = createActor(reportMachine.provide({ actors: { fetchReports: fetch, visibility } }), {
    input: { requests, realtime, ...(sort && { sort }) }, clock,
  }).start();
  return { actor, clock };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('report machine', () => {
  it('loads, then shows the answers with when they were computed', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    expect(selectView(actor.getSnapshot())).toBe('loading');
    expect(fetch.calls[0]!.input).toEqual({ requests: LAST_WEEK, fresh: false });
    fetch.calls[0]!.resolve([answer(3)]);
    await flush();
    expect(selectView(actor.getSnapshot())).toBe('ready');
    expect(selectAnswers(actor.getSnapshot())?.[0]?.rows).toHaveLength(3);
    expect(selectUpdatedAt(actor.getSnapshot())).toBe('2024-05-20T10:00:00.000Z');
  });

  it('new filters cancel the running request; its late answer is never shown', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    expect(fetch.calls[0]!.aborted()).toBe(true);
    expect(fetch.calls[1]!.input.requests).toEqual(LAST_MONTH);
    fetch.calls[0]!.resolve([answer(7)]);
    await flush();
    expect(selectView(actor.getSnapshot())).toBe('loading');
    fetch.calls[1]!.resolve([answer(30)]);
    await flush();
    expect(selectAnswers(actor.getSnapshot())?.[0]?.rows).toHaveLength(30);
  });

  it('keeps the filter choices of the last answer while new filters load', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    expect(selectFilterOptions(actor.getSnapshot())).toBeUndefined();
    const plans = [{ value: '6f1c1b8e-5a4d-4c3b-9a2e-1d0f9e8d7c6b', label: 'Monthly' }];
    fetch.calls[0]!.resolve([{ ...answer(3), options: { plan: plans } }]);
    await flush();
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    expect(selectFilterOptions(actor.getSnapshot())).toEqual({ plan: plans });
  });

  it('an answer without rows is the empty state; a failure shows its message and Retry loads again', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    fetch.calls[0]!.resolve([answer(0)]);
    await flush();
    expect(selectView(actor.getSnapshot())).toBe('empty');
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    fetch.calls[1]!.reject(new Error('The server could not be reached.'));
    await flush();
    expect(selectView(actor.getSnapshot())).toBe('failed');
    expect(selectError(actor.getSnapshot())).toBe('The server could not be reached.');
    actor.send({ type: 'report.retry' });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    expect(fetch.calls).toHaveLength(3);
  });

  it('a reversed range asks nothing and is explained; fixed filters load', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic, undefined, REVERSED);
    expect(selectView(actor.getSnapshot())).toBe('reversed');
    expect(selectOptionsStatus(actor.getSnapshot())).toBe('waiting');
    expect(fetch.calls).toHaveLength(0);
    actor.send({ type: 'report.filters', requests: LAST_WEEK });
    expect(fetch.calls[0]!.input.requests).toEqual(LAST_WEEK);
    expect(selectRangeNote(actor.getSnapshot())).toBeNull();
  });

  it('says which 7/30/90-day preset is pressed: the one whose range ending today was asked for (issue 38)', () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic, undefined, LAST_WEEK);
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBe(7);
    // The same seven days seen a day later are a custom range.
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-21')).toBeNull();
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBe(30);
    actor.send({ type: 'report.filters', requests: [{ report: 'qos', params: { from: '2024-02-21', to: '2024-05-20' } }] });
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBe(90);
    actor.send({ type: 'report.filters', requests: [{ report: 'qos', params: { from: '2024-05-01', to: '2024-05-20' } }] });
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBeNull();
    actor.send({ type: 'report.filters', requests: REVERSED });
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBeNull();
    actor.send({ type: 'report.filters', requests: [{ report: 'realtime_content', params: {} }] });
    expect(selectPressedPreset(actor.getSnapshot(), '2024-05-20')).toBeNull();
  });

  it('a range over 366 days is clamped to the 366 days ending on its end date, with a note', () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic, undefined, TWO_YEARS);
    expect(fetch.calls[0]!.input.requests).toEqual([{ report: 'qos', params: { from: '2023-05-21', to: '2024-05-20', granularity: 'month' } }]);
    expect(selectRangeNote(actor.getSnapshot())).toBe(REPORT_FILTER_MESSAGES.clamped('2022-05-21', '2023-05-21', '2024-05-20'));
    expect(selectRangeNote(actor.getSnapshot())).toBe('Reports cover at most 366 days: showing 2023-05-21 to 2024-05-20 instead of from 2022-05-21.');
  });

  it('Retry is offered for network and server failures, not for refused parameters', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    expect(selectOptionsStatus(actor.getSnapshot())).toBe('loading');
    fetch.calls[0]!.reject(Object.assign(new Error('plan: unknown plan'), { status: 400 }));
    await flush();
    expect(selectView(actor.getSnapshot())).toBe('failed');
    expect(selectCanRetry(actor.getSnapshot())).toBe(false);
    expect(selectOptionsStatus(actor.getSnapshot())).toBe('failed');
    actor.send({ type: 'report.retry' });
    fetch.calls[1]!.reject(Object.assign(new Error('Bad gateway'), { status: 502 }));
    await flush();
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'report.retry' });
    fetch.calls[2]!.reject(Object.assign(new Error('Slow down'), { status: 429 }));
    await flush();
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'report.retry' });
    fetch.calls[3]!.reject(new Error('The server could not be reached.'));
    await flush();
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
  });

  it('names the currency shown and the others of a money answer; none for other reports', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    fetch.calls[0]!.resolve([answer(2), { ...answer(2), report: 'payment_summary_report', currency: 'GBP', currencies: ['USD', 'GBP'] }]);
    await flush();
    expect(selectCurrencies(actor.getSnapshot())).toEqual({ currency: 'GBP', currencies: ['USD', 'GBP'] });
    expect(selectOptionsStatus(actor.getSnapshot())).toBe('loading');
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    fetch.calls[1]!.resolve([{ ...answer(2), options: { plan: [] } }]);
    await flush();
    expect(selectCurrencies(actor.getSnapshot())).toBeNull();
    expect(selectOptionsStatus(actor.getSnapshot())).toBe('ready');
  });

  it('a page that is not real-time never polls', async () => {
    const fetch = controlledFetch();
    const { actor, clock } = start(false, fetch.logic);
    fetch.calls[0]!.resolve([answer(2)]);
    await flush();
    clock.increment(REALTIME_POLL_MS * 4);
    expect(fetch.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches({ refresh: 'off' })).toBe(true);
  });

  it('a real-time page refreshes every 15 s past the cache, keeping its answers on screen meanwhile', async () => {
    const fetch = controlledFetch();
    const { actor, clock } = start(true, fetch.logic);
    fetch.calls[0]!.resolve([answer(2)]);
    await flush();
    clock.increment(REALTIME_POLL_MS - 1);
    expect(fetch.calls).toHaveLength(1);
    clock.increment(1);
    expect(fetch.calls[1]!.input.fresh).toBe(true);
    expect(selectIsRefreshing(actor.getSnapshot())).toBe(true);
    expect(selectView(actor.getSnapshot())).toBe('ready');
    fetch.calls[1]!.resolve([answer(3, '2024-05-20T10:00:15.000Z')]);
    await flush();
    expect(selectUpdatedAt(actor.getSnapshot())).toBe('2024-05-20T10:00:15.000Z');
    clock.increment(REALTIME_POLL_MS);
    expect(fetch.calls).toHaveLength(3);
  });

  it('pauses in a hidden tab and refreshes at once when shown again', async () => {
    let send: ((event: { type: 'page.hidden' } | { type: 'page.visible' }) => void) | undefined;
    const visibility = fromCallback(({ sendBack }) => { send = sendBack; });
    const fetch = controlledFetch();
    const { actor, clock } = start(true, fetch.logic, visibility);
    fetch.calls[0]!.resolve([answer(2)]);
    await flush();
    send!({ type: 'page.hidden' });
    expect(selectIsPaused(actor.getSnapshot())).toBe(true);
    clock.increment(REALTIME_POLL_MS * 3);
    expect(fetch.calls).toHaveLength(1);
    send!({ type: 'page.visible' });
    expect(fetch.calls).toHaveLength(2);
    expect(selectIsPaused(actor.getSnapshot())).toBe(false);
  });

  it('a refresh that comes back empty shows the empty state; selectView keeps it during the next refresh', async () => {
    const fetch = controlledFetch();
    const { actor, clock } = start(true, fetch.logic);
    fetch.calls[0]!.resolve([answer(0)]);
    await flush();
    clock.increment(REALTIME_POLL_MS);
    expect(selectView(actor.getSnapshot())).toBe('empty');
  });
});

describe('report machine: the table (issue 27)', () => {
  const sessionsOf = (rows: { sessions?: unknown }[]) => rows.map((r) => r.sessions);

  it('pages the sorted rows 25 at a time; Previous and Next move within the pages there are', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic, undefined, LAST_WEEK, { key: 'sessions', dir: 'desc' });
    fetch.calls[0]!.resolve([answer(60)]);
    await flush();
    let table = selectTable(actor.getSnapshot());
    expect(table).toMatchObject({ page: 1, pageCount: 3, first: 1, last: 25 });
    expect(table.all).toHaveLength(60);
    expect(sessionsOf(table.rows)).toEqual(Array.from({ length: 25 }, (_, i) => 59 - i));
    actor.send({ type: 'table.page', page: 3 });
    table = selectTable(actor.getSnapshot());
    expect(table).toMatchObject({ page: 3, first: 51, last: 60 });
    expect(sessionsOf(table.rows)).toEqual(Array.from({ length: 10 }, (_, i) => 9 - i));
    for (const page of [4, 0, 1.5]) actor.send({ type: 'table.page', page });
    expect(selectTable(actor.getSnapshot()).page).toBe(3);
  });

  it('a new sort and new filters go back to page 1; sorting applies before paging', async () => {
    const fetch = controlledFetch();
    const { actor } = start(false, fetch.logic);
    fetch.calls[0]!.resolve([answer(30)]);
    await flush();
    actor.send({ type: 'table.page', page: 2 });
    expect(sessionsOf(selectTable(actor.getSnapshot()).rows)).toEqual([25, 26, 27, 28, 29]);
    actor.send({ type: 'table.sort', key: 'sessions', dir: 'desc' });
    expect(selectTable(actor.getSnapshot())).toMatchObject({ page: 1, sort: { key: 'sessions', dir: 'desc' }, first: 1, last: 25 });
    expect(selectTable(actor.getSnapshot()).rows[0]!.sessions).toBe(29);
    actor.send({ type: 'table.page', page: 2 });
    actor.send({ type: 'report.filters', requests: LAST_MONTH });
    expect(actor.getSnapshot().context.page).toBe(1);
  });

  it('a refresh that leaves fewer rows shows the last page there is; no rows is page 1 of 1', async () => {
    const fetch = controlledFetch();
    const { actor, clock } = start(true, fetch.logic);
    fetch.calls[0]!.resolve([answer(30)]);
    await flush();
    actor.send({ type: 'table.page', page: 2 });
    clock.increment(REALTIME_POLL_MS);
    fetch.calls[1]!.resolve([answer(5)]);
    await flush();
    expect(selectTable(actor.getSnapshot())).toMatchObject({ page: 1, pageCount: 1, first: 1, last: 5 });
    clock.increment(REALTIME_POLL_MS);
    fetch.calls[2]!.resolve([answer(0)]);
    await flush();
    expect(selectTable(actor.getSnapshot())).toMatchObject({ page: 1, pageCount: 1, first: 0, last: 0, rows: [] });
  });

  it('table.download hands every row, in the table\'s order, as plain values that sum to the totals, to downloadCsv', async () => {
    const base = answer(3);
    const money: ReportAnswer = {
      ...base, currency: 'GBP',
      columns: [...base.columns, { key: 'revenue', label: 'Revenue', kind: 'money' }, { key: 'successPct', label: 'Success rate (%)', kind: 'percent' }],
      rows: base.rows.map((r, i) => ({ ...r, revenue: [123456, 99, null][i]!, successPct: [97.8, 100, 0][i]! })),
      totals: { sessions: 3, revenue: 123555 },
    };
    const downloads: { csv: string; filename: string }[] = [];
    const fetch = controlledFetch();
    const actor = createActor(reportMachine.provide({
      actors: { fetchReports: fetch.logic, visibility: fromCallback(() => undefined) },
      actions: { downloadCsv: (_, params) => { downloads.push(params); } },
    }), { input: { requests: LAST_WEEK, realtime: false, sort: { key: 'sessions', dir: 'desc' } } }).start();
    actor.send({ type: 'table.download', filename: 'early.csv' });
    expect(downloads).toEqual([]);
    fetch.calls[0]!.resolve([money]);
    await flush();
    actor.send({ type: 'table.download', filename: 'qos-2024-05-14-2024-05-20.csv' });
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.filename).toBe('qos-2024-05-14-2024-05-20.csv');
    expect(downloads[0]!.csv).toBe(tableCsvOf(actor.getSnapshot().context));
    const lines = downloads[0]!.csv.trim().split('\r\n').map((l) => l.split(','));
    expect(lines[0]).toEqual(['Period (ISO 8601)', 'Sessions', 'Revenue (GBP)', 'Success rate (%)', 'Currency']);
    expect(lines.slice(1)).toEqual([
      ['2024-05-03', '2', '', '0', 'GBP'],
      ['2024-05-02', '1', '0.99', '100', 'GBP'],
      ['2024-05-01', '0', '1234.56', '97.8', 'GBP'],
    ]);
    const column = (i: number) => lines.slice(1).reduce((a, l) => a + Number(l[i]), 0);
    expect(column(1)).toBe(money.totals.sessions);
    expect(Math.round(column(2) * 100)).toBe(money.totals.revenue);
  });

  it('the CSV is the table\'s every row in its order (not only the page shown); none before an answer', () => {
    const rows = answer(30);
    expect(tableCsvOf({ answers: null, sort: { key: undefined, dir: 'desc' } })).toBe('');
    expect(tableCsvOf({ answers: [rows], sort: { key: 'sessions', dir: 'desc' } })).toBe(reportCsv(rows, sortRows(rows.rows, { key: 'sessions', dir: 'desc' })));
    expect(tableCsvOf({ answers: [rows], sort: { key: 'sessions', dir: 'desc' } }).trim().split('\r\n')).toHaveLength(31);
  });

  it('sorts numbers and text either way, missing values last; no key keeps the answer order', () => {
    const rows = [{ t: 'b', n: 2 }, { t: 'a', n: null }, { t: 'c', n: 10 }];
    expect(sortRows(rows, { key: 'n', dir: 'asc' }).map((r) => r.t)).toEqual(['b', 'c', 'a']);
    expect(sortRows(rows, { key: 'n', dir: 'desc' }).map((r) => r.t)).toEqual(['c', 'b', 'a']);
    expect(sortRows(rows, { key: 't', dir: 'asc' }).map((r) => r.t)).toEqual(['a', 'b', 'c']);
    expect(sortRows(rows, { key: undefined, dir: 'asc' })).toBe(rows);
  });
});

describe('report machine: a write in another tab (issue 38)', () => {
  const PAYMENTS: ReportRequest[] = [{ report: 'payment_summary_report', params: { from: '2024-05-14', to: '2024-05-20' } }];
  const OVERVIEW: ReportRequest[] = [
    { report: 'user_base', params: { from: '2024-05-14', to: '2024-05-20' } },
    { report: 'payment_summary_report', params: { from: '2024-05-14', to: '2024-05-20' } },
  ];
  const net = (value: number): ReportAnswer => ({ ...answer(1), report: 'payment_summary_report', totals: { netRevenue: value } });
  /** The writes elsewhere, sent as the `writeSignals` actor would. */
  function signals() {
    let send: ((event: { type: 'report.staleFromElsewhere'; kind: 'payment' | 'subscription' }) => void) | undefined;
    const logic = fromCallback<ReportEvent>(({ sendBack }) => { send = sendBack; });
    return { logic, write: (kind: 'payment' | 'subscription') => send!({ type: 'report.staleFromElsewhere', kind }) };
  }
  function startWith(requests: ReportRequest[], realtime = false) {
    const fetch = controlledFetch();
    const elsewhere = signals();
    const actor = createActor(reportMachine.provide({ actors: { fetchReports: fetch.logic, writeSignals: elsewhere.logic } }), {
      input: { requests, realtime }, clock: new SimulatedClock(),
    }).start();
    return { actor, fetch, write: elsewhere.write };
  }

  it('a refund elsewhere reads the Payments report again past the cache; Net revenue stays on screen until the new one arrives', async () => {
    const { actor, fetch, write } = startWith(PAYMENTS);
    fetch.calls[0]!.resolve([net(10_000)]);
    await flush();
    write('payment');
    expect(fetch.calls).toHaveLength(2);
    expect(fetch.calls[1]!.input).toEqual({ requests: PAYMENTS, fresh: true });
    expect(selectView(actor.getSnapshot())).toBe('ready');
    expect(selectAnswers(actor.getSnapshot())?.[0]?.totals).toEqual({ netRevenue: 10_000 });
    fetch.calls[1]!.resolve([net(9_350)]);
    await flush();
    expect(selectAnswers(actor.getSnapshot())?.[0]?.totals).toEqual({ netRevenue: 9_350 });
    expect(selectIsRefreshing(actor.getSnapshot())).toBe(false);
  });

  it('the machine decides: a subscription write does not move the Payments report, but moves the Dashboard (user base); playback reports never', async () => {
    const payments = startWith(PAYMENTS);
    payments.fetch.calls[0]!.resolve([net(1)]);
    await flush();
    payments.write('subscription');
    expect(payments.fetch.calls).toHaveLength(1);

    const overview = startWith(OVERVIEW);
    overview.fetch.calls[0]!.resolve([answer(2), net(1)]);
    await flush();
    overview.write('subscription');
    expect(overview.fetch.calls).toHaveLength(2);
    expect(overview.fetch.calls[1]!.input).toEqual({ requests: OVERVIEW, fresh: true });

    const qos = startWith(LAST_WEEK, true);
    qos.fetch.calls[0]!.resolve([answer(2)]);
    await flush();
    qos.write('payment');
    qos.write('subscription');
    expect(qos.fetch.calls).toHaveLength(1);
  });

  it('an answer on its way when the write lands is asked for again (its figures may predate it); so is a refresh on its way', async () => {
    const { actor, fetch, write } = startWith(PAYMENTS);
    write('payment');
    expect(fetch.calls[0]!.aborted()).toBe(true);
    expect(fetch.calls[1]!.input).toEqual({ requests: PAYMENTS, fresh: false });
    fetch.calls[0]!.resolve([net(10_000)]);
    fetch.calls[1]!.resolve([net(9_350)]);
    await flush();
    expect(selectAnswers(actor.getSnapshot())?.[0]?.totals).toEqual({ netRevenue: 9_350 });
    write('payment');
    write('payment');
    expect(fetch.calls[2]!.aborted()).toBe(true);
    expect(fetch.calls[3]!.input.fresh).toBe(true);
    fetch.calls[3]!.resolve([net(9_000)]);
    await flush();
    expect(selectAnswers(actor.getSnapshot())?.[0]?.totals).toEqual({ netRevenue: 9_000 });
  });

  it('an empty answer is read again too; a failed or reversed page waits for Retry or new dates', async () => {
    const empty = startWith(PAYMENTS);
    empty.fetch.calls[0]!.resolve([{ ...net(0), rows: [] }]);
    await flush();
    expect(selectView(empty.actor.getSnapshot())).toBe('empty');
    empty.write('payment');
    expect(empty.fetch.calls[1]!.input.fresh).toBe(true);

    const failed = startWith(PAYMENTS);
    failed.fetch.calls[0]!.reject(new Error('down'));
    await flush();
    failed.write('payment');
    expect(failed.fetch.calls).toHaveLength(1);
    expect(selectView(failed.actor.getSnapshot())).toBe('failed');

    const reversed = startWith([{ report: 'payment_summary_report', params: { from: '2024-05-20', to: '2024-05-14' } }]);
    reversed.write('payment');
    expect(reversed.fetch.calls).toHaveLength(0);
    expect(selectView(reversed.actor.getSnapshot())).toBe('reversed');
  });
});

describe('report machine: every path', () => {
  const events = [
    { type: 'report.filters', requests: LAST_MONTH },
    { type: 'report.filters', requests: REVERSED },
    { type: 'report.retry' },
    { type: 'poll.tick' },
    { type: 'page.hidden' },
    { type: 'page.visible' },
    { type: 'table.sort', key: 'sessions', dir: 'asc' },
    { type: 'table.page', page: 2 },
    { type: 'table.download', filename: 'x.csv' },
    { type: 'report.staleFromElsewhere', kind: 'payment' },
    { type: 'report.staleFromElsewhere', kind: 'subscription' },
    { type: 'xstate.done.actor.fetchReports', output: [answer(2)] },
    { type: 'xstate.done.actor.fetchReports', output: [answer(30)] },
    { type: 'xstate.done.actor.fetchReports', output: [answer(0)] },
    { type: 'xstate.error.actor.fetchReports', error: new Error('down') },
    { type: 'xstate.done.actor.refreshReports', output: [answer(2)] },
    { type: 'xstate.done.actor.refreshReports', output: [answer(0)] },
    { type: 'xstate.error.actor.refreshReports', error: new Error('down') },
  ];
  const logic = reportMachine.provide({ actors: { fetchReports: pendingActor() } });
  const coverage = createCoverage(reportMachine);
  const PAYMENTS: ReportRequest[] = [{ report: 'payment_summary_report', params: { from: '2024-05-14', to: '2024-05-20' } }];
  const inputs = [
    { requests: LAST_WEEK, realtime: true }, { requests: LAST_WEEK, realtime: false }, { requests: REVERSED, realtime: false },
    { requests: PAYMENTS, realtime: false },
  ];
  const paths = inputs.flatMap((input) => coveringPaths(reportMachine, { events, input }).map((path) => ({ input, path })));

  it.each(paths.map(({ input, path }) => [`${input.realtime ? 'real-time' : 'periodic'}: ${pathTitle(path)}`, input, path] as const))('reaches %s', (_, input, path) => {
    expect(drivePath(logic, path, { input, inspect: coverage.inspect }).value).toEqual(path.state.value);
  });

  it('covers every state and every transition of the machine', () => {
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});

describe('report machine with a share column (issue 41)', () => {
  it("adds each row's share of the total sessions to the answers it stores, so the table sorts by it", async () => {
    const byCdn: ReportAnswer = {
      ...answer(0), params: { from: '2024-05-01', to: '2024-05-20', granularity: 'day', by: 'cdn' },
      columns: [{ key: 'key', label: 'CDN', kind: 'text' }, { key: 'sessions', label: 'Sessions', kind: 'count' }],
      rows: [{ key: 'akamai', sessions: 30 }, { key: 'fastly', sessions: 90 }], totals: { sessions: 120 },
    };
    const actor = createActor(reportMachine.provide({ actors: { fetchReports: fromPromise(async () => [byCdn]) } }), {
      input: { requests: LAST_WEEK, realtime: false, share: 'sessions', sort: { key: 'sharePct', dir: 'desc' } },
    }).start();
    await flush();
    expect(selectTable(actor.getSnapshot()).rows.map((r) => [r.key, r.sharePct])).toEqual([['fastly', 75], ['akamai', 25]]);
    expect(selectAnswers(actor.getSnapshot())![0]!.columns.map((c) => c.key)).toEqual(['key', 'sharePct', 'sessions']);
  });
});

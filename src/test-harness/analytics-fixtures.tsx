/** Report answers and a report machine with fake actors for the analytics view tests. */
import type { ReactElement } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { reportMachine, type FetchReportsInput } from '../../machines/report.machine';
import type { ReportAnswer } from '../../common/reports';
import { downloadCsv } from '../adapters/download';
import { PageLogicContext } from '../page-actors';
import { fakeQoeFilters } from './qoe-fixtures';

export function seriesAnswer(overrides: Partial<ReportAnswer> = {}): ReportAnswer {
  return {
    success: true, report: 'user_behavior', params: { from: '2024-05-01', to: '2024-05-03', granularity: 'day' },
    generatedAt: '2024-05-03T12:00:00.000Z',
    columns: [
      { key: 'period', label: 'Period', kind: 'period' }, { key: 'sessions', label: 'Sessions', kind: 'count' },
      { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours' },
    ],
    rows: [
      { period: '2024-05-01', sessions: 120, watchHours: 40.5 },
      { period: '2024-05-02', sessions: 80, watchHours: 22 },
      { period: '2024-05-03', sessions: 1500, watchHours: 610.2 },
    ],
    totals: { sessions: 1700, watchHours: 672.7, avgMinutes: 23.7, viewers: 310 },
    previousTotals: { sessions: 1000, watchHours: 700, avgMinutes: 20, viewers: 300 },
    ...overrides,
  };
}

export interface FakeReports {
  calls: FetchReportsInput[];
  wrap: (ui: ReactElement) => ReactElement;
}

/** Every fetch answers `answer(input)` (or fails when it throws). */
export function fakeReports(answer: (input: FetchReportsInput) => ReportAnswer[]): FakeReports {
  const calls: FetchReportsInput[] = [];
  const logic = reportMachine.provide({
    actors: {
      fetchReports: fromPromise<ReportAnswer[], FetchReportsInput>(async ({ input }) => {
        calls.push(input);
        return answer(input);
      }),
      visibility: fromCallback(() => undefined),
    },
    // The browser's download, as the Analytics wiring provides it (a test reads the file from URL.createObjectURL).
    actions: { downloadCsv },
  });
  // The QoS pages' Add filter picker (issue 41) reads no values here; src/test-harness/qoe-fixtures.tsx has one that does.
  const qoeFilters = fakeQoeFilters().logic;
  return { calls, wrap: (ui) => <PageLogicContext.Provider value={{ report: logic, qoeFilters }}>{ui}</PageLogicContext.Provider> };
}

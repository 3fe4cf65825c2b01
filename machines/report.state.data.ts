/** The report machine's `data` region (assembled in ./report.machine.ts). */
import { reportSetup } from './report.actions';
import type { WriteKind } from './report-signals';
import { tableCsvOf } from './report.setup';

/** The guard of `report.staleFromElsewhere`: the write moved a figure of this page's reports (the machine decides, not the tab that wrote). */
const STALE = { type: 'readsMovedFigures', params: ({ event }: { event: { kind: WriteKind } }) => ({ kind: event.kind }) } as const;

export const dataState = reportSetup.createStateConfig({
  description: 'What the page shows.',
  initial: 'checking',
  on: {
    'report.filters': { target: '.checking', reenter: true, actions: [{ type: 'assignRequests', params: ({ event }) => ({ requests: event.requests }) }, 'resetPage'] },
    'table.sort': { actions: { type: 'assignSort', params: ({ event }) => ({ key: event.key, dir: event.dir }) } },
    'table.page': { guard: { type: 'isPageOfTable', params: ({ event }) => ({ page: event.page }) }, actions: { type: 'assignPage', params: ({ event }) => ({ page: event.page }) } },
    'table.download': { guard: 'hasAnswer', actions: { type: 'downloadCsv', params: ({ context, event }) => ({ csv: tableCsvOf(context), filename: event.filename }) } },
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
      description: 'Fetching the reports for the current filters: skeletons are shown. A write elsewhere that moves them asks again (the answer on its way may predate it).',
      on: { 'report.staleFromElsewhere': { guard: STALE, target: 'loading', reenter: true } },
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
      description: 'Charts and tables of the answers; a write elsewhere that moves them refreshes them (issue 38).',
      on: { 'poll.tick': 'refreshing', 'report.staleFromElsewhere': { guard: STALE, target: 'refreshing' } },
    },
    empty: {
      description: 'The answers have no rows: the page says why (range, network, filter). A write elsewhere that moves them refreshes them.',
      on: { 'poll.tick': 'refreshing', 'report.staleFromElsewhere': { guard: STALE, target: 'refreshing' } },
    },
    refreshing: {
      description: 'A refresh past the answer cache (a real-time tick, or a write elsewhere that moved the figures): the last answers stay on screen until the new ones arrive; another such write asks again.',
      on: { 'report.staleFromElsewhere': { guard: STALE, target: 'refreshing', reenter: true } },
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
});

/** The report machine's `data` region (assembled in ./report.machine.ts). */
import { reportSetup } from './report.actions';
import { tableCsvOf } from './report.setup';

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
});

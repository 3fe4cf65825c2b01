/**
 * Views (issue 41): the playback sessions behind a figure, one server page at a time
 * (GET /qoe/views, the `loadViews` actor supplied by src/adapters/qoe-actors.ts), and one view with
 * its dimensions and timeline (GET /qoe/views/:sessionId, `loadView`). The range, filters, page and
 * order are the URL's: a new one starts a new page body and so a new machine.
 */
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { QoeQuery, QoeViewAnswer, QoeViewSort, QoeViewsAnswer } from '../common/qoe';
import { machineTypes } from './machine-types';
import { canRetry, messageOf } from './report.setup';
import { providedLater } from './unprovided';

export interface QoeViewsInput {
  query: QoeQuery;
  page: number;
  sort: QoeViewSort;
  dir: 'asc' | 'desc';
}

export interface QoeViewsContext extends QoeViewsInput {
  answer: QoeViewsAnswer | null;
  error: string | null;
  retryable: boolean;
}

export type QoeViewsEvent = { type: 'views.retry' };

export const qoeViewsMachine = setup({
  types: machineTypes<{ context: QoeViewsContext; events: QoeViewsEvent; input: QoeViewsInput; children: { loadViews: 'loadViews' } }>(),
  actors: { loadViews: providedLater<QoeViewsAnswer, QoeViewsInput>('loadViews') },
  guards: {
    hasNoViews: (_, params: { answer: QoeViewsAnswer }) => params.answer.total === 0,
  },
  actions: {
    storeAnswer: assign({ answer: (_, params: { answer: QoeViewsAnswer }) => params.answer, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error), retryable: (_, params: { error: unknown }) => canRetry(params.error) }),
  },
}).createMachine({
  id: 'qoeViews',
  description: 'The sessions behind a figure: one page of them for the range, filters and order of the address.',
  context: ({ input }) => ({ ...input, answer: null, error: null, retryable: true }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the page of sessions: a skeleton shows.',
      invoke: {
        id: 'loadViews',
        src: 'loadViews',
        input: ({ context }) => ({ query: context.query, page: context.page, sort: context.sort, dir: context.dir }),
        onDone: [
          { guard: { type: 'hasNoViews', params: ({ event }) => ({ answer: event.output }) }, target: 'empty', actions: { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) } },
          { target: 'ready', actions: { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: { description: 'The sessions of the page, each linking to its view; pages and order move the address.' },
    empty: { description: 'No session started in the range under the filters: the page says so.' },
    failed: {
      description: 'The sessions could not be read: the reason, and Retry when asking again can help.',
      on: { 'views.retry': 'loading' },
    },
  },
});

export type QoeViewsMachine = typeof qoeViewsMachine;
export type QoeViewsRef = ActorRefFrom<QoeViewsMachine>;
type ViewsSnapshot = SnapshotFrom<QoeViewsMachine>;

export type QoeListView = 'loading' | 'ready' | 'empty' | 'failed';
export function selectViewsView(s: ViewsSnapshot): QoeListView {
  if (s.matches('ready')) return 'ready';
  if (s.matches('empty')) return 'empty';
  return s.matches('failed') ? 'failed' : 'loading';
}
export const selectViewsAnswer = (s: ViewsSnapshot): QoeViewsAnswer | null => s.context.answer;
export const selectViewsError = (s: ViewsSnapshot): string | null => s.context.error;
export const selectViewsCanRetry = (s: ViewsSnapshot): boolean => s.context.retryable;

/** The page shown: positions of its first and last session, how many pages there are. */
export function selectViewsPaging(s: ViewsSnapshot): { page: number; pageCount: number; first: number; last: number; total: number } {
  const answer = s.context.answer;
  if (!answer) return { page: s.context.page, pageCount: 1, first: 0, last: 0, total: 0 };
  const pageCount = Math.max(1, Math.ceil(answer.total / answer.pageSize));
  const first = answer.rows.length ? (answer.page - 1) * answer.pageSize + 1 : 0;
  return { page: answer.page, pageCount, first, last: first ? first + answer.rows.length - 1 : 0, total: answer.total };
}

/* ------------------------------------------------------------------------------------------------
 * One view
 * ---------------------------------------------------------------------------------------------- */

export interface QoeViewInput {
  sessionId: string;
}

export interface QoeViewContext extends QoeViewInput {
  answer: QoeViewAnswer | null;
  error: string | null;
  retryable: boolean;
}

export type QoeViewEvent = { type: 'view.retry' };

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

export const qoeViewMachine = setup({
  types: machineTypes<{ context: QoeViewContext; events: QoeViewEvent; input: QoeViewInput; children: { loadView: 'loadView' } }>(),
  actors: { loadView: providedLater<QoeViewAnswer, QoeViewInput>('loadView') },
  guards: {
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
  },
  actions: {
    storeAnswer: assign({ answer: (_, params: { answer: QoeViewAnswer }) => params.answer, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error), retryable: (_, params: { error: unknown }) => canRetry(params.error) }),
  },
}).createMachine({
  id: 'qoeView',
  description: 'One view: its dimensions and its timeline (start, startup time, bitrate changes, rebuffers, errors, end).',
  context: ({ input }) => ({ ...input, answer: null, error: null, retryable: true }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the view and its timeline.',
      invoke: {
        id: 'loadView',
        src: 'loadView',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: { target: 'ready', actions: { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    ready: { description: 'The dimensions, the timeline in words and its time strip.' },
    notFound: { description: 'No such view on a network the user reads: the page says so, with a way back.' },
    failed: {
      description: 'The view could not be read: the reason, and Retry when asking again can help.',
      on: { 'view.retry': 'loading' },
    },
  },
});

export type QoeViewMachine = typeof qoeViewMachine;
export type QoeViewRef = ActorRefFrom<QoeViewMachine>;
type ViewSnapshot = SnapshotFrom<QoeViewMachine>;

export type QoeOneView = 'loading' | 'ready' | 'notFound' | 'failed';
export function selectOneView(s: ViewSnapshot): QoeOneView {
  if (s.matches('ready')) return 'ready';
  if (s.matches('notFound')) return 'notFound';
  return s.matches('failed') ? 'failed' : 'loading';
}
export const selectViewAnswer = (s: ViewSnapshot): QoeViewAnswer | null => s.context.answer;
export const selectViewError = (s: ViewSnapshot): string | null => s.context.error;
export const selectViewCanRetry = (s: ViewSnapshot): boolean => s.context.retryable;

/** Where each timeline entry falls on the strip, 0–100 % of the time from the first entry to the last. */
export function timelinePositions(timeline: readonly { at: string }[]): number[] {
  const times = timeline.map((e) => Date.parse(e.at));
  const start = Math.min(...times);
  const span = Math.max(...times) - start;
  return times.map((t) => (span > 0 ? Math.round(((t - start) / span) * 1000) / 10 : 0));
}

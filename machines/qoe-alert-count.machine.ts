/**
 * The header's count of open incidents (issue 41) for Dashboard 360 users: read at once, then every
 * 30 seconds while the page is visible (like the real-time reports' poller); a hidden tab stops
 * asking and asks again when it is shown. A failed read keeps the last count (the header is not the
 * place for an error). I/O: src/adapters/qoe-alert-actors.ts.
 */
import { assign, setup, type DoneActorEvent, type SnapshotFrom } from 'xstate';
import { fromCallback } from 'xstate';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export const QOE_ALERT_COUNT_POLL_MS = 30_000;

export interface QoeAlertCountContext {
  /** Open incidents, or null until the first answer. */
  open: number | null;
}

export type QoeAlertCountEvent =
  | { type: 'page.hidden' }
  | { type: 'page.visible' }
  | { type: 'count.refresh' };

export const qoeAlertCountMachine = setup({
  types: machineTypes<{
    context: QoeAlertCountContext; events: QoeAlertCountEvent;
    children: { fetchCount: 'fetchCount'; visibility: 'visibility' };
  }>(),
  actors: {
    fetchCount: providedLater<number>('fetchCount'),
    /** Tells page.hidden / page.visible; by default the page counts as always visible. */
    visibility: fromCallback<QoeAlertCountEvent>(() => () => {}),
  },
  actions: {
    storeCount: assign((_, params: { open: number }) => ({ open: params.open })),
  },
  delays: { pollInterval: QOE_ALERT_COUNT_POLL_MS },
}).createMachine({
  id: 'qoeAlertCount',
  description: 'The count of open incidents in the header, read every 30 seconds while the page is visible.',
  context: { open: null },
  invoke: { id: 'visibility', src: 'visibility' },
  initial: 'visible',
  states: {
    visible: {
      description: 'The page is shown: the count is read, then read again every 30 seconds.',
      initial: 'reading',
      on: { 'page.hidden': { target: 'hidden' } },
      states: {
        reading: {
          description: 'The count of open incidents is being read.',
          invoke: {
            id: 'fetchCount', src: 'fetchCount',
            onDone: { target: 'waiting', actions: { type: 'storeCount', params: ({ event }: { event: DoneActorEvent<number> }) => ({ open: event.output }) } },
            onError: { target: 'waiting' },
          },
        },
        waiting: {
          description: 'Waiting 30 seconds before reading the count again (or sooner when asked).',
          after: { pollInterval: { target: 'reading' } },
          on: { 'count.refresh': { target: 'reading' } },
        },
      },
    },
    hidden: {
      description: 'The tab is hidden: nothing is read until it is shown again.',
      on: { 'page.visible': { target: 'visible' } },
    },
  },
});

export type QoeAlertCountMachine = typeof qoeAlertCountMachine;
export type QoeAlertCountSnapshot = SnapshotFrom<QoeAlertCountMachine>;
export const selectOpenIncidentCount = (s: QoeAlertCountSnapshot) => s.context.open;

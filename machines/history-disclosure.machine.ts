/**
 * A History behind a disclosure (Admin › Staff: the second-factor rule's, and a staff account's in its
 * edit dialog): closed until the person opens it, then the object's History (pageHistoryMachine,
 * child `history`) is started and read; closing it stops it. The owning page machine tells it when the
 * object changed (`disclosure.changed`): an open History reads its revisions again.
 *
 *   closed ⇄ open (history child; changed → read again)
 *
 * With no object (a new staff account) it stays closed. Its `history` logic (the history machine with
 * its I/O) is provided by the wiring file (src/adapters/admin-actors.ts).
 */
import { assign, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RevisionKind } from '../common/revisions';
import { pageHistoryMachine, type HistoryRestored } from './history.machine';
import { machineTypes } from './machine-types';

export interface HistoryDisclosureInput {
  kind: RevisionKind;
  /** The object whose History this is; null while there is none yet (nothing to show). */
  objectId: string | null;
}

export interface HistoryDisclosureContext {
  kind: RevisionKind;
  objectId: string | null;
  /** The restore the History just did, shown again by the fresh History it starts. */
  restored: HistoryRestored | null;
}

export type HistoryDisclosureEvent =
  | { type: 'disclosure.open' }
  | { type: 'disclosure.close' }
  /** The owner changed the object: an open History reads it again. */
  | { type: 'disclosure.changed' }
  /** Reported by the History child (history.machine.ts, `pageHistoryMachine`). */
  | { type: 'history.restored'; restored?: HistoryRestored | null }
  | { type: 'history.stale' };

export const historyDisclosureMachine = setup({
  types: machineTypes<{ input: HistoryDisclosureInput; context: HistoryDisclosureContext; events: HistoryDisclosureEvent; children: { history: 'history' } }>(),
  actors: {
    history: pageHistoryMachine,
  },
  actions: {
    readAgain: sendTo('history', { type: 'history.reload' }),
    storeRestored: assign((_, params: { restored: HistoryRestored | null }) => ({ restored: params.restored })),
    clearRestored: assign({ restored: null }),
  },
  guards: {
    hasObject: ({ context }) => context.objectId !== null,
  },
}).createMachine({
  id: 'historyDisclosure',
  description: 'A History shown on demand: closed, or open with the object\'s History child.',
  context: ({ input }) => ({ kind: input.kind, objectId: input.objectId, restored: null }),
  initial: 'closed',
  states: {
    closed: {
      description: 'Only the disclosure\'s button is shown; nothing is read. With no object yet it cannot open.',
      on: {
        'disclosure.open': { guard: 'hasObject', target: 'open' },
      },
    },
    open: {
      description: 'The object\'s History is shown (read when opened); a change of the object reads it again.',
      invoke: {
        id: 'history',
        src: 'history',
        input: ({ context }) => ({ kind: context.kind, objectId: context.objectId ?? '', restored: context.restored }),
      },
      on: {
        'disclosure.close': { target: 'closed', actions: 'clearRestored' },
        'disclosure.changed': { actions: 'readAgain' },
        'history.restored': {
          target: 'open', reenter: true,
          actions: { type: 'storeRestored', params: ({ event }) => ({ restored: event.restored ?? null }) },
        },
        'history.stale': { target: 'open', reenter: true, actions: 'clearRestored' },
      },
    },
  },
});

export type HistoryDisclosureMachine = typeof historyDisclosureMachine;
export type HistoryDisclosureSnapshot = SnapshotFrom<HistoryDisclosureMachine>;
export type HistoryDisclosureRef = ActorRefFrom<HistoryDisclosureMachine>;
export type DisclosedHistoryRef = ActorRefFrom<typeof pageHistoryMachine>;

export const selectDisclosureOpen = (s: HistoryDisclosureSnapshot | undefined) => s?.matches('open') === true;
/** Whether there is an object whose History can be opened. */
export const selectDisclosureAvailable = (s: HistoryDisclosureSnapshot | undefined) => s !== undefined && s.context.objectId !== null;
/** The History child while open. */
export const selectDisclosedHistory = (s: HistoryDisclosureSnapshot | undefined): DisclosedHistoryRef | undefined => s?.children.history;

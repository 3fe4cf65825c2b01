/**
 * The last launch, withdrawal or copy of the network switcher (issue 38), offered to undo beside the
 * networks: the change's own message goes after MESSAGE_DISPLAY_MS like every network message
 * (spec §4.6), so its Undo cannot live in that message. The `network` actor runs this as its
 * `lastChange` child and tells it each change it made (`lastChange.keep`); the offer lasts as long as
 * the server accepts the undo (UNDO_ACCEPT_MS). Undoing asks the server to write the change's inverse
 * (POST /v1/revisions/undo, the snackbar's I/O) and then tells the `network` actor `undo.done`, which
 * reads the networks and the data shown again.
 *
 *   none ──keep──▶ offered ──undo──▶ undoing ──done──▶ none
 *                    │  ▲                └──error──▶ offered (the server's words shown)
 *                    │  └──keep (a newer change replaces it)
 *                    └──after UNDO_ACCEPT_MS / forget──▶ none
 */
import {
  assign, setup, type ActorRefFrom, type EventObject, type MetaObject, type NonReducibleUnknown, type SetupTypes, type SnapshotFrom,
} from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import { failureMessage } from './failure-message';
import { notify, tellSystemActor } from './system-actions';
import type { ApplyUndoInput, UndoDoneEvent } from './undo.machine';
import { providedLater } from './unprovided';

export type LastChangeKind = 'launch' | 'withdraw' | 'copy';

/** What was changed, in words, and the change's handle (its request, as the adapters know it). */
export interface LastNetworkChange {
  kind: LastChangeKind;
  requestId: string;
  /** 'Kids Zone was launched.' */
  text: string;
}

export type LastChangeEvent =
  | { type: 'lastChange.keep'; change: LastNetworkChange }
  | { type: 'lastChange.undo' }
  /** The site or the role changed: the change is no longer this person's to undo here. */
  | { type: 'lastChange.forget' };

export interface LastChangeContext {
  change: LastNetworkChange | null;
}

const types: SetupTypes<LastChangeContext, LastChangeEvent, never, string, NonReducibleUnknown, NonReducibleUnknown, EventObject, MetaObject> = {};

export const networkLastChangeMachine = setup({
  types,
  actors: {
    /** POST /v1/revisions/undo with the change's request id; provided by the wiring (src/adapters/undo-actors.ts). */
    applyUndo: providedLater<unknown, ApplyUndoInput>('applyUndo'),
  },
  actions: {
    keep: assign((_, params: { change: LastNetworkChange }) => ({ change: params.change })),
    clear: assign({ change: null }),
    notify,
    tellSystemActor,
  },
  delays: {
    undoAccepted: UNDO_ACCEPT_MS,
  },
}).createMachine({
  id: 'networkLastChange',
  description: 'The last launch, withdrawal or copy, offered to undo beside the networks while the server accepts it.',
  context: { change: null },
  initial: 'none',
  on: {
    'lastChange.keep': { target: '.offered', reenter: true, actions: { type: 'keep', params: ({ event }) => ({ change: event.change }) } },
  },
  states: {
    none: {
      description: 'Nothing to undo.',
    },
    offered: {
      description: 'The last change is offered to undo; the offer lapses after UNDO_ACCEPT_MS, when a newer change replaces it, or when the site or role changes.',
      after: { undoAccepted: { target: 'none', actions: 'clear' } },
      on: {
        'lastChange.undo': 'undoing',
        'lastChange.forget': { target: 'none', actions: 'clear' },
      },
    },
    undoing: {
      description: 'The server writes the change\'s inverse as new revisions, with the same checks as an edit.',
      invoke: {
        id: 'applyUndo',
        src: 'applyUndo',
        input: ({ context }) => ({ requestId: context.change?.requestId ?? '' }),
        onDone: {
          target: 'none',
          actions: [
            { type: 'notify', params: { message: UNDO_MESSAGES.undone, severity: 'success', durationMs: MESSAGE_DISPLAY_MS } },
            // The `network` actor reads its networks and the data shown again (as after the snackbar's Undo).
            { type: 'tellSystemActor', params: ({ context }) => ({ systemId: 'network', event: { type: 'undo.done', requestId: context.change?.requestId ?? '' } satisfies UndoDoneEvent }) },
            'clear',
          ],
        },
        onError: {
          target: 'offered',
          actions: { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, UNDO_MESSAGES.failed), severity: 'error' as const, durationMs: MESSAGE_DISPLAY_MS }) },
        },
      },
    },
  },
});

export type NetworkLastChangeMachine = typeof networkLastChangeMachine;
export type NetworkLastChangeRef = ActorRefFrom<NetworkLastChangeMachine>;
export type NetworkLastChangeSnapshot = SnapshotFrom<NetworkLastChangeMachine>;

/** The change offered to undo, or null. */
export const selectOfferedChange = (s: NetworkLastChangeSnapshot | undefined): LastNetworkChange | null =>
  (s && !s.matches('none') ? s.context.change : null);
export const selectIsUndoingChange = (s: NetworkLastChangeSnapshot | undefined): boolean => s?.matches('undoing') === true;

/**
 * A lasting Undo on a page (issue 38, "nothing lost"): the last change a page made, offered to undo by a
 * control on the page itself rather than in its message, which goes after a few seconds. One machine for
 * every page that offers one:
 * - the content library runs it as its `lastBulk` child for a bulk publish / unpublish ("Undo publish of
 *   2 items"; its snackbar message goes after 8 s, `UNDO_OFFER_MS`);
 * - the network switcher runs it as the `network` actor's `lastChange` child for the last launch,
 *   withdrawal or copy ("Kids was launched." beside "Undo launch"; every network message goes after
 *   MESSAGE_DISPLAY_MS, spec §4.6, which the network passes in as `messageDurationMs`).
 * The page tells it each change it made (`lastingUndo.keep`, with the control's words and who reads
 * again) and it offers the last one while the server accepts the undo (`UNDO_ACCEPT_MS`), until a newer
 * change replaces it, the page forgets it (`lastingUndo.forget`: the network's site or role changed) or
 * the page is left (the child stops with the page's state). Undoing asks the server to write the change's
 * inverse (POST /v1/revisions/undo, the snackbar's I/O) and then tells the actor named by `replyTo`
 * `undo.done`, which reads its data again.
 *
 *   none ──keep──▶ offered ──undo──▶ undoing ──done──▶ none
 *                    │  ▲                └──error──▶ offered (the server's words shown)
 *                    │  └──keep (a newer change replaces it)
 *                    └──after UNDO_ACCEPT_MS / forget──▶ none
 */
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import type { NotifyParams } from './notify';
import { notify, tellSystemActor } from './system-actions';
import type { ApplyUndoInput, UndoDoneEvent } from './undo.machine';
import { providedLater } from './unprovided';

/** A change offered to undo: its handle (its request, as the adapters know it), the control's words and who reads again. */
export interface LastingChange {
  requestId: string;
  /** The control's words: 'Undo publish of 2 items', 'Undo launch'. */
  label: string;
  /** The system actor told `undo.done` once undone ('contentBrowser', 'network'). */
  replyTo: string;
  /** What was changed, in words, shown beside the control ('Kids was launched.'); left out where the label says it all. */
  text?: string;
}

/** What the page passes in; without it, its messages show for the notifier's default time. */
export interface LastingUndoInput {
  /** How long its Undone. / refusal messages show (the network: MESSAGE_DISPLAY_MS, spec §4.6). */
  messageDurationMs?: number;
}

export type LastingUndoEvent =
  | { type: 'lastingUndo.keep'; change: LastingChange }
  | { type: 'lastingUndo.undo' }
  /** The change was undone elsewhere, or is no longer this person's to undo here (the network's site or role changed). */
  | { type: 'lastingUndo.forget' };

export interface LastingUndoContext {
  change: LastingChange | null;
  messageDurationMs: number | null;
}

/** A message of this Undo, for as long as the page shows its messages. */
function messageOf(context: LastingUndoContext, message: string, severity: NotifyParams['severity']): NotifyParams {
  return context.messageDurationMs === null ? { message, severity } : { message, severity, durationMs: context.messageDurationMs };
}

export const lastingUndoMachine = setup({
  types: machineTypes<{
    context: LastingUndoContext; events: LastingUndoEvent; input: LastingUndoInput | undefined;
    children: { applyUndo: 'applyUndo' };
  }>(),
  actors: {
    /** POST /v1/revisions/undo with the change's request id; provided by the wiring (src/adapters/undo-actors.ts). */
    applyUndo: providedLater<unknown, ApplyUndoInput>('applyUndo'),
  },
  actions: {
    keep: assign((_, params: { change: LastingChange }) => ({ change: params.change })),
    clear: assign({ change: null }),
    notify,
    tellSystemActor,
  },
  delays: {
    undoAccepted: UNDO_ACCEPT_MS,
  },
}).createMachine({
  id: 'lastingUndo',
  description: 'The last change of a page, offered to undo on the page while the server accepts it.',
  context: ({ input }) => ({ change: null, messageDurationMs: input?.messageDurationMs ?? null }),
  initial: 'none',
  on: {
    'lastingUndo.keep': { target: '.offered', reenter: true, actions: { type: 'keep', params: ({ event }) => ({ change: event.change }) } },
  },
  states: {
    none: {
      description: 'Nothing to undo.',
    },
    offered: {
      description: 'The last change is offered to undo; the offer lapses after UNDO_ACCEPT_MS, when a newer change replaces it, or when the page forgets it (the site or role changed).',
      after: { undoAccepted: { target: 'none', actions: 'clear' } },
      on: {
        'lastingUndo.undo': 'undoing',
        'lastingUndo.forget': { target: 'none', actions: 'clear' },
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
            { type: 'notify', params: ({ context }) => messageOf(context, UNDO_MESSAGES.undone, 'success') },
            // The page's actor reads its data again (as after the snackbar's Undo).
            {
              type: 'tellSystemActor',
              params: ({ context }) => ({ systemId: context.change?.replyTo ?? '', event: { type: 'undo.done', requestId: context.change?.requestId ?? '' } satisfies UndoDoneEvent }),
            },
            'clear',
          ],
        },
        onError: {
          target: 'offered',
          actions: { type: 'notify', params: ({ context, event }) => messageOf(context, failureMessage(event.error, UNDO_MESSAGES.failed), 'error') },
        },
      },
    },
  },
});

export type LastingUndoMachine = typeof lastingUndoMachine;
export type LastingUndoRef = ActorRefFrom<LastingUndoMachine>;
export type LastingUndoSnapshot = SnapshotFrom<LastingUndoMachine>;

/** The change offered to undo, or null. */
export const selectLastingChange = (s: LastingUndoSnapshot | undefined): LastingChange | null =>
  (s && !s.matches('none') ? s.context.change : null);
export const selectIsUndoingLasting = (s: LastingUndoSnapshot | undefined): boolean => s?.matches('undoing') === true;

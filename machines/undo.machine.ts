/**
 * Undo after a change (issue 28), as the snackbar's (`notifier`) child: the offer stays for
 * UNDO_OFFER_MS; taking it asks the server to write the change's inverse as new revisions
 * (POST /v1/revisions/undo with the change's request id). Once undone, the actor that made the
 * change (`replyTo`, a systemId such as `contentBrowser` or `network`) is told `undo.done`, so it
 * reads its data again. The outcome (undone, failed with the server's words, expired) is the
 * machine's output, which the notifier shows.
 *
 *   offered ──undo.apply──▶ undoing ──done──▶ undone
 *      │                       └──error──▶ failed
 *      └──after UNDO_OFFER_MS / undo.dismiss──▶ expired
 */
import { assign, enqueueActions, setup, type AnyActorRef } from 'xstate';
import { UNDO_MESSAGES, UNDO_OFFER_MS } from '../common/undo';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

/** What a change offers to undo: its request id, and who to tell once it is undone. */
export interface UndoOffer {
  requestId: string;
  /** The systemId of the actor that made the change (told `undo.done`). */
  replyTo?: string;
  /** The actor that made the change, when it is not a system actor (a page's machine): told `undo.done` too. */
  replyRef?: AnyActorRef;
}

export interface ApplyUndoInput {
  requestId: string;
}

export type UndoOutcome = 'undone' | 'failed' | 'expired';

export interface UndoOutput {
  outcome: UndoOutcome;
  message: string;
}

export interface UndoContext extends UndoOffer {
  outcome: UndoOutcome;
  message: string;
}

export type UndoEvent =
  | { type: 'undo.apply' }
  | { type: 'undo.dismiss' };

/** What the owner of a change is told once its change is undone. */
export interface UndoDoneEvent {
  type: 'undo.done';
  requestId: string;
}

export const undoMachine = setup({
  types: machineTypes<{ context: UndoContext; events: UndoEvent; input: UndoOffer; output: UndoOutput }>(),
  actors: {
    applyUndo: providedLater<unknown, ApplyUndoInput>('applyUndo'),
  },
  actions: {
    settle: assign((_, params: { outcome: UndoOutcome; message: string }) => params),
    tellOwner: enqueueActions(({ context, enqueue, system }) => {
      const owner = context.replyRef ?? (context.replyTo ? system.get(context.replyTo) : undefined);
      const done: UndoDoneEvent = { type: 'undo.done', requestId: context.requestId };
      if (owner) enqueue.sendTo(owner, done);
    }),
  },
  delays: {
    offerTime: UNDO_OFFER_MS,
  },
}).createMachine({
  id: 'undo',
  description: 'Undo after a change: offered for a few seconds, then the inverse is written by the server as new revisions.',
  context: ({ input }) => ({ ...input, outcome: 'expired', message: '' }),
  initial: 'offered',
  states: {
    offered: {
      description: 'The snackbar offers Undo; the offer lapses after UNDO_OFFER_MS or when the snackbar is dismissed.',
      after: { offerTime: 'expired' },
      on: {
        'undo.apply': 'undoing',
        'undo.dismiss': 'expired',
      },
    },
    undoing: {
      description: 'The server writes the change\'s inverse (one new revision per object), with the same checks as an edit.',
      invoke: {
        id: 'applyUndo',
        src: 'applyUndo',
        input: ({ context }) => ({ requestId: context.requestId }),
        onDone: { target: 'undone', actions: [{ type: 'settle', params: { outcome: 'undone', message: UNDO_MESSAGES.undone } }, 'tellOwner'] },
        onError: {
          target: 'failed',
          actions: { type: 'settle', params: ({ event }) => ({ outcome: 'failed' as const, message: failureMessage(event.error, UNDO_MESSAGES.failed) }) },
        },
      },
    },
    undone: {
      description: 'The change is undone; its owner was told to read its data again.',
      type: 'final',
    },
    failed: {
      description: 'The server refused or could not be reached (the object changed since, the role, the network); the reason is the output.',
      type: 'final',
    },
    expired: {
      description: 'The offer lapsed or was dismissed: the change stays.',
      type: 'final',
    },
  },
  output: ({ context }) => ({ outcome: context.outcome, message: context.message }),
});

export type UndoMachine = typeof undoMachine;

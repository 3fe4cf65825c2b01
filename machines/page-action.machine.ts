/**
 * One action a list page runs outside its editor (delete a plan, duplicate it, export coupons as
 * CSV): the page sends `action.request` with the action's name and input; actions named in the
 * input's `confirm` list ask first. The work is the `perform` actor the page provides; its answer is
 * the message to show. The provided `performed` action tells the page something changed (it
 * reloads its list).
 *
 *   settled.idle → (confirming →) running → settled.done | settled.failed
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import { OWN_MESSAGES } from '../common/messages';
import { errorMessage, type NotifyParams } from './notify';
import { notify } from './system-actions';
import type { UndoOffer } from './undo.machine';
import { providedLater } from './unprovided';

/** Plain values, or a file the person chose (an upload: a Blob, which browsers and Node both know). */
export type PageActionArgs = Readonly<Record<string, string | number | Blob>>;

export interface PageActionRequest {
  name: string;
  args: PageActionArgs;
  /** What the action applies to, as the question before it names it (a plan's name). */
  label: string;
}

/**
 * What `perform` answers: the message to show, or the message with what the action changed for the
 * page: fields to put into its draft (an uploaded file's address) or that the stored record changed
 * (a rotated key) so the page reads it again.
 */
export type PageActionAnswer = string | {
  message: string;
  draft?: Readonly<Record<string, string>>;
  reread?: boolean;
  /** Issue 28: the action's request id (the server's, from its answer's x-request-id; issue 37): the snackbar offers Undo of it, this page told once undone. */
  undoRequestId?: string;
};

/** What the provided `performed` action is told: the answer's effects on the page (none for a plain message or a failure). */
export interface PageActionEffects {
  draft: Readonly<Record<string, string>>;
  reread: boolean;
}

const NO_EFFECTS: PageActionEffects = { draft: {}, reread: false };

function effectsOf(answer: PageActionAnswer): PageActionEffects {
  return typeof answer === 'string' ? NO_EFFECTS : { draft: answer.draft ?? {}, reread: answer.reread === true };
}

export interface PageActionInput {
  /** Names of the actions that ask before they run. */
  confirm?: readonly string[];
}

export interface PageActionContext {
  confirm: readonly string[];
  request: PageActionRequest | null;
  /** The answer of the last action that ran (null while none did, or when it failed). */
  message: string | null;
  error: string | null;
  /** The Undo the last answer's message offers in the snackbar (issue 28), else null. */
  undoOffer: UndoOffer | null;
}

export type PageActionEvent =
  | ({ type: 'action.request' } & PageActionRequest)
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }
  | { type: 'action.dismiss' }
  | { type: 'undo.done'; requestId: string };

export const pageActionMachine = setup({
  types: machineTypes<{ input: PageActionInput; context: PageActionContext; events: PageActionEvent; children: { perform: 'perform' } }>(),
  actors: {
    perform: providedLater<PageActionAnswer, PageActionRequest>('perform'),
  },
  actions: {
    storeRequest: assign((_, params: { request: PageActionRequest }) => ({ request: params.request, message: null, error: null })),
    forgetRequest: assign({ request: null }),
    storeMessage: assign(({ self }, params: { answer: PageActionAnswer }) => ({
      message: typeof params.answer === 'string' ? params.answer : params.answer.message,
      error: null,
      undoOffer: typeof params.answer !== 'string' && params.answer.undoRequestId ? { requestId: params.answer.undoRequestId, replyRef: self } : null,
    })),
    storeError: assign((_, params: { message: string }) => ({ error: params.message, message: null })),
    clearOutcome: assign({ message: null, error: null, request: null }),
    notify,
    /** Provided by the page: what the action changed is shown again (the list reloads, the draft takes an upload). */
    performed: (_, params: PageActionEffects) => { void params; },
  },
  guards: {
    offersUndo: (_, params: { answer: PageActionAnswer }) => typeof params.answer !== 'string' && params.answer.undoRequestId !== undefined,
    asksFirst: ({ context }, params: { name: string }) => context.confirm.includes(params.name),
  },
}).createMachine({
  id: 'pageAction',
  description: 'Runs one page action at a time (asking first for those that need it) and keeps its answer to show.',
  context: ({ input }) => ({ confirm: input.confirm ?? [], request: null, message: null, error: null, undoOffer: null }),
  initial: 'settled',
  on: {
    // Issue 28: the snackbar's Undo of this page's action went through: the page reads its data again.
    'undo.done': { actions: { type: 'performed', params: { draft: {}, reread: true } } },
  },
  states: {
    settled: {
      description: 'No action running: a request asks first when its name is in `confirm`, else it runs at once.',
      initial: 'idle',
      on: {
        'action.request': [
          {
            guard: { type: 'asksFirst', params: ({ event }) => ({ name: event.name }) },
            target: 'confirming',
            actions: { type: 'storeRequest', params: ({ event }) => ({ request: { name: event.name, args: event.args, label: event.label } }) },
          },
          { target: 'running', actions: { type: 'storeRequest', params: ({ event }) => ({ request: { name: event.name, args: event.args, label: event.label } }) } },
        ],
      },
      states: {
        idle: {
          description: 'Nothing has run yet, or the last answer was dismissed.',
        },
        done: {
          description: 'The action ran; its answer shows until dismissed or the next action.',
          on: { 'action.dismiss': { target: 'idle', actions: 'clearOutcome' } },
        },
        failed: {
          description: 'The action was refused or the server unreachable; the message shows until dismissed or the next action.',
          on: { 'action.dismiss': { target: 'idle', actions: 'clearOutcome' } },
        },
      },
    },
    confirming: {
      description: 'The person is asked whether to go ahead.',
      on: {
        'action.confirm': 'running',
        'action.cancel': { target: 'settled', actions: 'forgetRequest' },
      },
    },
    running: {
      description: 'The action runs; requests wait for it to finish.',
      invoke: {
        id: 'perform',
        src: 'perform',
        input: ({ context }) => context.request!,
        onDone: [
          {
            // Issue 28: a change that can be undone also shows in the snackbar, with Undo.
            guard: { type: 'offersUndo', params: ({ event }) => ({ answer: event.output }) },
            target: 'settled.done',
            actions: [
              { type: 'storeMessage', params: ({ event }) => ({ answer: event.output }) }, { type: 'performed', params: ({ event }) => effectsOf(event.output) },
              { type: 'notify', params: ({ context }): NotifyParams => ({ message: context.message ?? '', severity: 'success', ...(context.undoOffer ? { undo: context.undoOffer } : {}) }) },
            ],
          },
          {
            target: 'settled.done',
            actions: [{ type: 'storeMessage', params: ({ event }) => ({ answer: event.output }) }, { type: 'performed', params: ({ event }) => effectsOf(event.output) }],
          },
        ],
        onError: {
          target: 'settled.failed',
          actions: [{ type: 'storeError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.actionFailed) }) }, { type: 'performed', params: NO_EFFECTS }],
        },
      },
    },
  },
});

export type PageActionMachine = typeof pageActionMachine;
export type PageActionSnapshot = SnapshotFrom<PageActionMachine>;

export const selectActionPending = (snapshot: PageActionSnapshot) => (snapshot.matches('confirming') ? snapshot.context.request : null);
export const selectActionRunning = (snapshot: PageActionSnapshot) => (snapshot.matches('running') ? snapshot.context.request : null);
export const selectActionMessage = (snapshot: PageActionSnapshot) => snapshot.context.message;
export const selectActionError = (snapshot: PageActionSnapshot) => snapshot.context.error;

/**
 * The top snackbar (spec §2.10): one message at a time, of type success, error, warning or info,
 * auto-dismissed after a configurable time. Other machines reach it as the `notifier` system actor.
 *
 * A message may offer Undo (issue 28): the snackbar then owns an `undo` child
 * (machines/undo.machine.ts) for as long as the offer stands; its outcome replaces the message
 * ("Undone.", or why it failed), or the message goes when the offer lapses.
 */
import { assign, sendTo, setup, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { undoMachine, type UndoOffer, type UndoOutput } from './undo.machine';

export type Severity = 'success' | 'error' | 'warning' | 'info';

export interface Notification {
  id: number;
  message: string;
  severity: Severity;
  durationMs: number;
  /** The change this message offers to undo, if any. */
  undo: UndoOffer | null;
  /** Undo was taken and the server is writing it. */
  undoing: boolean;
}

export type NotifierEvent =
  | { type: 'notify.show'; message: string; severity: Severity; durationMs?: number; undo?: UndoOffer }
  | { type: 'notify.dismiss' }
  /** The operator took the Undo the message offers. */
  | { type: 'notify.undo' };

export interface NotifierContext {
  current: Notification | null;
  nextId: number;
}

export const notifierMachine = setup({
  types: machineTypes<{ context: NotifierContext; events: NotifierEvent; children: { undo: 'undo' } }>(),
  actors: {
    undo: undoMachine,
  },
  actions: {
    showNotification: assign(({ context, event }) => {
      if (event.type !== 'notify.show') return {};
      return {
        current: {
          id: context.nextId,
          message: event.message,
          severity: event.severity,
          durationMs: event.durationMs ?? MESSAGE_DISPLAY_MS,
          undo: event.undo ?? null,
          undoing: false,
        },
        nextId: context.nextId + 1,
      };
    }),
    /** The undo's outcome replaces the message (no Undo offered any more). */
    showOutcome: assign(({ context }, params: { output: UndoOutput }) => ({
      current: {
        id: context.nextId,
        message: params.output.message,
        severity: params.output.outcome === 'undone' ? 'success' as const : 'error' as const,
        durationMs: MESSAGE_DISPLAY_MS,
        undo: null,
        undoing: false,
      },
      nextId: context.nextId + 1,
    })),
    markUndoing: assign(({ context }) => ({ current: context.current ? { ...context.current, undoing: true } : null })),
    applyUndo: sendTo('undo', { type: 'undo.apply' }),
    clearNotification: assign({ current: null }),
  },
  guards: {
    offersUndo: ({ event }) => event.type === 'notify.show' && event.undo !== undefined,
    isUndoing: ({ context }) => context.current?.undoing === true,
    wasUndone: (_, params: { output: UndoOutput }) => params.output.outcome === 'undone',
    undoFailed: (_, params: { output: UndoOutput }) => params.output.outcome === 'failed',
  },
  delays: {
    displayTime: ({ context }) => context.current?.durationMs ?? MESSAGE_DISPLAY_MS,
  },
}).createMachine({
  id: 'notifier',
  description: 'The top snackbar: shows one message at a time and hides it after its display time; a message may offer Undo.',
  context: { current: null, nextId: 1 },
  initial: 'hidden',
  on: {
    'notify.show': [
      { guard: 'offersUndo', target: '.offering', reenter: true, actions: 'showNotification' },
      { target: '.visible', reenter: true, actions: 'showNotification' },
    ],
  },
  states: {
    hidden: {
      description: 'No message on screen.',
    },
    visible: {
      description: 'A message is on screen; it hides after its display time or when dismissed. A new message replaces it and restarts the timer.',
      after: { displayTime: { target: 'hidden', actions: 'clearNotification' } },
      on: {
        'notify.dismiss': { target: 'hidden', actions: 'clearNotification' },
      },
    },
    offering: {
      description: 'A message offering Undo is on screen, for as long as its undo child offers it; a new message replaces it (the offer lapses).',
      invoke: {
        id: 'undo',
        src: 'undo',
        input: ({ context }) => context.current?.undo ?? { requestId: '' },
        onDone: [
          { guard: { type: 'wasUndone', params: ({ event }) => ({ output: event.output }) }, target: 'visible', actions: { type: 'showOutcome', params: ({ event }) => ({ output: event.output }) } },
          { guard: { type: 'undoFailed', params: ({ event }) => ({ output: event.output }) }, target: 'visible', actions: { type: 'showOutcome', params: ({ event }) => ({ output: event.output }) } },
          { target: 'hidden', actions: 'clearNotification' },
        ],
      },
      on: {
        'notify.undo': [
          { guard: 'isUndoing' },
          { actions: ['markUndoing', 'applyUndo'] },
        ],
        'notify.dismiss': [
          // Once taken, the undo finishes and its outcome shows.
          { guard: 'isUndoing' },
          { target: 'hidden', actions: 'clearNotification' },
        ],
      },
    },
  },
});

export type NotifierMachine = typeof notifierMachine;
export type NotifierSnapshot = SnapshotFrom<NotifierMachine>;

export const selectNotification = (snapshot: { context: NotifierContext }) => snapshot.context.current;

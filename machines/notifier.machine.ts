/**
 * The top snackbar (spec §2.10): one message at a time, of type success, error, warning or info,
 * auto-dismissed after a configurable time. Other machines reach it as the `notifier` system actor.
 */
import { assign, setup } from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';

export type Severity = 'success' | 'error' | 'warning' | 'info';

export interface Notification {
  id: number;
  message: string;
  severity: Severity;
  durationMs: number;
}

export type NotifierEvent =
  | { type: 'notify.show'; message: string; severity: Severity; durationMs?: number }
  | { type: 'notify.dismiss' };

export interface NotifierContext {
  current: Notification | null;
  nextId: number;
}

export const notifierMachine = setup({
  types: {
    context: {} as NotifierContext,
    events: {} as NotifierEvent,
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
        },
        nextId: context.nextId + 1,
      };
    }),
    clearNotification: assign({ current: null }),
  },
  delays: {
    displayTime: ({ context }) => context.current?.durationMs ?? MESSAGE_DISPLAY_MS,
  },
}).createMachine({
  id: 'notifier',
  description: 'The top snackbar: shows one message at a time and hides it after its display time.',
  context: { current: null, nextId: 1 },
  initial: 'hidden',
  states: {
    hidden: {
      description: 'No message on screen.',
      on: { 'notify.show': { target: 'visible', actions: 'showNotification' } },
    },
    visible: {
      description: 'A message is on screen; it hides after its display time or when dismissed. A new message replaces it and restarts the timer.',
      after: { displayTime: { target: 'hidden', actions: 'clearNotification' } },
      on: {
        'notify.show': { target: 'visible', reenter: true, actions: 'showNotification' },
        'notify.dismiss': { target: 'hidden', actions: 'clearNotification' },
      },
    },
  },
});

export type NotifierMachine = typeof notifierMachine;

export const selectNotification = (snapshot: { context: NotifierContext }) => snapshot.context.current;

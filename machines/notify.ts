/**
 * The words machines send to the `notifier` system actor. Each machine wraps this in a named
 * `notify` action that does nothing when no notifier is registered (isolated tests).
 */
import type { NotifierEvent, Severity } from './notifier.machine';
import type { UndoOffer } from './undo.machine';

export interface NotifyParams {
  message: string;
  severity: Severity;
  durationMs?: number;
  /** The change this message offers to undo (issue 28). */
  undo?: UndoOffer;
}

export function showNotification(params: NotifyParams): NotifierEvent {
  return { type: 'notify.show', ...params };
}

export { errorMessage, failureMessage } from './failure-message';

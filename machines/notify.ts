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

/** The message of an unknown thrown value (actors reject with ApiError or Error). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

/**
 * The text to show when an I/O actor rejects: a transport failure (no HTTP status) reads as "server
 * unreachable"; an error with a message shows that message.
 */
export function failureMessage(error: unknown, fallback: string): string {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 0) return fallback;
  return errorMessage(error, fallback);
}

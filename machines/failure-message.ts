/**
 * The text of a failed I/O call, shared by every machine (re-exported by ./notify). Its own module so a
 * machine the notifier runs (the undo offer) can use it without an import cycle through ./notify.
 */

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

/**
 * Undo after a change (issue 28): how long it is offered and accepted, the call that makes it, the
 * header that names a change's request, and what the undo says. Apart from common/revisions.ts (which
 * re-exports these) because the snackbar's undo is on the sign-in page's first load and needs only
 * this (issue 39).
 */

/**
 * How long the snackbar offers Undo after a change (machines/undo.machine.ts). The server accepts
 * an undo for UNDO_ACCEPT_MS (longer: the offer may be taken at its last moment on a slow line).
 */
export const UNDO_OFFER_MS = 8_000;
export const UNDO_ACCEPT_MS = 10 * 60_000;

/**
 * The header every answer names its request with (issue 37: a UUID the server mints; what a caller
 * sends in it is ignored): the revisions and audit rows of that request carry it as their request
 * id, and `POST ${UNDO_PATH}` with it reverses them.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** POST with { requestId }: writes each revision of that request back to its `before` values, newest first. */
export const UNDO_PATH = '/v1/revisions/undo';

/** What the undo call and the snackbar say (server/domain/history.ts, machines/undo.machine.ts). */
export const UNDO_MESSAGES = {
  action: 'Undo',
  undoing: 'Undoing…',
  undone: 'Undone.',
  failed: 'The change could not be undone.',
  nothing: 'There is nothing of yours to undo for that change.',
  expired: 'That change is too old to undo: restore it from its history instead.',
  /** Issue 37: an undo is one transaction; any object changed since refuses all of it, naming them ("content item X"). */
  changedSinceAll: (objects: readonly string[]) => objects.length === 1
    ? `The ${objects[0]} changed since: undo refused, nothing was changed. Restore it from its history instead.`
    : `${objects.length} objects changed since (${objects.slice(0, 10).join(', ')}${objects.length > 10 ? `, and ${objects.length - 10} more` : ''}): undo refused, nothing was changed. Restore them from their history instead.`,
  /** Issue 37: a change that created an object is not undone (the console never offers it). */
  creation: (label: string, name: string | null) => `This change created the ${label}${name ? ` ${name}` : ''}: a creation cannot be undone. Archive or delete it from its own page instead.`,
  notUndoable: (label: string) => `A change of a ${label} cannot be undone.`,
  reason: (requestId: string) => `Undo of request ${requestId}`,
  /** The reason a subscription's resume records when it undoes a "cancel at period end". */
  resumeReason: 'Undo of cancel at period end',
} as const;

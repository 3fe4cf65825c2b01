/**
 * The request a database write belongs to (issue 28): an AsyncLocalStorage store opened for every
 * route (server/http/revision-routes.ts through server/domain/revisions.ts's `revisionContextHook`).
 * It sits beside both layers (issue 39: server/domain/ never imports server/db/), so the repositories can
 * stamp the audit row with the request id the same request's revisions carry, and the audit log can show
 * a row's changes from its revisions.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  requestId?: string;
  /** The revision a restore from a History writes back (issue 38): its audit rows are recorded as the restore. */
  restoreOf?: number;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

/** The current request's id, or null outside a request (maintenance, seeds, tests calling a domain function directly). */
export function currentRequestId(): string | null {
  return requestScope.getStore()?.requestId ?? null;
}

/** The revision the current request restores from its History, or null (a save, an undo, maintenance). */
export function currentRestoreOf(): number | null {
  return requestScope.getStore()?.restoreOf ?? null;
}

/**
 * Undo's I/O (issue 28): the snackbar's undo child asks the server to write a change's inverse
 * (POST /v1/revisions/undo with the change's request id).
 *
 * Issue 37: the server names every request (a UUID in the answer's x-request-id header; what a
 * client sends is ignored), so no caller can attach its writes to another's request. A machine
 * names a change that offers Undo with a handle of its own (a local UUID, never sent); the write's
 * adapter records the id the server answered under that handle (`rememberRequestId`), and the
 * undo asks with the server's id (`serverRequestIdOf`).
 */
import { fromPromise } from 'xstate';
import { API_MESSAGES as MESSAGES } from '../../common/messages/api';
import type { RevisionUndoResponse } from '../../common/revisions';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES, UNDO_PATH } from '../../common/undo';
import type { ApplyUndoInput } from '../../machines/undo.machine';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import { clearReportCache } from '../api/report-cache';
import { readCredentials } from './session-store';

/** Handle → the server's id and when it was answered (kept while the server accepts the undo). */
const answered = new Map<string, { requestId: string; at: number }>();

/** Records the id the server named a change with, under the machine's handle for that change. */
export function rememberRequestId(handle: string | undefined, requestId: string | null, now = Date.now()): void {
  for (const [key, entry] of answered) if (now - entry.at > UNDO_ACCEPT_MS) answered.delete(key);
  if (handle && requestId) answered.set(handle, { requestId, at: now });
}

/** The server's id of the change a machine's handle names (the handle itself when none was answered: the server then finds nothing). */
export function serverRequestIdOf(handle: string): string {
  return answered.get(handle)?.requestId ?? handle;
}

/**
 * After an Undo committed, the other tabs' report pages are told (issue 38, ./write-signals.ts): an Undo may
 * reverse a refund or a subscription change, so both kinds are posted and each report machine decides. Loaded
 * on use, so the signals stay out of the sign-in page's first load.
 */
export function announceUndo(): Promise<void> {
  return import('./write-signals').then((signals) => {
    signals.postWrite('payment');
    signals.postWrite('subscription');
  }, () => undefined);
}

export function createUndoActors(read: () => { accessToken: string; apiKey: string } | null = readCredentials, announce: () => unknown = announceUndo) {
  return {
    applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input, signal }): Promise<RevisionUndoResponse> => {
      const credentials = read();
      if (!credentials) throw new ApiError(MESSAGES.credentialsMissing, 401);
      const answer = await apiRequest<RevisionUndoResponse & { message?: string }>(UNDO_PATH, {
        method: 'POST', body: { requestId: serverRequestIdOf(input.requestId) }, headers: authHeaders(credentials), signal,
      });
      if (answer.status !== 200) throw new ApiError(answer.message ?? UNDO_MESSAGES.failed, answer.status, answer);
      // An undone refund or cancellation moves the figures too (issue 38): cached report answers are dropped.
      clearReportCache();
      void announce();
      return answer;
    }),
  };
}

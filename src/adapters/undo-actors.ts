/**
 * Undo's I/O (issue 28): the snackbar's undo child asks the server to write a change's inverse
 * (POST /v1/revisions/undo with the change's request id), and the writes that offer Undo name
 * themselves with a fresh request id (the x-request-id header), which their revisions carry.
 */
import { fromPromise } from 'xstate';
import { MESSAGES } from '../../common/messages';
import { REQUEST_ID_HEADER, UNDO_MESSAGES, UNDO_PATH, type RevisionUndoResponse } from '../../common/revisions';
import type { ApplyUndoInput } from '../../machines/undo.machine';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import { readCredentials } from './session-store';

/** A new request id for a write that offers Undo, and the header that carries it. */
export function newUndoableRequest(): { requestId: string; headers: Record<string, string> } {
  const requestId = crypto.randomUUID();
  return { requestId, headers: { [REQUEST_ID_HEADER]: requestId } };
}

export function createUndoActors(read: () => { accessToken: string; apiKey: string } | null = readCredentials) {
  return {
    applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input, signal }): Promise<RevisionUndoResponse> => {
      const credentials = read();
      if (!credentials) throw new ApiError(MESSAGES.credentialsMissing, 401);
      const answer = await apiRequest<RevisionUndoResponse & { message?: string }>(UNDO_PATH, {
        method: 'POST', body: { requestId: input.requestId }, headers: authHeaders(credentials), signal,
      });
      if (answer.status !== 200) throw new ApiError(answer.message ?? UNDO_MESSAGES.failed, answer.status, answer);
      return answer;
    }),
  };
}

/**
 * The History panel's I/O (issue 28): the history machine's `load` (GET /v1/revisions/:kind/:objectId)
 * and `restore` (POST /v1/revisions/:seq/restore with the editor's version), over the REST client
 * with the session's credentials. A refusal rejects with the server's message and its HTTP status
 * (409: the history machine's conflict).
 */
import { fromPromise } from 'xstate';
import { HISTORY_PANEL_MESSAGES, REVISION_PATHS, type RevisionHistoryResponse, type RevisionRestoreResponse } from '../../common/revisions';
import type { HistoryLoadInput, HistoryPage, HistoryRestoreInput, HistoryRestoreOutput } from '../../machines/history.machine';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import { readNetworkCredentials } from './network-credentials';

function headers(): Record<string, string> {
  const credentials = readNetworkCredentials();
  return credentials ? authHeaders(credentials) : {};
}

/** The answer as the route declares it; a refusal (4xx/5xx, whose body is `{ message }`) rejects with its words. */
async function call<T extends object>(url: string, fallback: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const answer = await apiRequest<T & { message?: unknown }>(url, { method: body === undefined ? 'GET' : 'POST', body, headers: headers(), ...(signal ? { signal } : {}) });
  if (answer.status >= 400) throw new ApiError(typeof answer.message === 'string' ? answer.message : fallback, answer.status, answer);
  return answer;
}

export function historyActors() {
  return {
    load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input, signal }) => {
      const url = `${REVISION_PATHS.history}/${encodeURIComponent(input.kind)}/${encodeURIComponent(input.objectId)}?page=${input.page}`;
      const body = await call<RevisionHistoryResponse>(url, HISTORY_PANEL_MESSAGES.loadFailed, undefined, signal);
      return { items: body.items, total: body.total, page: body.page, pageSize: body.pageSize, canRestore: body.canRestore, restorable: body.restorable };
    }),
    restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async ({ input, signal }) => {
      const body = await call<RevisionRestoreResponse>(`${REVISION_PATHS.restore}/${input.seq}/restore`, HISTORY_PANEL_MESSAGES.restoreFailed, { version: input.version }, signal);
      return { revision: body.revision, version: body.version };
    }),
  };
}

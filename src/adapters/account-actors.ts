/**
 * The real I/O of the Account pages: the own-sessions machine over `/v3.0/user/account/sessions` with the stored
 * credentials. A failure rejects with an ApiError carrying the server's message and status; a 401
 * goes through the client's handler (to /logout) like every signed-in call.
 */
import { fromPromise } from 'xstate';
import type { EndSessionsResponse, StaffSessionsResponse } from '../../common/admin-contract';
import { API_PATHS } from '../../common/constants';
import { ACCOUNT_MESSAGES } from '../../common/messages';
import { ownSessionsMachine, type EndOwnSessionInput, type OwnSession } from '../../machines/own-sessions.machine';
import { totpEnrolmentMachine } from '../../machines/totp-enrolment.machine';
import { ApiError, apiRequest, authHeaders, type RequestOptions } from '../api/client';
import { navigateTo } from './navigation';
import { readCredentials } from './session-store';
import { copyToClipboard, totpEnrolmentImplementations } from './totp-actors';

async function call<T>(path: string, fallback: string, options: RequestOptions = {}): Promise<T> {
  const credentials = readCredentials();
  const headers = credentials ? authHeaders(credentials) : {};
  const response = await apiRequest<T & { success?: boolean; message?: string }>(`${API_PATHS.accountSessions}${path}`, { ...options, headers: { ...headers, ...options.headers } });
  if (response.status >= 400 || response.success === false) throw new ApiError(response.message || fallback, response.status, response);
  return response;
}

const ownSessionsImplementations = {
  actors: {
    fetchSessions: fromPromise<OwnSession[]>(async ({ signal }) =>
      (await call<StaffSessionsResponse>('', ACCOUNT_MESSAGES.sessionsFailed, { signal })).sessions),
    endSession: fromPromise<EndSessionsResponse, EndOwnSessionInput>(({ input, signal }) =>
      call<EndSessionsResponse>(`/${encodeURIComponent(input.sessionId)}`, ACCOUNT_MESSAGES.sessionEndFailed, { method: 'DELETE', signal })),
  },
  actions: {
    navigate: (_: unknown, params: { to: string }) => navigateTo(params.to),
  },
};

/**
 * The Account area's wiring file (issue 26): its page machines with their real I/O, read by
 * src/adapters/page-logic.ts when an Account page first renders. The two-factor page passes the
 * session-wide auth actor as its machine's input (`reportEnrolled` tells it).
 */
export const accountPages = {
  ownSessions: ownSessionsMachine.provide(ownSessionsImplementations),
  twoFactor: totpEnrolmentMachine.provide({
    ...totpEnrolmentImplementations,
    actions: { copyCodes: (_, params) => void copyToClipboard(params.codes.join('\n')) },
  }),
};

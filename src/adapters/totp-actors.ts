/**
 * The real I/O of the authenticator-app machines (issue 19): the sign-in step's verify (POST
 * otp/verify with the login answer's proof), the account page's enrolment machine over
 * /v3.0/user/account/totp. A failure rejects with an ApiError
 * carrying the server's message; signed-in calls go through the client's 401 handling like the rest.
 */
import { fromPromise } from 'xstate';
import { API_PATHS } from '../../common/constants';
import type { VerifyOtpResponse } from '../../common/contract';
import {
  TOTP_MESSAGES, TOTP_PATHS,
  type TotpPlainResponse, type TotpRecoveryCodesResponse, type TotpStartResponse, type TotpStatusResponse,
} from '../../common/totp';
import type { VerifyAuthenticatorInput } from '../../machines/auth.machine';
import type { TotpCodeInput, TotpDisableInput } from '../../machines/totp-enrolment.machine';
import { ApiError, apiRequest, authHeaders, type RequestOptions } from '../api/client';
import { readCredentials, readLoginAttempt } from './session-store';

/** The sign-in step: the app's code or a recovery code, with the proof the password step handed out. */
export const verifyAuthenticator = fromPromise<VerifyOtpResponse, VerifyAuthenticatorInput>(async ({ input, signal }) => {
  const proof = readLoginAttempt(input.username);
  const response = await apiRequest<VerifyOtpResponse & { message?: string }>(API_PATHS.verifyOtp, {
    body: {
      username: input.username, otp: input.code, isLogin: true,
      ...(input.deviceId ? { deviceId: input.deviceId } : {}),
      ...(proof ? { loginAttemptToken: proof } : {}),
    },
    signal, handleAuthErrors: false,
  });
  // A refusal of the code answers the spec's shape (success false); only other failures throw.
  if (response.status >= 400 && typeof response.success !== 'boolean') {
    throw new ApiError(response.message || TOTP_MESSAGES.requestFailed, response.status, response);
  }
  return response;
});

async function call<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const credentials = readCredentials();
  const headers = credentials ? authHeaders(credentials) : {};
  const response = await apiRequest<T & { success?: boolean; message?: string }>(path, { ...options, headers: { ...headers, ...options.headers } });
  if (response.status >= 400 || response.success === false) throw new ApiError(response.message || TOTP_MESSAGES.requestFailed, response.status, response);
  return response;
}

/** Copies the recovery codes, one a line; a refused clipboard leaves them on screen to copy by hand. */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    console.warn('Clipboard unavailable', error);
  }
}

export const totpEnrolmentImplementations = {
  actors: {
    fetchStatus: fromPromise<TotpStatusResponse>(({ signal }) => call<TotpStatusResponse>(TOTP_PATHS.account, { signal })),
    startEnrolment: fromPromise<TotpStartResponse>(({ signal }) => call<TotpStartResponse>(`${TOTP_PATHS.account}/start`, { method: 'POST', body: {}, signal })),
    confirmEnrolment: fromPromise<TotpRecoveryCodesResponse, TotpCodeInput>(({ input, signal }) =>
      call<TotpRecoveryCodesResponse>(`${TOTP_PATHS.account}/confirm`, { method: 'POST', body: { code: input.code }, signal })),
    disableAuthenticator: fromPromise<TotpPlainResponse, TotpDisableInput>(({ input, signal }) =>
      call<TotpPlainResponse>(`${TOTP_PATHS.account}/disable`, { method: 'POST', body: { password: input.password, code: input.code }, signal })),
    regenerateCodes: fromPromise<TotpRecoveryCodesResponse, TotpCodeInput>(({ input, signal }) =>
      call<TotpRecoveryCodesResponse>(`${TOTP_PATHS.account}/recovery-codes`, { method: 'POST', body: { code: input.code }, signal })),
  },
};


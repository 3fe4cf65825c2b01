/**
 * The real I/O actors of the auth, password, session and logout machines (spec §7.3, §7.4), for
 * `machine.provide({ actors })`. Each passes the actor's abort signal to fetch, so leaving a state
 * cancels its request. Auth endpoints answer their own failures (`handleAuthErrors: false`): a 401
 * there must not bounce the user to /logout.
 */
import { fromPromise } from 'xstate';
import { authRestoreMachine } from '../../machines/auth-restore.machine';
import { authenticatorStepMachine } from '../../machines/authenticator-step.machine';
import type {
  FetchProfileInput, FetchProfileOutput, GenerateOtpInput, GenerateOtpOutput, LoginInput, LoginOutput,
  RequestPasswordOtpInput, RequestPasswordOtpOutput, ResetPasswordInput, ResetPasswordOutput, Session,
  SocialProvider, SocialSignInInput, VerifyOtpInput, VerifyOtpOutput, VerifySessionOutput, VerifySiteOutput,
} from '../../machines/auth.types';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import type { DeviceResponse, SiteProfile } from '../../common/contract';
import { API_PATHS, COOKIE_NAMES } from '../../common/constants';
import { API_MESSAGES } from '../../common/messages/api';
import { SIGN_IN_OWN_MESSAGES } from '../../common/messages/sign-in';
import { readInjectedRuntimeConfig } from '../runtime-config';
import { readCookie, writeCookie } from './cookies';
import { readCredentials, readLoginAttempt, readPendingTwoFactor as readPendingStep, readSession, storeLoginAttempt } from './session-store';
import { verifyAuthenticator } from './totp-actors';

const AUTH = { handleAuthErrors: false } as const;

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Throws when the body is not the success shape: a failed call shows its message. */
function ensureOk<T>(response: T & { status: number; message?: string }): T {
  if (response.status >= 400 && !('success' in response)) {
    throw new ApiError(response.message || `Request failed (${response.status})`, response.status, response);
  }
  return response;
}

export const readStoredSession = fromPromise<Session | null>(async () => readSession());

/** A sign-in that was waiting for its SMS code when the page reloaded. */
export const readPendingTwoFactor = fromPromise<{ username: string; obscureMobileNumber: string } | null>(async () => readPendingStep());

/** Spec §7.4: the cookie first, else GET /api/auth/device; failures log and give nothing. */
export const getDeviceId = fromPromise<string | undefined>(async ({ signal }) => {
  const stored = readCookie(COOKIE_NAMES.deviceId);
  if (stored) return stored;
  try {
    const response = await apiRequest<DeviceResponse>(API_PATHS.device, { signal, ...AUTH });
    if (!response.deviceId) return undefined;
    writeCookie(COOKIE_NAMES.deviceId, response.deviceId, new Date(Date.now() + 365 * 24 * 3600 * 1000));
    return response.deviceId;
  } catch (error) {
    console.warn('Device id unavailable', error);
    return undefined;
  }
});

/** A login answer that asks for the SMS code leaves its proof for the code's resend. */
function keepLoginAttempt<T extends LoginOutput>(answer: T): T {
  if (answer.isTwoFactorOnLogin) storeLoginAttempt(answer.username, answer.loginAttemptToken);
  return answer;
}

export const login = fromPromise<LoginOutput, LoginInput>(async ({ input, signal }) =>
  keepLoginAttempt(ensureOk(await apiRequest<LoginOutput>(API_PATHS.login, {
    body: { username: input.username, password: input.password, ...(input.deviceId ? { deviceId: input.deviceId } : {}) },
    signal, ...AUTH,
  }))));

/** The mutation of spec §7.1 for each provider; no credentials exist yet, so no auth headers. */
export const SOCIAL_LOGIN_MUTATIONS: Readonly<Record<SocialProvider, string>> = {
  google: 'googleLogin',
  microsoft: 'microsoftLogin',
};

const SOCIAL_LOGIN_FIELDS = 'success message isTwoFactorOnLogin obscureMobileNumber username accessToken refreshToken v2ManagementApiEnabled v2VodManagementApiEnabled loginAttemptToken secondFactor authenticatorEnrolmentDue';

export function socialLoginDocument(provider: SocialProvider): { operationName: string; query: string } {
  const field = SOCIAL_LOGIN_MUTATIONS[provider];
  const operationName = field[0]!.toUpperCase() + field.slice(1);
  return {
    operationName,
    query: `mutation ${operationName}($token: String!, $deviceId: String) { ${field}(token: $token, deviceId: $deviceId) { ${SOCIAL_LOGIN_FIELDS} } }`,
  };
}

/** Sends the identity provider's ID token to googleLogin/microsoftLogin; answers the login response. */
export async function exchangeIdToken(
  provider: SocialProvider, token: string, deviceId: string | undefined, signal?: AbortSignal,
): Promise<LoginOutput> {
  const { operationName, query } = socialLoginDocument(provider);
  const response = await apiRequest<{ data?: Record<string, LoginOutput | null> | null; errors?: { message?: string }[] }>(API_PATHS.graphql, {
    body: { operationName, query, variables: { token, deviceId: deviceId ?? null } },
    signal, ...AUTH,
  });
  const answer = response.data?.[SOCIAL_LOGIN_MUTATIONS[provider]];
  if (response.errors?.length || !answer) {
    throw new ApiError(response.errors?.[0]?.message || API_MESSAGES.genericGraphqlError, response.status, response);
  }
  // GraphQL answers null for the optional fields the REST login leaves out.
  const { loginAttemptToken, secondFactor, authenticatorEnrolmentDue, ...rest } = answer;
  return keepLoginAttempt({
    ...rest,
    ...(secondFactor ? { secondFactor } : {}),
    ...(authenticatorEnrolmentDue ? { authenticatorEnrolmentDue } : {}),
    ...(loginAttemptToken ? { loginAttemptToken } : {}),
  });
}

/** Spec §4.1 social login: the provider's popup (Firebase, loaded on demand), then our server. */
export const socialSignIn = fromPromise<LoginOutput, SocialSignInInput>(async ({ input, signal }) => {
  const config = readInjectedRuntimeConfig().firebase;
  if (!config) throw new Error(SIGN_IN_OWN_MESSAGES.socialNotConfigured);
  const { signInWithProvider } = await import('./firebase');
  const idToken = await signInWithProvider(input.provider, config);
  return exchangeIdToken(input.provider, idToken, input.deviceId, signal);
});

/** A resend of the login code carries the proof its login answer handed out (SECURITY.md C-OTP-3). */
function loginAttemptOf(input: GenerateOtpInput): { loginAttemptToken?: string } {
  const token = input.isLogin && !input.credentials ? readLoginAttempt(input.username) : undefined;
  return token ? { loginAttemptToken: token } : {};
}

export const generateOtp = fromPromise<GenerateOtpOutput, GenerateOtpInput>(async ({ input, signal }) =>
  ensureOk(await apiRequest<GenerateOtpOutput>(API_PATHS.generateOtp, {
    body: { username: input.username, isLogin: input.isLogin, ...loginAttemptOf(input) },
    headers: input.credentials ? authHeaders(input.credentials) : {},
    signal, ...AUTH,
  })));

export const verifyOtp = fromPromise<VerifyOtpOutput, VerifyOtpInput>(async ({ input, signal }) =>
  ensureOk(await apiRequest<VerifyOtpOutput>(API_PATHS.verifyOtp, {
    body: { username: input.username, otp: input.otp, isLogin: input.isLogin, ...(input.deviceId ? { deviceId: input.deviceId } : {}) },
    headers: input.credentials ? authHeaders(input.credentials) : {},
    signal, ...AUTH,
  })));

export const fetchProfile = fromPromise<FetchProfileOutput, FetchProfileInput>(async ({ input, signal }) => {
  const response = await apiRequest<SiteProfile & { message?: string }>(API_PATHS.loginInfo, { headers: bearer(input.accessToken), signal, ...AUTH });
  if (response.status !== 200) throw new ApiError(response.message || `Profile unavailable (${response.status})`, response.status, response);
  const { status: _status, contentStatus: _contentStatus, ...profile } = response;
  return { profile: profile as SiteProfile, fetchedAt: Date.now() };
});

export const requestPasswordOtp = fromPromise<RequestPasswordOtpOutput, RequestPasswordOtpInput>(async ({ input, signal }) =>
  ensureOk(await apiRequest<RequestPasswordOtpOutput>(API_PATHS.forgotPassword, { body: { username: input.username }, signal, ...AUTH })));

/** The reset token goes in Authorization and in the body (spec §7.3, both flows). */
export const resetPassword = fromPromise<ResetPasswordOutput, ResetPasswordInput>(async ({ input, signal }) =>
  ensureOk(await apiRequest<ResetPasswordOutput>(API_PATHS.resetPassword, {
    body: {
      newPassword: input.newPassword, confirmPassword: input.confirmPassword, token: input.token,
      ...(input.currentPassword === undefined ? {} : { currentPassword: input.currentPassword }),
    },
    headers: bearer(input.token),
    signal, ...AUTH,
  })));

/** 401/403 are a verdict (`valid: false`); any other failure rejects, so the machine keeps the session. */
export const verifySession = fromPromise<VerifySessionOutput>(async ({ signal }) => {
  const credentials = readCredentials();
  if (!credentials) return { valid: false, status: 401 };
  const response = await apiRequest<{ valid?: boolean; message?: string }>(API_PATHS.verify, { headers: authHeaders(credentials), signal, ...AUTH });
  if (response.status === 401 || response.status === 403) return { valid: false, status: response.status };
  if (response.status >= 400) throw new ApiError(response.message || `Verification failed (${response.status})`, response.status, response);
  return { valid: response.valid === true, status: response.status };
});

export const verifySite = fromPromise<VerifySiteOutput>(async ({ signal }) => {
  const credentials = readCredentials();
  const response = await apiRequest<{ provider?: string; message?: string }>(API_PATHS.verifySite, {
    headers: credentials ? authHeaders(credentials) : {}, signal, ...AUTH,
  });
  if (response.status >= 400 || typeof response.provider !== 'string') {
    throw new ApiError(response.message || 'Cloud provider unavailable', response.status, response);
  }
  return { provider: response.provider };
});

/**
 * POST /v3.0/user/auth/logout with Authorization and XApiKey. Without stored credentials (another tab
 * or the inactivity timer already cleared them) or with a 401 (the session is already over) there is
 * nothing to end at the server.
 */
export const logout = fromPromise<void>(async ({ signal }) => {
  const credentials = readCredentials();
  if (!credentials) return;
  const response = await apiRequest<{ success?: boolean; message?: string }>(API_PATHS.logout, {
    method: 'POST',
    headers: { Authorization: `Bearer ${credentials.accessToken}`, XApiKey: credentials.apiKey },
    signal, ...AUTH,
  });
  if (response.status === 401) return;
  if (response.status >= 400 || response.success === false) {
    throw new ApiError(response.message || `Logout failed (${response.status})`, response.status, response);
  }
});

/** Every actor by the name the machines declare it with. */
/** The sign-in machine's restore child (machines/auth-restore.machine.ts) with the two stores it reads. */
export const restore = authRestoreMachine.provide({ actors: { readStoredSession, readPendingTwoFactor } });
/** The sign-in machine's authenticator-app child (machines/authenticator-step.machine.ts) with its verify call. */
export const authenticatorStep = authenticatorStepMachine.provide({ actors: { verifyAuthenticator } });

export const authActors = {
  restore, authenticatorStep, readStoredSession, readPendingTwoFactor, getDeviceId, login, socialSignIn, generateOtp, verifyOtp, fetchProfile, requestPasswordOtp, resetPassword,
  verifySession, verifySite, logout,
};

/**
 * The real I/O of the Admin area's machines (staffAdmin, staffAdminAudit, setPassword) over
 * `/v3.0/user/admin` with the stored credentials. A failure rejects with an ApiError carrying the
 * server's message and status (409 = someone else changed the account); 401 and 403 go through the
 * client's handler (to /logout, to the site root). The set-password calls are public.
 */
import { fromPromise } from 'xstate';
import type {
  AuditListResponse, CreateStaffRequest, EndSessionsResponse, RequireTwoFactorResponse, SetPasswordCheckResponse, StaffChangeResponse,
  StaffListResponse, StaffSessionsResponse, UpdateStaffRequest,
} from '../../common/admin-contract';
import { API_PATHS } from '../../common/constants';
import { ADMIN_MESSAGES } from '../../common/messages';
import type { CheckTokenInput, SavePasswordInput } from '../../machines/set-password.machine';
import type { FetchAuditInput } from '../../machines/staff-admin-audit.machine';
import type {
  EndSessionInput, FetchSessionsInput, FetchStaffInput, RunActionInput, RunActionOutput, SaveStaffInput,
} from '../../machines/staff-admin.machine';
import { ApiError, apiRequest, authHeaders, type RequestOptions } from '../api/client';
import { navigateTo } from './navigation';
import { readCredentials } from './session-store';

const BASE = API_PATHS.admin;

async function call<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const credentials = readCredentials();
  const headers = credentials ? authHeaders(credentials) : {};
  const response = await apiRequest<T & { success?: boolean; message?: string }>(`${BASE}${path}`, { ...options, headers: { ...headers, ...options.headers } });
  if (response.status >= 400 || response.success === false) {
    throw new ApiError(response.message || ADMIN_MESSAGES.saveFailed, response.status, response);
  }
  return response;
}

function query(params: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const staffAdminActors = {
  fetchStaff: fromPromise<StaffListResponse, FetchStaffInput>(({ input, signal }) =>
    call<StaffListResponse>(`/staff${query({ search: input.search.trim(), page: input.page })}`, { signal })),

  saveStaff: fromPromise<StaffChangeResponse, SaveStaffInput>(({ input, signal }) => {
    const { form } = input;
    if (form.mode === 'create') {
      const body: CreateStaffRequest = {
        email: form.email.trim(), displayName: form.displayName.trim(), phoneNumber: form.phoneNumber.trim(), twoFactorOnLogin: form.twoFactorOnLogin, roles: form.roles,
      };
      return call<StaffChangeResponse>('/staff', { method: 'POST', body, signal });
    }
    const body: UpdateStaffRequest = {
      displayName: form.displayName.trim(), phoneNumber: form.phoneNumber.trim(), twoFactorOnLogin: form.twoFactorOnLogin, roles: form.roles, version: form.version,
    };
    return call<StaffChangeResponse>(`/staff/${form.id}`, { method: 'PUT', body, signal });
  }),

  runAction: fromPromise<RunActionOutput, RunActionInput>(async ({ input, signal }) => {
    const { action } = input;
    if (action.kind === 'twoFactor') {
      return call<RequireTwoFactorResponse>('/site/two-factor', { method: 'PUT', body: { required: action.required }, signal });
    }
    const version = { version: action.version };
    switch (action.kind) {
      case 'disable': return call<StaffChangeResponse>(`/staff/${action.id}/disable`, { method: 'POST', body: version, signal });
      case 'enable': return call<StaffChangeResponse>(`/staff/${action.id}/enable`, { method: 'POST', body: version, signal });
      case 'endSessions': return call<EndSessionsResponse>(`/staff/${action.id}/sessions/end`, { method: 'POST', body: {}, signal });
      case 'resetPassword': return call<StaffChangeResponse>(`/staff/${action.id}/password-reset`, { method: 'POST', body: {}, signal });
      case 'resetSecondFactor':
        return call<StaffChangeResponse>(`/staff/${action.id}/second-factor/reset`, { method: 'POST', body: { phoneNumber: input.phoneNumber, ...version }, signal });
    }
  }),

  fetchSessions: fromPromise<StaffSessionsResponse['sessions'], FetchSessionsInput>(async ({ input, signal }) =>
    (await call<StaffSessionsResponse>(`/staff/${input.id}/sessions`, { signal })).sessions),

  endSession: fromPromise<RunActionOutput, EndSessionInput>(({ input, signal }) =>
    call<EndSessionsResponse>(`/staff/${input.id}/sessions/${input.sessionId}`, { method: 'DELETE', signal })),
};

export const auditActors = {
  fetchAudit: fromPromise<AuditListResponse, FetchAuditInput>(({ input, signal }) =>
    call<AuditListResponse>(`/audit${query({ who: input.who.trim(), action: input.action, from: input.from, to: input.to, page: input.page })}`, { signal })),
};

async function publicCall<T>(path: string, body: unknown, signal: AbortSignal): Promise<T> {
  const response = await apiRequest<T & { success?: boolean; message?: string }>(`${BASE}${path}`, { body, signal, handleAuthErrors: false });
  if (response.status >= 400 || response.success === false) throw new ApiError(response.message || ADMIN_MESSAGES.setPasswordInvalid, response.status, response);
  return response;
}

export const setPasswordImplementations = {
  actors: {
    checkToken: fromPromise<SetPasswordCheckResponse, CheckTokenInput>(async ({ input, signal }) => {
      if (!input.token.trim()) throw new ApiError(ADMIN_MESSAGES.setPasswordInvalid, 400);
      return publicCall<SetPasswordCheckResponse>('/set-password/check', { token: input.token }, signal);
    }),
    savePassword: fromPromise<void, SavePasswordInput>(async ({ input, signal }) => {
      await publicCall('/set-password', input, signal);
    }),
  },
  actions: {
    navigate: (_: unknown, params: { to: string }) => navigateTo(params.to),
  },
};

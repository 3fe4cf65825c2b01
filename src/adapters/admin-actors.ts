/**
 * The real I/O of the Admin area's page machines (staffAdmin with its list and dialog children,
 * staffAdminAudit with its list, setPassword) over
 * `/v3.0/user/admin` with the stored credentials. A failure rejects with an ApiError carrying the
 * server's message and status (409 = someone else changed the account); 401 and 403 go through the
 * client's handler (to /logout, to the site root). The set-password calls are public. The Staff page's
 * Histories (an account's, the second-factor rule's) read /v1/revisions and put their changes in
 * words (common/staff-revision-words.ts).
 */
import { fromPromise } from 'xstate';
import type {
  CreateStaffRequest, EndSessionsResponse, SetPasswordCheckResponse, StaffChangeResponse,
  StaffListResponse, StaffSessionsResponse, UpdateStaffRequest,
} from '../../common/admin-contract';
import { AUDIT_EXPORT_PATH, type AuditLogEntry } from '../../common/audit-actions';
import { API_PATHS, ROUTES } from '../../common/constants';
import { ADMIN_MESSAGES } from '../../common/messages';
import { HISTORY_PANEL_MESSAGES, REVISION_PATHS, type RevisionHistoryResponse } from '../../common/revisions';
import { adminRevisionInWords } from '../../common/staff-revision-words';
import { historyDisclosureMachine } from '../../machines/history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from '../../machines/history.machine';
import { SECOND_FACTOR_RULE_PATH, type SetSecondFactorRuleRequest, type SetSecondFactorRuleResponse } from '../../common/second-factor-rule';
import { setPasswordMachine, type CheckTokenInput, type SavePasswordInput } from '../../machines/set-password.machine';
import { listMachine, reportingListMachine, type ListPage, type ListQuery } from '../../machines/list.machine';
import { staffAdminAuditMachine, type AuditExportOutput, type AuditFilters, type AuditUrlParams } from '../../machines/staff-admin-audit.machine';
import { auditHref } from '../../common/audit-search';
import { listSearchHref } from '../../common/list-search';
import {
  staffAdminMachine, type EndSessionInput, type FetchSessionsInput, type RunActionInput, type RunActionOutput, type StaffPage,
} from '../../machines/staff-admin.machine';
import { staffDialogMachine, type SaveStaffInput } from '../../machines/staff-dialog.machine';
import { staffDraftActions, staffDraftActors } from './staff-dialog-draft';
import { ApiError, apiRequest, authHeaders, type RequestOptions } from '../api/client';
import { downloadCsv } from './download';
import { navigateTo } from './navigation';
import { copyToClipboard } from './totp-actors';
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

/** The list machine's query as the Admin API's page number and size (`offset` is always a multiple of `limit`). */
function pageOfQuery(q: ListQuery): { page: number; pageSize: number } {
  return { page: Math.floor(q.offset / q.limit) + 1, pageSize: q.limit };
}

const fetchStaffPage = fromPromise<ListPage, ListQuery>(async ({ input, signal }): Promise<StaffPage> => {
  const answer = await call<StaffListResponse>(`/staff${query({ search: input.search.trim(), ...pageOfQuery(input) })}`, { signal });
  const { items, total, canEdit, selfId, secondFactor, grantable } = answer;
  return { items, total, meta: { canEdit, selfId, secondFactor, grantable } };
});

const saveStaff = fromPromise<StaffChangeResponse, SaveStaffInput>(({ input, signal }) => {
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
});

/** One page of an Admin object's History (a staff account, the site's rule), its changes in words. */
const loadAdminHistory = fromPromise<HistoryPage, HistoryLoadInput>(async ({ input, signal }) => {
  const credentials = readCredentials();
  const url = `${REVISION_PATHS.history}/${encodeURIComponent(input.kind)}/${encodeURIComponent(input.objectId)}?page=${input.page}`;
  const answer = await apiRequest<RevisionHistoryResponse & { message?: string }>(url, { headers: credentials ? authHeaders(credentials) : {}, signal });
  if (answer.status >= 400) throw new ApiError(answer.message || HISTORY_PANEL_MESSAGES.loadFailed, answer.status, answer);
  return {
    items: answer.items.map(adminRevisionInWords), total: answer.total, page: answer.page, pageSize: answer.pageSize,
    canRestore: answer.canRestore, restorable: answer.restorable,
  };
});

/** The Admin Histories: read-only (neither a staff account nor the rule can be restored). */
const adminHistory = pageHistoryMachine.provide({ actors: { load: loadAdminHistory } });
const adminHistoryDisclosure = historyDisclosureMachine.provide({ actors: { history: adminHistory } });

const staffActors = {
  runAction: fromPromise<RunActionOutput, RunActionInput>(async ({ input, signal }) => {
    const { action } = input;
    if (action.kind === 'secondFactorRule') {
      const body: SetSecondFactorRuleRequest = { rule: action.rule };
      return call<SetSecondFactorRuleResponse>(SECOND_FACTOR_RULE_PATH, { method: 'PUT', body, signal });
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

/** The audit log's filters as its query (issue 28: area, action, who, object kind, object, dates). */
function auditFilterQuery(f: Partial<Record<keyof AuditFilters, string>>): Record<string, string> {
  return {
    area: f.area ?? '', action: f.action ?? '', who: (f.who ?? '').trim(), objectKind: f.objectKind ?? '', object: (f.object ?? '').trim(),
    from: f.from ?? '', to: f.to ?? '',
  };
}

const fetchAuditPage = fromPromise<ListPage, ListQuery>(async ({ input, signal }): Promise<ListPage<AuditLogEntry>> => {
  const answer = await call<{ items: AuditLogEntry[]; total: number }>(`/audit${query({ ...auditFilterQuery(input.filters), ...pageOfQuery(input) })}`, { signal });
  return { items: answer.items, total: answer.total };
});

/** Every row of the applied filters, for the CSV export. */
const exportAudit = fromPromise<AuditExportOutput, AuditFilters>(async ({ input, signal }) =>
  call<AuditExportOutput>(`${AUDIT_EXPORT_PATH}${query(auditFilterQuery(input))}`, { signal }));

async function publicCall<T>(path: string, body: unknown, signal: AbortSignal): Promise<T> {
  const response = await apiRequest<T & { success?: boolean; message?: string }>(`${BASE}${path}`, { body, signal, handleAuthErrors: false });
  if (response.status >= 400 || response.success === false) throw new ApiError(response.message || ADMIN_MESSAGES.setPasswordInvalid, response.status, response);
  return response;
}

const setPasswordImplementations = {
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

/**
 * The Admin area's wiring file (issue 26): each page machine with its real I/O, read by
 * src/adapters/page-logic.ts when a page of the area first renders.
 */
export const adminPages = {
  staff: staffAdminMachine.provide({
    actors: {
      list: listMachine.provide({ actors: { fetchPage: fetchStaffPage } }),
      staffDialog: staffDialogMachine.provide({ actors: { saveStaff, history: adminHistoryDisclosure }, actions: staffDraftActions }),
      ruleHistory: adminHistoryDisclosure,
      ...staffDraftActors,
      staffHistory: adminHistory,
      ...staffActors,
    },
    actions: {
      copyLink: (_, params: { url: string }) => { void copyToClipboard(params.url); },
      // Issue 38: the search as the address, replaced (Back leaves the list, as before).
      writeSearch: (_, params: { search: string }) => navigateTo(listSearchHref(ROUTES.admin, params.search), { replace: true }),
    },
  }),
  audit: staffAdminAuditMachine.provide({
    // The list reports a page past the last one it clamped (issue 38): the page writes it as the address.
    actors: { list: reportingListMachine.provide({ actors: { fetchPage: fetchAuditPage } }), exportAudit },
    actions: {
      downloadCsv,
      // Issue 38: the applied filters and page as the address, replaced (Back leaves the log, as before).
      writeUrl: (_, params: AuditUrlParams) => navigateTo(auditHref(params.filters, params.page), { replace: true }),
    },
  }),
  setPassword: setPasswordMachine.provide(setPasswordImplementations),
};

/**
 * The Admin area's staff page (issue 18): the staff table with search (debounced) and paging; the
 * create/edit form with its role grid; confirmations for disable/enable, end sessions, password
 * reset, second-factor reset and the site-wide second factor; an account's active sessions. Writes
 * are offered only when the server said the caller may edit (`canEdit`); the server refuses anyway.
 * I/O actors come from src/adapters/admin-actors.ts.
 */
import { and, assign, not, setup, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type {
  SetPasswordLink, StaffChangeResponse, StaffListResponse, StaffMember, StaffSession,
} from '../common/admin-contract';
import { AREA_NAMES, type AccessLevel, type AreaName } from '../common/constants';
import type { Roles } from '../common/contract';
import { canSetLevel } from '../common/grant-cap';
import { ADMIN_MESSAGES, OWN_MESSAGES } from '../common/messages';
import { failureMessage } from './notify';
import type { Severity } from './notifier.machine';
import { providedLater } from './unprovided';

export const SEARCH_DEBOUNCE_MS = 300;

export type StaffActionKind = 'disable' | 'enable' | 'endSessions' | 'resetPassword' | 'resetSecondFactor';
export type PendingAction =
  | { kind: StaffActionKind; id: string; name: string; version: number }
  | { kind: 'twoFactor'; required: boolean };

export type FormField = 'email' | 'displayName' | 'phoneNumber' | 'twoFactorOnLogin';

export interface StaffForm {
  mode: 'create' | 'edit';
  id: string | null;
  version: number;
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Roles;
}

export interface Notice {
  text: string;
  severity: Severity;
}

export interface ShownLink extends SetPasswordLink {
  name: string;
}

export interface StaffAdminContext {
  search: string;
  page: number;
  list: StaffListResponse | null;
  error: string | null;
  notice: Notice | null;
  link: ShownLink | null;
  pending: PendingAction | null;
  /** The new mobile number typed in the second-factor reset confirmation. */
  phoneDraft: string;
  confirmError: string | null;
  form: StaffForm | null;
  formInitial: StaffForm | null;
  formErrors: Partial<Record<FormField, string>>;
  formError: string | null;
  sessionsOf: { id: string; name: string } | null;
  sessions: StaffSession[];
  sessionsError: string | null;
}

export type StaffAdminEvent =
  | { type: 'list.search'; text: string }
  | { type: 'list.page'; page: number }
  | { type: 'list.retry' }
  | { type: 'staff.create' }
  | { type: 'staff.edit'; id: string }
  | { type: 'staff.confirm'; kind: StaffActionKind; id: string }
  | { type: 'site.twoFactor'; required: boolean }
  | { type: 'staff.sessions'; id: string }
  | { type: 'confirm.phone'; value: string }
  | { type: 'confirm.accept' }
  | { type: 'confirm.cancel' }
  | { type: 'editor.field'; field: FormField; value: string | boolean }
  | { type: 'editor.role'; area: AreaName; level: AccessLevel | 'none' }
  | { type: 'editor.save' }
  | { type: 'editor.cancel' }
  | { type: 'editor.discard' }
  | { type: 'editor.keep' }
  | { type: 'editor.reload' }
  | { type: 'sessions.end'; sessionId: string }
  | { type: 'sessions.retry' }
  | { type: 'sessions.close' }
  | { type: 'notice.dismiss' }
  | { type: 'link.dismiss' };

export interface FetchStaffInput { search: string; page: number }
export interface SaveStaffInput { form: StaffForm }
export interface RunActionInput { action: PendingAction; phoneNumber: string }
export interface RunActionOutput { message: string; link?: SetPasswordLink }
export interface FetchSessionsInput { id: string }
export interface EndSessionInput { id: string; sessionId: string }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;

function phoneValid(value: string): boolean {
  return PHONE.test(value.trim());
}

/** Field errors of a form, empty when it may be sent. */
export function formErrorsOf(form: StaffForm): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {};
  if (form.mode === 'create') {
    if (!form.email.trim()) errors.email = ADMIN_MESSAGES.emailRequired;
    else if (!EMAIL.test(form.email.trim())) errors.email = ADMIN_MESSAGES.emailInvalid;
  }
  if (!form.displayName.trim()) errors.displayName = ADMIN_MESSAGES.displayNameRequired;
  if (!phoneValid(form.phoneNumber)) errors.phoneNumber = ADMIN_MESSAGES.phoneInvalid;
  return errors;
}

function sameForm(a: StaffForm | null, b: StaffForm | null): boolean {
  if (!a || !b) return a === b;
  const rolesEqual = AREA_NAMES.every((area) => a.roles[area] === b.roles[area]);
  return rolesEqual && a.email === b.email && a.displayName === b.displayName && a.phoneNumber === b.phoneNumber && a.twoFactorOnLogin === b.twoFactorOnLogin;
}

function memberOf(context: StaffAdminContext, id: string): StaffMember | undefined {
  return context.list?.items.find((m) => m.id === id);
}

function formFor(member: StaffMember): StaffForm {
  return {
    mode: 'edit', id: member.id, version: member.version, email: member.email, displayName: member.displayName,
    phoneNumber: member.phoneNumber, twoFactorOnLogin: member.twoFactorOnLogin, roles: { ...member.roles },
  };
}

function outputOf<T>(event: AnyEventObject): T {
  return (event as AnyEventObject & { output: T }).output;
}

function errorOf(event: AnyEventObject): unknown {
  return (event as AnyEventObject & { error: unknown }).error;
}

function fetchStaffInput({ context }: { context: StaffAdminContext }): FetchStaffInput {
  return { search: context.search, page: context.page };
}
function saveStaffInput({ context }: { context: StaffAdminContext }): SaveStaffInput {
  return { form: context.form! };
}
function runActionInput({ context }: { context: StaffAdminContext }): RunActionInput {
  return { action: context.pending!, phoneNumber: context.phoneDraft.trim() };
}
function fetchSessionsInput({ context }: { context: StaffAdminContext }): FetchSessionsInput {
  return { id: context.sessionsOf?.id ?? '' };
}
function endSessionInput({ context, event }: { context: StaffAdminContext; event: AnyEventObject }): EndSessionInput {
  return { id: context.sessionsOf?.id ?? '', sessionId: event.type === 'sessions.end' ? String(event.sessionId) : '' };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export const staffAdminMachine = setup({
  types: {
    context: {} as StaffAdminContext,
    events: {} as StaffAdminEvent,
  },
  actors: {
    fetchStaff: providedLater<StaffListResponse, FetchStaffInput>('fetchStaff'),
    saveStaff: providedLater<StaffChangeResponse, SaveStaffInput>('saveStaff'),
    runAction: providedLater<RunActionOutput, RunActionInput>('runAction'),
    fetchSessions: providedLater<StaffSession[], FetchSessionsInput>('fetchSessions'),
    endSession: providedLater<RunActionOutput, EndSessionInput>('endSession'),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  actions: {
    setSearch: assign(({ event }) => (event.type === 'list.search' ? { search: event.text, page: 1 } : {})),
    setPage: assign(({ event }) => (event.type === 'list.page' ? { page: event.page } : {})),
    storeList: assign(({ event }) => ({ list: outputOf<StaffListResponse>(event), error: null })),
    storeListError: assign(({ event }) => ({ error: failureMessage(errorOf(event), ADMIN_MESSAGES.listFailed) })),
    openCreateForm: assign(() => {
      const form: StaffForm = { mode: 'create', id: null, version: 0, email: '', displayName: '', phoneNumber: '', twoFactorOnLogin: false, roles: {} };
      return { form, formInitial: form, formErrors: {}, formError: null };
    }),
    openEditForm: assign(({ context, event }) => {
      const member = event.type === 'staff.edit' ? memberOf(context, event.id) : undefined;
      const form = member ? formFor(member) : null;
      return { form, formInitial: form, formErrors: {}, formError: null };
    }),
    setField: assign(({ context, event }) => {
      if (!context.form || event.type !== 'editor.field') return {};
      const value = event.field === 'twoFactorOnLogin' ? event.value === true : String(event.value);
      const { [event.field]: _cleared, ...formErrors } = context.formErrors;
      void _cleared;
      return { form: { ...context.form, [event.field]: value }, formErrors };
    }),
    setRole: assign(({ context, event }) => {
      if (!context.form || event.type !== 'editor.role') return {};
      const { [event.area]: _old, ...rest } = context.form.roles;
      void _old;
      const roles: Roles = event.level === 'none' ? rest : { ...rest, [event.area]: event.level };
      return { form: { ...context.form, roles } };
    }),
    showFormErrors: assign(({ context }) => ({ formErrors: context.form ? formErrorsOf(context.form) : {} })),
    storeFormError: assign(({ event }) => ({ formError: failureMessage(errorOf(event), ADMIN_MESSAGES.saveFailed) })),
    closeForm: assign({ form: null, formInitial: null, formErrors: {}, formError: null }),
    storeSaved: assign(({ event }) => {
      const result = outputOf<StaffChangeResponse>(event);
      return {
        notice: { text: result.message, severity: 'success' as const },
        link: result.link ? { ...result.link, name: result.staff.displayName } : null,
      };
    }),
    preparePending: assign(({ context, event }) => {
      const member = event.type === 'staff.confirm' ? memberOf(context, event.id) : undefined;
      return {
        pending: member && event.type === 'staff.confirm' ? { kind: event.kind, id: member.id, name: member.displayName, version: member.version } : null,
        phoneDraft: '',
        confirmError: null,
      };
    }),
    prepareTwoFactor: assign(({ event }) => (event.type === 'site.twoFactor' ? { pending: { kind: 'twoFactor' as const, required: event.required }, confirmError: null } : {})),
    setPhoneDraft: assign(({ event }) => (event.type === 'confirm.phone' ? { phoneDraft: event.value, confirmError: null } : {})),
    showPhoneError: assign({ confirmError: ADMIN_MESSAGES.phoneInvalid }),
    clearPending: assign({ pending: null, phoneDraft: '', confirmError: null }),
    storeActionDone: assign(({ context, event }) => {
      const output = outputOf<RunActionOutput>(event);
      const pending = context.pending;
      const name = pending && pending.kind !== 'twoFactor' ? pending.name : '';
      return {
        notice: { text: output.message, severity: 'success' as const },
        link: output.link ? { ...output.link, name } : context.link,
      };
    }),
    storeFailureNotice: assign(({ event }) => ({
      notice: { text: failureMessage(errorOf(event), OWN_MESSAGES.serverUnavailable), severity: 'error' as const },
    })),
    openSessions: assign(({ context, event }) => {
      const member = event.type === 'staff.sessions' ? memberOf(context, event.id) : undefined;
      return { sessionsOf: member ? { id: member.id, name: member.displayName } : null, sessions: [], sessionsError: null };
    }),
    storeSessions: assign(({ event }) => ({ sessions: outputOf<StaffSession[]>(event), sessionsError: null })),
    storeSessionsError: assign(({ event }) => ({ sessionsError: failureMessage(errorOf(event), ADMIN_MESSAGES.sessionsFailed) })),
    closeSessions: assign({ sessionsOf: null, sessions: [], sessionsError: null }),
    dismissNotice: assign({ notice: null }),
    dismissLink: assign({ link: null }),
  },
  guards: {
    canEdit: ({ context }) => context.list?.canEdit === true,
    /** The grant cap (issue 25, common/grant-cap.ts): only levels the signed-in user may hand out. */
    canGrant: ({ context, event }) => event.type === 'editor.role' && context.formInitial !== null
      && canSetLevel(context.list?.grantable ?? {}, event.area, context.formInitial.roles[event.area], event.level),
    pageInRange: ({ context, event }) => {
      const list = context.list;
      if (!list || event.type !== 'list.page') return false;
      const last = Math.max(1, Math.ceil(list.total / list.pageSize));
      return Number.isInteger(event.page) && event.page >= 1 && event.page <= last && event.page !== list.page;
    },
    formValid: ({ context }) => context.form !== null && Object.keys(formErrorsOf(context.form)).length === 0,
    formDirty: ({ context }) => !sameForm(context.form, context.formInitial),
    /** A stale version; other 409s (last Admin, e-mail taken) are messages for the form. */
    isConflict: ({ event }) => {
      const error = errorOf(event);
      return statusOf(error) === 409 && error instanceof Error && error.message === ADMIN_MESSAGES.conflict;
    },
    needsPhone: ({ context }) => context.pending?.kind === 'resetSecondFactor' && !phoneValid(context.phoneDraft),
    isOwnSession: ({ context, event }) => event.type === 'sessions.end' && context.sessions.some((s) => s.id === event.sessionId && s.current),
  },
}).createMachine({
  id: 'staffAdmin',
  description: 'The staff of the caller site: table, search, paging, the create/edit form, confirmations and sessions.',
  context: {
    search: '', page: 1, list: null, error: null, notice: null, link: null, pending: null, phoneDraft: '', confirmError: null,
    form: null, formInitial: null, formErrors: {}, formError: null, sessionsOf: null, sessions: [], sessionsError: null,
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'The page of staff matching the search is being read.',
      invoke: {
        id: 'fetchStaff',
        src: 'fetchStaff',
        input: fetchStaffInput,
        onDone: { target: 'ready', actions: 'storeList' },
        onError: { target: 'failed', actions: 'storeListError' },
      },
    },
    failed: {
      description: 'The list could not be read; the page says so and offers Retry.',
      on: { 'list.retry': 'loading' },
    },
    ready: {
      description: 'The table is shown.',
      initial: 'idle',
      on: {
        'notice.dismiss': { actions: 'dismissNotice' },
        'link.dismiss': { actions: 'dismissLink' },
      },
      states: {
        idle: {
          description: 'Waiting for the operator: search, page, open the form, a confirmation or the sessions.',
          on: {
            'list.search': { target: 'debouncing', actions: 'setSearch' },
            'list.page': { guard: 'pageInRange', target: '#staffAdmin.loading', actions: 'setPage' },
            'staff.create': { guard: 'canEdit', target: 'editor', actions: 'openCreateForm' },
            'staff.edit': { guard: 'canEdit', target: 'editor', actions: 'openEditForm' },
            'staff.confirm': { guard: 'canEdit', target: 'confirming', actions: 'preparePending' },
            'site.twoFactor': { guard: 'canEdit', target: 'confirming', actions: 'prepareTwoFactor' },
            'staff.sessions': { target: 'sessions', actions: 'openSessions' },
          },
        },
        debouncing: {
          description: 'The search text changed; the list is read once typing pauses.',
          after: { searchDebounce: '#staffAdmin.loading' },
          on: {
            'list.search': { target: 'debouncing', reenter: true, actions: 'setSearch' },
          },
        },
        confirming: {
          description: 'A dialog asks to confirm the chosen action (with a new mobile number for a second-factor reset).',
          on: {
            'confirm.phone': { actions: 'setPhoneDraft' },
            'confirm.accept': [
              { guard: 'needsPhone', actions: 'showPhoneError' },
              { target: 'working' },
            ],
            'confirm.cancel': { target: 'idle', actions: 'clearPending' },
          },
        },
        working: {
          description: 'The confirmed action is with the server.',
          invoke: {
            id: 'runAction',
            src: 'runAction',
            input: runActionInput,
            onDone: { target: '#staffAdmin.loading', actions: ['storeActionDone', 'clearPending'] },
            onError: { target: 'idle', actions: ['storeFailureNotice', 'clearPending'] },
          },
        },
        editor: {
          description: 'The create/edit form in a dialog: fields and the role grid (area × level).',
          initial: 'editing',
          states: {
            editing: {
              description: 'The operator edits; field errors show after a save attempt.',
              on: {
                'editor.field': { actions: 'setField' },
                'editor.role': { guard: 'canGrant', actions: 'setRole' },
                'editor.save': [
                  { guard: 'formValid', target: 'saving' },
                  { actions: 'showFormErrors' },
                ],
                'editor.cancel': [
                  { guard: 'formDirty', target: 'discarding' },
                  { target: '#staffAdmin.ready.idle', actions: 'closeForm' },
                ],
              },
            },
            discarding: {
              description: 'Unsaved changes: the dialog asks before throwing them away.',
              on: {
                'editor.discard': { target: '#staffAdmin.ready.idle', actions: 'closeForm' },
                'editor.keep': 'editing',
              },
            },
            saving: {
              description: 'The form is with the server.',
              invoke: {
                id: 'saveStaff',
                src: 'saveStaff',
                input: saveStaffInput,
                onDone: { target: '#staffAdmin.loading', actions: ['storeSaved', 'closeForm'] },
                onError: [
                  { guard: 'isConflict', target: 'conflict' },
                  { target: 'editing', actions: 'storeFormError' },
                ],
              },
            },
            conflict: {
              description: 'Someone else changed the account first: reload to see their values.',
              on: {
                'editor.reload': { target: '#staffAdmin.loading', actions: 'closeForm' },
                'editor.cancel': { target: '#staffAdmin.ready.idle', actions: 'closeForm' },
              },
            },
          },
        },
        sessions: {
          description: "A dialog lists the account's active sessions (device, address, last seen).",
          initial: 'loading',
          on: { 'sessions.close': { target: '.closed' } },
          states: {
            loading: {
              description: 'The sessions are being read.',
              invoke: {
                id: 'fetchSessions',
                src: 'fetchSessions',
                input: fetchSessionsInput,
                onDone: { target: 'listing', actions: 'storeSessions' },
                onError: { target: 'failed', actions: 'storeSessionsError' },
              },
            },
            failed: {
              description: 'The sessions could not be read.',
              on: { 'sessions.retry': 'loading' },
            },
            listing: {
              description: 'The sessions are shown; an editor may end one (not the one they are using).',
              on: {
                'sessions.end': { guard: and(['canEdit', not('isOwnSession')]), target: 'ending' },
              },
            },
            ending: {
              description: 'One session is being ended.',
              invoke: {
                id: 'endSession',
                src: 'endSession',
                input: endSessionInput,
                onDone: { target: 'loading', actions: 'storeActionDone' },
                onError: { target: 'listing', actions: 'storeSessionsError' },
              },
            },
            closed: {
              description: 'The dialog closed; the list is read again (session counts changed).',
              always: { target: '#staffAdmin.loading', actions: 'closeSessions' },
            },
          },
        },
      },
    },
  },
});

export type StaffAdminMachine = typeof staffAdminMachine;
export type StaffAdminSnapshot = SnapshotFrom<StaffAdminMachine>;

export const selectIsLoading = (s: StaffAdminSnapshot) => s.matches('loading') && s.context.list === null;
export const selectIsRefreshing = (s: StaffAdminSnapshot) => s.matches('loading');
export const selectListError = (s: StaffAdminSnapshot) => (s.matches('failed') ? s.context.error : null);
export const selectStaff = (s: StaffAdminSnapshot) => s.context.list?.items ?? [];
export const selectCanEdit = (s: StaffAdminSnapshot) => s.context.list?.canEdit === true;
/** Whether the role grid offers `level` in `area` for the open form (the grant cap, issue 25). */
export const selectCanGrant = (s: StaffAdminSnapshot, area: AreaName, level: AccessLevel | 'none'): boolean =>
  s.context.formInitial !== null && canSetLevel(s.context.list?.grantable ?? {}, area, s.context.formInitial.roles[area], level);
export const selectSelfId = (s: StaffAdminSnapshot) => s.context.list?.selfId ?? null;
export const selectRequireTwoFactor = (s: StaffAdminSnapshot) => s.context.list?.requireTwoFactor === true;
export const selectSearch = (s: StaffAdminSnapshot) => s.context.search;
export const selectPaging = (s: StaffAdminSnapshot) => {
  const list = s.context.list;
  if (!list) return { page: 1, pages: 1, total: 0 };
  return { page: list.page, pages: Math.max(1, Math.ceil(list.total / list.pageSize)), total: list.total };
};
export const selectNotice = (s: StaffAdminSnapshot) => s.context.notice;
export const selectLink = (s: StaffAdminSnapshot) => s.context.link;
export const selectPending = (s: StaffAdminSnapshot) => (s.matches({ ready: 'confirming' }) || s.matches({ ready: 'working' }) ? s.context.pending : null);
export const selectIsWorking = (s: StaffAdminSnapshot) => s.matches({ ready: 'working' });
export const selectPhoneDraft = (s: StaffAdminSnapshot) => s.context.phoneDraft;
export const selectConfirmError = (s: StaffAdminSnapshot) => s.context.confirmError;
export const selectForm = (s: StaffAdminSnapshot) => (s.matches({ ready: 'editor' }) ? s.context.form : null);
export const selectFormErrors = (s: StaffAdminSnapshot) => s.context.formErrors;
export const selectFormError = (s: StaffAdminSnapshot) => s.context.formError;
export const selectIsSaving = (s: StaffAdminSnapshot) => s.matches({ ready: { editor: 'saving' } });
export const selectIsDiscarding = (s: StaffAdminSnapshot) => s.matches({ ready: { editor: 'discarding' } });
export const selectIsConflict = (s: StaffAdminSnapshot) => s.matches({ ready: { editor: 'conflict' } });
export const selectSessionsOf = (s: StaffAdminSnapshot) => (s.matches({ ready: 'sessions' }) ? s.context.sessionsOf : null);
export const selectSessions = (s: StaffAdminSnapshot) => s.context.sessions;
export const selectSessionsLoading = (s: StaffAdminSnapshot) => s.matches({ ready: { sessions: 'loading' } }) || s.matches({ ready: { sessions: 'ending' } });
export const selectSessionsError = (s: StaffAdminSnapshot) => s.context.sessionsError;

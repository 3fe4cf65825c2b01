/**
 * The Admin area's Staff page machine (issue 18; split in issue 26): the staff table is the `list`
 * child (machines/list.machine.ts: search, paging, failure and Retry), the create/edit form is the
 * `dialog` child (machines/staff-dialog.machine.ts); this machine owns the flow between them and the
 * page's own parts: confirmations for disable/enable, end sessions, password reset, second-factor
 * reset and the site's second-factor rule (issue 30: one rule, three values, common/second-factor-rule.ts;
 * a change is confirmed with what it will do), an account's active sessions, the notice and the
 * set-password link. It decides what follows: a saved form or a done action → notice and list reload;
 * a conflict's Reload → list reload. Two Histories (read-only: neither kind is restorable): the
 * second-factor rule's behind a disclosure beside its control (the `ruleHistory` child,
 * history-disclosure.machine.ts, read again after a rule change), and an account's from its row
 * (`history` state with the `staffHistory` child; Admin read has no Edit, so this is its way in; the
 * edit dialog shows it too, staff-dialog.machine.ts). Writes are offered only when the list's answer says the caller may
 * edit (`canEdit`); the server refuses anyway. The I/O (the list's `fetchPage`, `saveStaff`,
 * `runAction`, `fetchSessions`, `endSession`) is provided by the Admin wiring file
 * (src/adapters/admin-actors.ts, `adminPages.staff`).
 */
import { assign, forwardTo, sendTo, setup, type SnapshotFrom } from 'xstate';
import type { SetPasswordLink, StaffChangeResponse, StaffListResponse, StaffMember, StaffSession } from '../common/admin-contract';
import { STAFF_PAGE_SIZE } from '../common/admin-contract';
import { ADMIN_MESSAGES, OWN_MESSAGES } from '../common/messages';
import { smsCodeApplies, type SecondFactorCounts, type SecondFactorRule, type SecondFactorState } from '../common/second-factor-rule';
import { listMachine, type ListEvent, type ListSnapshot, selectListPaging, selectListRows, type ListPage } from './list.machine';
import { failureMessage } from './notify';
import type { Severity } from './notifier.machine';
import { historyDisclosureMachine, type DisclosedHistoryRef, type HistoryDisclosureRef } from './history-disclosure.machine';
import { pageHistoryMachine } from './history.machine';
import { phoneValid, staffDialogMachine, type StaffDialogInput, type StaffDialogOutcome } from './staff-dialog.machine';
import { providedLater } from './unprovided';

export { formErrorsOf, type FormField, type SaveStaffInput, type StaffForm } from './staff-dialog.machine';

export type StaffActionKind = 'disable' | 'enable' | 'endSessions' | 'resetPassword' | 'resetSecondFactor';
export type PendingAction =
  | { kind: StaffActionKind; id: string; name: string; version: number }
  /** A change of the site's second-factor rule: from the rule in force, with the counts the confirmation names. */
  | { kind: 'secondFactorRule'; rule: SecondFactorRule; from: SecondFactorRule; counts: SecondFactorCounts };

export interface Notice {
  text: string;
  severity: Severity;
}

export interface ShownLink extends SetPasswordLink {
  name: string;
  /** The account has a mobile number: the link also went out by SMS (issue 30). */
  sentBySms: boolean;
  /** The operator copied it with the Copy button. */
  copied: boolean;
}

/** What the staff list answers beside the rows: what the caller may do on the page. */
export type StaffAccess = Pick<StaffListResponse, 'canEdit' | 'selfId' | 'secondFactor' | 'grantable'>;

/** The staff list's page as the list machine keeps it (rows, total and the caller's access). */
export type StaffPage = ListPage<StaffMember> & { meta: StaffAccess };

/** Where the page starts (issue 38): the address's `?search=` (the audit log links to an account so). */
export interface StaffAdminInput {
  search?: string;
}

export interface StaffAdminContext {
  /** The search the list opened with (the address's). */
  startSearch: string;
  /** The rows of the list's last page (for the row actions), and what the caller may do. */
  members: StaffMember[];
  access: StaffAccess | null;
  /** The account the dialog edits; null for a new one. */
  dialogFor: StaffMember | null;
  notice: Notice | null;
  link: ShownLink | null;
  pending: PendingAction | null;
  /** The new mobile number typed in the second-factor reset confirmation. */
  phoneDraft: string;
  confirmError: string | null;
  sessionsOf: { id: string; name: string } | null;
  sessions: StaffSession[];
  sessionsError: string | null;
  /** The account whose History is shown (from its row). */
  historyOf: { id: string; name: string } | null;
}

export type StaffAdminEvent =
  | Extract<ListEvent, { type: 'list.search' | 'list.page' | 'list.reload' }>
  | { type: 'staff.create' }
  | { type: 'staff.edit'; id: string }
  | { type: 'staff.confirm'; kind: StaffActionKind; id: string }
  /** Choose the site's second-factor rule (issue 30): a confirmation says what it will do. */
  | { type: 'site.secondFactor'; rule: SecondFactorRule }
  | { type: 'staff.sessions'; id: string }
  /** Show an account's History (every reader may). */
  | { type: 'staff.history'; id: string }
  | { type: 'staffHistory.close' }
  | { type: 'confirm.phone'; value: string }
  | { type: 'confirm.accept' }
  | { type: 'confirm.cancel' }
  | { type: 'sessions.end'; sessionId: string }
  | { type: 'sessions.retry' }
  | { type: 'sessions.close' }
  | { type: 'notice.dismiss' }
  | { type: 'link.dismiss' }
  /** Copy the shown set-password link to the clipboard (issue 30). */
  | { type: 'link.copy' };

export interface RunActionInput { action: PendingAction; phoneNumber: string }
export interface RunActionOutput { message: string; link?: SetPasswordLink }
export interface FetchSessionsInput { id: string }
export interface EndSessionInput { id: string; sessionId: string }

function memberOf(context: StaffAdminContext, id: string): StaffMember | undefined {
  return context.members.find((m) => m.id === id);
}

export const staffAdminMachine = setup({
  types: {
    context: {} as StaffAdminContext,
    events: {} as StaffAdminEvent,
    input: {} as StaffAdminInput | undefined,
    children: {} as { list: 'list'; dialog: 'staffDialog'; ruleHistory: 'ruleHistory'; staffHistory: 'staffHistory' },
  },
  actors: {
    list: listMachine,
    staffDialog: staffDialogMachine,
    ruleHistory: historyDisclosureMachine,
    staffHistory: pageHistoryMachine,
    runAction: providedLater<RunActionOutput, RunActionInput>('runAction'),
    fetchSessions: providedLater<StaffSession[], FetchSessionsInput>('fetchSessions'),
    endSession: providedLater<RunActionOutput, EndSessionInput>('endSession'),
  },
  actions: {
    /** The list's rows and the access it answered, kept for the row actions and the guards. */
    keepListAnswer: assign((_, params: { list: ListSnapshot }) => ({
      members: selectListRows<StaffMember>(params.list),
      access: (params.list.context.meta as StaffAccess | null) ?? null,
    })),
    forwardToList: forwardTo('list'),
    /** Writes the search as the page's address (`/admin?search=`, replacing it); provided by the wiring file. */
    writeSearch: (_, _params: { search: string }) => undefined,
    reloadList: sendTo('list', { type: 'list.reload' }),
    openDialog: assign((_, params: { member: StaffMember | null }) => ({ dialogFor: params.member })),
    storeSaved: assign((_, params: { result: StaffChangeResponse }) => ({
      notice: { text: params.result.message, severity: 'success' as const },
      link: params.result.link
        ? { ...params.result.link, name: params.result.staff.displayName, sentBySms: params.result.staff.phoneNumber.trim() !== '', copied: false }
        : null,
    })),
    preparePending: assign((_, params: { kind: StaffActionKind; member: StaffMember }) => ({
      pending: { kind: params.kind, id: params.member.id, name: params.member.displayName, version: params.member.version },
      phoneDraft: '',
      confirmError: null,
    })),
    prepareSecondFactor: assign((_, params: { rule: SecondFactorRule; state: SecondFactorState }) => {
      const { rule: from, accounts, withSms, withAuthenticator, withNeither } = params.state;
      return { pending: { kind: 'secondFactorRule' as const, rule: params.rule, from, counts: { accounts, withSms, withAuthenticator, withNeither } }, confirmError: null };
    }),
    setPhoneDraft: assign((_, params: { value: string }) => ({ phoneDraft: params.value, confirmError: null })),
    showPhoneError: assign({ confirmError: ADMIN_MESSAGES.phoneInvalid }),
    clearPending: assign({ pending: null, phoneDraft: '', confirmError: null }),
    storeActionDone: assign(({ context }, params: { output: RunActionOutput }) => {
      const pending = context.pending;
      const name = pending && pending.kind !== 'secondFactorRule' ? pending.name : '';
      const phone = pending && pending.kind !== 'secondFactorRule' ? memberOf(context, pending.id)?.phoneNumber ?? '' : '';
      return {
        notice: { text: params.output.message, severity: 'success' as const },
        link: params.output.link ? { ...params.output.link, name, sentBySms: phone.trim() !== '', copied: false } : context.link,
      };
    }),
    storeFailureNotice: assign((_, params: { error: unknown }) => ({
      notice: { text: failureMessage(params.error, OWN_MESSAGES.serverUnavailable), severity: 'error' as const },
    })),
    openSessions: assign((_, params: { member: StaffMember }) => ({
      sessionsOf: { id: params.member.id, name: params.member.displayName }, sessions: [], sessionsError: null,
    })),
    storeSessions: assign((_, params: { sessions: StaffSession[] }) => ({ sessions: params.sessions, sessionsError: null })),
    storeSessionsError: assign((_, params: { error: unknown }) => ({ sessionsError: failureMessage(params.error, ADMIN_MESSAGES.sessionsFailed) })),
    closeSessions: assign({ sessionsOf: null, sessions: [], sessionsError: null }),
    openHistory: assign((_, params: { member: StaffMember }) => ({ historyOf: { id: params.member.id, name: params.member.displayName } })),
    closeHistory: assign({ historyOf: null }),
    /** The rule changed: its History (when open) reads its revisions again. */
    tellRuleHistory: sendTo('ruleHistory', { type: 'disclosure.changed' }),
    dismissNotice: assign({ notice: null }),
    dismissLink: assign({ link: null }),
    /** Supplied by src: writes the link to the clipboard (a refused clipboard leaves it on screen to copy by hand). */
    copyLink: (_, _params: { url: string }) => {},
    markLinkCopied: assign(({ context }) => ({ link: context.link ? { ...context.link, copied: true } : null })),
  },
  guards: {
    canEdit: ({ context }) => context.access?.canEdit === true,
    /**
     * An editor chose a rule other than the one in force (choosing it again asks nothing); `authenticator`
     * only once the editor has an app of their own (the server refuses it too).
     */
    changesSecondFactor: ({ context }, params: { rule: SecondFactorRule }) =>
      context.access?.canEdit === true && context.access.secondFactor.rule !== params.rule
      && (params.rule !== 'authenticator' || context.access.secondFactor.ownAuthenticator),
    isListed: ({ context }, params: { id: string }) => memberOf(context, params.id) !== undefined,
    hasLink: ({ context }) => context.link !== null,
    /** A write on a row of the table: the caller may edit and the account is on the page. */
    canEditListed: ({ context }, params: { id: string }) => context.access?.canEdit === true && memberOf(context, params.id) !== undefined,
    /**
     * An action on a row of the table: the caller may edit and the account is on the page; a second-factor
     * reset only for an account that signs in with a code sent by SMS (issue 38: there is nothing to reset otherwise).
     */
    canActOnListed: ({ context }, params: { id: string; kind: StaffActionKind }) => {
      const member = memberOf(context, params.id);
      return context.access?.canEdit === true && member !== undefined
        && (params.kind !== 'resetSecondFactor' || canResetSecondFactorOf(context.access, member));
    },
    /** An editor may end a session, but not the one they are using. */
    canEndSession: ({ context }, params: { sessionId: string }) =>
      context.access?.canEdit === true && !context.sessions.some((s) => s.id === params.sessionId && s.current),
    dialogSaved: (_, params: { outcome: StaffDialogOutcome }) => params.outcome.kind === 'saved',
    dialogAskedReload: (_, params: { outcome: StaffDialogOutcome }) => params.outcome.kind === 'reload',
    changedRule: ({ context }) => context.pending?.kind === 'secondFactorRule',
    needsPhone: ({ context }) => context.pending?.kind === 'resetSecondFactor' && !phoneValid(context.phoneDraft),
  },
}).createMachine({
  id: 'staffAdmin',
  description: 'The Staff page: the list child (table, search, paging), the dialog child (create/edit), confirmations and sessions.',
  context: ({ input }) => ({
    startSearch: input?.search ?? '',
    members: [], access: null, dialogFor: null, notice: null, link: null, pending: null, phoneDraft: '', confirmError: null,
    sessionsOf: null, sessions: [], sessionsError: null, historyOf: null,
  }),
  invoke: [
    {
      id: 'list',
      src: 'list',
      input: ({ context }) => ({ search: context.startSearch, limit: STAFF_PAGE_SIZE, failedMessage: ADMIN_MESSAGES.listFailed }),
      onSnapshot: { actions: { type: 'keepListAnswer', params: ({ event }) => ({ list: event.snapshot }) } },
    },
    // The site's second-factor rule's History, closed until opened (the site is `site` to the history call).
    { id: 'ruleHistory', src: 'ruleHistory', input: { kind: 'siteSecurity', objectId: 'site' } },
  ],
  on: {
    'list.search': { actions: ['forwardToList', { type: 'writeSearch', params: ({ event }) => ({ search: event.search }) }] },
    'list.page': { actions: 'forwardToList' },
    'list.reload': { actions: 'forwardToList' },
    'notice.dismiss': { actions: 'dismissNotice' },
    'link.dismiss': { actions: 'dismissLink' },
    'link.copy': { guard: 'hasLink', actions: [{ type: 'copyLink', params: ({ context }) => ({ url: context.link?.url ?? '' }) }, 'markLinkCopied'] },
  },
  initial: 'idle',
  states: {
    idle: {
      description: 'The table is shown (or being read); waiting for the operator: open the form, a confirmation or the sessions.',
      on: {
        'staff.create': { guard: 'canEdit', target: 'editor', actions: { type: 'openDialog', params: { member: null } } },
        'staff.edit': {
          guard: { type: 'canEditListed', params: ({ event }) => ({ id: event.id }) },
          target: 'editor',
          actions: { type: 'openDialog', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
        },
        'staff.confirm': {
          guard: { type: 'canActOnListed', params: ({ event }) => ({ id: event.id, kind: event.kind }) },
          target: 'confirming',
          actions: { type: 'preparePending', params: ({ context, event }) => ({ kind: event.kind, member: memberOf(context, event.id)! }) },
        },
        'site.secondFactor': {
          guard: { type: 'changesSecondFactor', params: ({ event }) => ({ rule: event.rule }) },
          target: 'confirming',
          actions: { type: 'prepareSecondFactor', params: ({ context, event }) => ({ rule: event.rule, state: context.access!.secondFactor }) },
        },
        'staff.sessions': {
          guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
          target: 'sessions',
          actions: { type: 'openSessions', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
        },
        'staff.history': {
          guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
          target: 'history',
          actions: { type: 'openHistory', params: ({ context, event }) => ({ member: memberOf(context, event.id)! }) },
        },
      },
    },
    history: {
      description: "A dialog shows one account's History (its revisions, read-only: a staff account cannot be restored).",
      invoke: {
        id: 'staffHistory',
        src: 'staffHistory',
        input: ({ context }) => ({ kind: 'staff' as const, objectId: context.historyOf?.id ?? '' }),
      },
      on: { 'staffHistory.close': { target: 'idle', actions: 'closeHistory' } },
    },
    confirming: {
      description: 'A dialog asks to confirm the chosen action (with a new mobile number for a second-factor reset).',
      on: {
        'confirm.phone': { actions: { type: 'setPhoneDraft', params: ({ event }) => ({ value: event.value }) } },
        'confirm.accept': [
          { guard: 'needsPhone', actions: 'showPhoneError' },
          { target: 'working' },
        ],
        'confirm.cancel': { target: 'idle', actions: 'clearPending' },
      },
    },
    working: {
      description: 'The confirmed action is with the server; when done, a notice and the list read again.',
      tags: ['saving'],
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ action: context.pending!, phoneNumber: context.phoneDraft.trim() }),
        onDone: [
          {
            guard: 'changedRule',
            target: 'idle',
            actions: [{ type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) }, 'clearPending', 'reloadList', 'tellRuleHistory'],
          },
          { target: 'idle', actions: [{ type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) }, 'clearPending', 'reloadList'] },
        ],
        onError: { target: 'idle', actions: [{ type: 'storeFailureNotice', params: ({ event }) => ({ error: event.error }) }, 'clearPending'] },
      },
    },
    editor: {
      description: 'The create/edit dialog child is open; its outcome decides what follows (saved → notice and reload; reload → reload).',
      invoke: {
        id: 'dialog',
        src: 'staffDialog',
        input: ({ context }): StaffDialogInput => ({
          member: context.dialogFor, grantable: context.access?.grantable ?? {}, smsRequiredBySite: context.access?.secondFactor.rule === 'required',
        }),
        onDone: [
          {
            guard: { type: 'dialogSaved', params: ({ event }) => ({ outcome: event.output }) },
            target: 'idle',
            actions: [
              { type: 'storeSaved', params: ({ event }) => ({ result: (event.output as Extract<StaffDialogOutcome, { kind: 'saved' }>).result }) },
              'reloadList',
            ],
          },
          { guard: { type: 'dialogAskedReload', params: ({ event }) => ({ outcome: event.output }) }, target: 'idle', actions: 'reloadList' },
          { target: 'idle' },
        ],
      },
    },
    sessions: {
      description: "A dialog lists the account's active sessions (device, address, last seen).",
      initial: 'loading',
      on: { 'sessions.close': { target: 'idle', actions: ['closeSessions', 'reloadList'] } },
      states: {
        loading: {
          description: 'The sessions are being read.',
          tags: ['loading'],
          invoke: {
            id: 'fetchSessions',
            src: 'fetchSessions',
            input: ({ context }) => ({ id: context.sessionsOf?.id ?? '' }),
            onDone: { target: 'listing', actions: { type: 'storeSessions', params: ({ event }) => ({ sessions: event.output }) } },
            onError: { target: 'failed', actions: { type: 'storeSessionsError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          description: 'The sessions could not be read.',
          tags: ['error'],
          on: { 'sessions.retry': 'loading' },
        },
        listing: {
          description: 'The sessions are shown; an editor may end one (not the one they are using).',
          on: {
            'sessions.end': {
              guard: { type: 'canEndSession', params: ({ event }) => ({ sessionId: event.sessionId }) },
              target: 'ending',
            },
          },
        },
        ending: {
          description: 'One session is being ended.',
          tags: ['saving'],
          invoke: {
            id: 'endSession',
            src: 'endSession',
            input: ({ context, event }) => ({ id: context.sessionsOf?.id ?? '', sessionId: event.type === 'sessions.end' ? event.sessionId : '' }),
            onDone: { target: 'loading', actions: { type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) } },
            onError: { target: 'listing', actions: { type: 'storeSessionsError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});

export type StaffAdminMachine = typeof staffAdminMachine;
export type StaffAdminSnapshot = SnapshotFrom<StaffAdminMachine>;

/** The children views read: the table (`list`) and the open form (`dialog`). */
export const selectStaffList = (s: StaffAdminSnapshot) => s.children.list;
export const selectStaffDialog = (s: StaffAdminSnapshot) => s.children.dialog;
/** The second-factor rule's History disclosure. */
export const selectRuleHistory = (s: StaffAdminSnapshot) => s.children.ruleHistory as HistoryDisclosureRef | undefined;
/** The History of the account named by `selectHistoryOf` (undefined while none is shown). */
export const selectStaffHistory = (s: StaffAdminSnapshot) => s.children.staffHistory as DisclosedHistoryRef | undefined;
export const selectHistoryOf = (s: StaffAdminSnapshot) => (s.matches('history') ? s.context.historyOf : null);

/** The first read: no answer yet (a later reload keeps the table on screen). */
export const selectIsLoading = (s: ListSnapshot | undefined) => !s || (s.hasTag('loading') && s.context.meta === null);
export const selectListError = (s: ListSnapshot | undefined) => (s?.hasTag('error') ? s.context.error : null);
export const selectStaff = (s: ListSnapshot | undefined) => (s ? selectListRows<StaffMember>(s) : []);
export const selectSearch = (s: ListSnapshot | undefined) => s?.context.query.search ?? '';
export const selectPaging = (s: ListSnapshot | undefined) => {
  if (!s) return { page: 1, pages: 1, total: 0, previousOffset: null, nextOffset: null };
  const { page, pages, previousOffset, nextOffset } = selectListPaging(s);
  return { page, pages, total: s.context.total, previousOffset, nextOffset };
};

export const selectCanEdit = (s: StaffAdminSnapshot) => s.context.access?.canEdit === true;
export const selectAccess = (s: StaffAdminSnapshot) => s.context.access;
/** Whether "Reset second factor" is offered for an account: an editor, and the account signs in with an SMS code (the canActOnListed guard). */
export const canResetSecondFactorOf = (access: StaffAccess | null, member: Pick<StaffMember, 'twoFactorOnLogin'>): boolean =>
  access?.canEdit === true && smsCodeApplies(member.twoFactorOnLogin, access.secondFactor.rule);
export const selectSelfId = (s: StaffAdminSnapshot) => s.context.access?.selfId ?? null;
/** The site's second-factor rule and its counts (null before the list's first answer). */
export const selectSecondFactor = (s: StaffAdminSnapshot) => s.context.access?.secondFactor ?? null;
export const selectNotice = (s: StaffAdminSnapshot) => s.context.notice;
export const selectLink = (s: StaffAdminSnapshot) => s.context.link;
export const selectPending = (s: StaffAdminSnapshot) => (s.matches('confirming') || s.matches('working') ? s.context.pending : null);
export const selectIsWorking = (s: StaffAdminSnapshot) => s.matches('working');
export const selectPhoneDraft = (s: StaffAdminSnapshot) => s.context.phoneDraft;
export const selectConfirmError = (s: StaffAdminSnapshot) => s.context.confirmError;
export const selectSessionsOf = (s: StaffAdminSnapshot) => (s.matches('sessions') ? s.context.sessionsOf : null);
export const selectSessions = (s: StaffAdminSnapshot) => s.context.sessions;
export const selectSessionsLoading = (s: StaffAdminSnapshot) => s.matches({ sessions: 'loading' }) || s.matches({ sessions: 'ending' });
export const selectSessionsError = (s: StaffAdminSnapshot) => s.context.sessionsError;

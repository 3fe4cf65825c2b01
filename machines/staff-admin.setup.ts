/**
 * The Staff page machine's setup (machines/staff-admin.machine.ts assembles it with its states): its
 * types, its children and I/O actors, and its guards by name. The actions are added in
 * ./staff-admin.actions.ts.
 */
import { fromPromise, setup } from 'xstate';
import { machineTypes } from './machine-types';
import type { SetPasswordLink, StaffListResponse, StaffMember, StaffSession } from '../common/admin-contract';
import { smsCodeApplies, type SecondFactorCounts, type SecondFactorRule } from '../common/second-factor-rule';
import { historyDisclosureMachine } from './history-disclosure.machine';
import { pageHistoryMachine } from './history.machine';
import { listMachine, type ListEvent, type ListPage } from './list.machine';
import type { Severity } from './notifier.machine';
import { phoneValid, staffDialogMachine, type StaffDialogOutcome, type StaffDraft, type StaffDraftValues } from './staff-dialog.machine';
import { providedLater } from './unprovided';

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

/** The fields of a staff list's answer that make its access (what the Admin wiring's `fetchPage` puts in the list's `meta`). */
function isStaffAccess(meta: Readonly<Record<string, unknown>>): meta is StaffAccess {
  return typeof meta.canEdit === 'boolean' && typeof meta.selfId === 'string'
    && typeof meta.secondFactor === 'object' && meta.secondFactor !== null && typeof meta.grantable === 'object' && meta.grantable !== null;
}

/** The caller's access from the list's last answer (null before one). */
export function staffAccessOf(meta: Readonly<Record<string, unknown>> | null): StaffAccess | null {
  return meta !== null && isStaffAccess(meta) ? meta : null;
}

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
  /** The staff draft the tab kept across a reload (issue 38), until its dialog is reopened or another one opens. */
  keptDraft: StaffDraft | null;
  /** The typed values the open dialog starts with (a reopened draft), else null. */
  dialogDraft: StaffDraftValues | null;
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
  /** Raised after a list answer and after the kept draft was read (issue 38): reopen the draft's dialog if it fits. */
  | { type: 'staff.reopenDraft' }
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

export function memberOf(context: StaffAdminContext, id: string): StaffMember | undefined {
  return context.members.find((m) => m.id === id);
}

/** Whether "Reset second factor" is offered for an account: an editor, and the account signs in with an SMS code (the canActOnListed guard). */
export const canResetSecondFactorOf = (access: StaffAccess | null, member: Pick<StaffMember, 'twoFactorOnLogin'>): boolean =>
  access?.canEdit === true && smsCodeApplies(member.twoFactorOnLogin, access.secondFactor.rule);

/** Every child by its id (its actor's name): `snapshot.children.list` and the rest are typed. */
export type StaffAdminChildren = { list: 'list'; dialog: 'staffDialog'; ruleHistory: 'ruleHistory'; staffHistory: 'staffHistory'; keptDraft: 'readStaffDraft' };

export const staffAdminBase = setup({
  types: machineTypes<{ context: StaffAdminContext; events: StaffAdminEvent; children: StaffAdminChildren; input: StaffAdminInput | undefined }>(),
  actors: {
    list: listMachine,
    staffDialog: staffDialogMachine,
    ruleHistory: historyDisclosureMachine,
    staffHistory: pageHistoryMachine,
    /** The tab's kept staff draft, or null (provided: src/adapters/staff-dialog-draft.ts; none unless provided). */
    readStaffDraft: fromPromise<StaffDraft | null>(async () => null),
    runAction: providedLater<RunActionOutput, RunActionInput>('runAction'),
    fetchSessions: providedLater<StaffSession[], FetchSessionsInput>('fetchSessions'),
    endSession: providedLater<RunActionOutput, EndSessionInput>('endSession'),
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
    /**
     * The kept draft's dialog may open again (issue 38): the caller may edit, and it is a new account's,
     * or the account is on the page at the version the draft was typed on (a changed account opens as stored).
     */
    reopensDraft: ({ context }) => {
      const kept = context.keptDraft;
      if (kept === null || context.access?.canEdit !== true) return false;
      if (kept.memberId === null) return true;
      return memberOf(context, kept.memberId)?.version === kept.version;
    },
    dialogSaved: (_, params: { outcome: StaffDialogOutcome }) => params.outcome.kind === 'saved',
    dialogAskedReload: (_, params: { outcome: StaffDialogOutcome }) => params.outcome.kind === 'reload',
    changedRule: ({ context }) => context.pending?.kind === 'secondFactorRule',
    needsPhone: ({ context }) => context.pending?.kind === 'resetSecondFactor' && !phoneValid(context.phoneDraft),
  },
});

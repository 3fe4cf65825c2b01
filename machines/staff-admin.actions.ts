/**
 * The Staff page machine's actions by name, on its setup (./staff-admin.setup.ts): `staffAdminSetup`
 * is what the states (./staff-admin.state.*.ts) and the machine are built from. `writeSearch` and
 * `copyLink` are provided by the Admin wiring file.
 */
import { assign, forwardTo, raise, sendTo } from 'xstate';
import type { StaffMember, StaffSession } from '../common/admin-contract';
import { ADMIN_MESSAGES, OWN_MESSAGES } from '../common/messages';
import type { SecondFactorRule, SecondFactorState } from '../common/second-factor-rule';
import { selectListRows, type ListSnapshot } from './list.machine';
import { failureMessage } from './notify';
import type { StaffDialogOutcome, StaffDraft } from './staff-dialog.machine';
import { memberOf, staffAccessOf, staffAdminBase, type RunActionOutput, type StaffActionKind } from './staff-admin.setup';

export const staffAdminSetup = staffAdminBase.extend({
  actions: {
    /** The list's rows and the access it answered, kept for the row actions and the guards. */
    keepListAnswer: assign((_, params: { list: ListSnapshot }) => ({
      members: selectListRows<StaffMember>(params.list),
      access: staffAccessOf(params.list.context.meta),
    })),
    forwardToList: forwardTo('list'),
    /** Writes the search as the page's address (`/admin?search=`, replacing it); provided by the wiring file. */
    writeSearch: (_, _params: { search: string }) => undefined,
    reloadList: sendTo('list', { type: 'list.reload' }),
    openDialog: assign((_, params: { member: StaffMember | null }) => ({ dialogFor: params.member, dialogDraft: null, keptDraft: null })),
    /** Reopens the kept draft's dialog (the `reopensDraft` guard said it fits). */
    openKeptDraft: assign(({ context }) => ({
      dialogFor: context.keptDraft?.memberId ? memberOf(context, context.keptDraft.memberId) ?? null : null,
      dialogDraft: context.keptDraft?.values ?? null,
      keptDraft: null,
    })),
    askReopenDraft: raise({ type: 'staff.reopenDraft' }),
    storeKeptDraft: assign((_, params: { draft: StaffDraft | null }) => ({ keptDraft: params.draft })),
    /** The dialog's outcome when it saved (the `dialogSaved` guard): its message, and the set-password link it answered. */
    storeSaved: assign((_, params: { outcome: StaffDialogOutcome }) => {
      if (params.outcome.kind !== 'saved') return {};
      const { result } = params.outcome;
      return {
        notice: { text: result.message, severity: 'success' as const },
        link: result.link ? { ...result.link, name: result.staff.displayName, sentBySms: result.staff.phoneNumber.trim() !== '', copied: false } : null,
      };
    }),
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
});

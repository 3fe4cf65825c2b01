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
import type { SnapshotFrom } from 'xstate';
import type { StaffMember } from '../common/admin-contract';
import { STAFF_PAGE_SIZE } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import type { DisclosedHistoryRef, HistoryDisclosureRef } from './history-disclosure.machine';
import { selectListPaging, selectListRows, type ListSnapshot } from './list.machine';
import { staffAdminSetup } from './staff-admin.actions';
import { idleState } from './staff-admin.state.idle';
import { historyState } from './staff-admin.state.history';
import { confirmingState } from './staff-admin.state.confirming';
import { workingState } from './staff-admin.state.working';
import { editorState } from './staff-admin.state.editor';
import { sessionsState } from './staff-admin.state.sessions';

export { formErrorsOf, type FormField, type SaveStaffInput, type StaffForm } from './staff-dialog.machine';
export {
  canResetSecondFactorOf, staffAccessOf,
  type EndSessionInput, type FetchSessionsInput, type Notice, type PendingAction, type RunActionInput, type RunActionOutput,
  type ShownLink, type StaffAccess, type StaffActionKind, type StaffAdminContext, type StaffAdminEvent, type StaffAdminInput, type StaffPage,
} from './staff-admin.setup';

export const staffAdminMachine = staffAdminSetup.createMachine({
  id: 'staffAdmin',
  description: 'The Staff page: the list child (table, search, paging), the dialog child (create/edit), confirmations and sessions.',
  context: ({ input }) => ({
    startSearch: input?.search ?? '',
    members: [], access: null, dialogFor: null, keptDraft: null, dialogDraft: null, notice: null, link: null, pending: null, phoneDraft: '', confirmError: null,
    sessionsOf: null, sessions: [], sessionsError: null, historyOf: null,
  }),
  invoke: [
    {
      id: 'list',
      src: 'list',
      input: ({ context }) => ({ search: context.startSearch, limit: STAFF_PAGE_SIZE, failedMessage: ADMIN_MESSAGES.listFailed }),
      onSnapshot: { actions: [{ type: 'keepListAnswer', params: ({ event }) => ({ list: event.snapshot }) }, 'askReopenDraft'] },
    },
    // The site's second-factor rule's History, closed until opened (the site is `site` to the history call).
    { id: 'ruleHistory', src: 'ruleHistory', input: { kind: 'siteSecurity', objectId: 'site' } },
    // Issue 38: a staff draft kept across a reload reopens its dialog (the idle state's `reopensDraft`).
    { id: 'keptDraft', src: 'readStaffDraft', onDone: { actions: [{ type: 'storeKeptDraft', params: ({ event }) => ({ draft: event.output }) }, 'askReopenDraft'] } },
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
    idle: idleState,
    history: historyState,
    confirming: confirmingState,
    working: workingState,
    editor: editorState,
    sessions: sessionsState,
  },
});

export type StaffAdminMachine = typeof staffAdminMachine;
export type StaffAdminSnapshot = SnapshotFrom<StaffAdminMachine>;

/** The children views read: the table (`list`) and the open form (`dialog`). */
export const selectStaffList = (s: StaffAdminSnapshot) => s.children.list;
export const selectStaffDialog = (s: StaffAdminSnapshot) => s.children.dialog;
/** The second-factor rule's History disclosure. */
export const selectRuleHistory = (s: StaffAdminSnapshot): HistoryDisclosureRef | undefined => s.children.ruleHistory;
/** The History of the account named by `selectHistoryOf` (undefined while none is shown). */
export const selectStaffHistory = (s: StaffAdminSnapshot): DisclosedHistoryRef | undefined => s.children.staffHistory;
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

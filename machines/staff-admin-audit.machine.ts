/**
 * The Admin area's audit log page (issue 18; a page machine since issue 26): filters (who, action,
 * date range) edited as a draft and applied together; the entries, paging and Retry are the `list`
 * child (machines/list.machine.ts), whose `fetchPage` the Admin wiring file provides
 * (src/adapters/admin-actors.ts). The page decides what Apply and Clear do to the list.
 */
import { assign, forwardTo, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import { listMachine, type ListEvent, type ListSnapshot, selectListError, selectListPaging, selectListRows } from './list.machine';

export type AuditFilters = {
  who: string;
  action: string;
  from: string;
  to: string;
};
export type AuditFilterField = keyof AuditFilters;

export interface AuditContext {
  draft: AuditFilters;
  filterError: string | null;
}

export type AuditEvent =
  | { type: 'audit.filter'; field: AuditFilterField; value: string }
  | { type: 'audit.apply' }
  | { type: 'audit.clear' }
  | Extract<ListEvent, { type: 'list.page' | 'list.reload' }>;

export const NO_FILTERS: AuditFilters = { who: '', action: '', from: '', to: '' };

export const staffAdminAuditMachine = setup({
  types: {
    context: {} as AuditContext,
    events: {} as AuditEvent,
    children: {} as { list: 'list' },
  },
  actors: {
    list: listMachine,
  },
  actions: {
    setFilter: assign(({ context }, params: { field: AuditFilterField; value: string }) => ({
      draft: { ...context.draft, [params.field]: params.value }, filterError: null,
    })),
    clearDraft: assign({ draft: NO_FILTERS, filterError: null }),
    clearFilterError: assign({ filterError: null }),
    showRangeError: assign({ filterError: ADMIN_MESSAGES.invalidDateRange }),
    applyToList: sendTo('list', ({ context }) => ({ type: 'list.filters' as const, filters: { ...context.draft } })),
    forwardToList: forwardTo('list'),
  },
  guards: {
    rangeInvalid: ({ context }) => context.draft.from !== '' && context.draft.to !== '' && context.draft.from > context.draft.to,
  },
}).createMachine({
  id: 'staffAdminAudit',
  description: 'The site audit log page: who did what and when, filtered and paged; the entries are the list child.',
  context: { draft: NO_FILTERS, filterError: null },
  invoke: { id: 'list', src: 'list', input: { filters: NO_FILTERS, limit: AUDIT_PAGE_SIZE, failedMessage: ADMIN_MESSAGES.auditFailed } },
  initial: 'browsing',
  states: {
    browsing: {
      description: 'The entries are shown (or being read); the operator drafts filters and applies or clears them together.',
      on: {
        'audit.filter': { actions: { type: 'setFilter', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'audit.apply': [
          { guard: 'rangeInvalid', actions: 'showRangeError' },
          { actions: ['clearFilterError', 'applyToList'] },
        ],
        'audit.clear': { actions: ['clearDraft', 'applyToList'] },
        'list.page': { actions: 'forwardToList' },
        'list.reload': { actions: 'forwardToList' },
      },
    },
  },
});

export type StaffAdminAuditMachine = typeof staffAdminAuditMachine;
export type AuditSnapshot = SnapshotFrom<StaffAdminAuditMachine>;
export type AuditListRef = ActorRefFrom<typeof listMachine>;

/** The entries' list child: views select rows, paging, loading and error from it. */
export const selectAuditList = (s: AuditSnapshot) => s.children.list;
export const selectAuditDraft = (s: AuditSnapshot) => s.context.draft;
export const selectAuditFilterError = (s: AuditSnapshot) => s.context.filterError;

export const selectAuditEntries = (s: ListSnapshot | undefined) => (s ? selectListRows<AuditEntry>(s) : []);
export const selectAuditError = (s: ListSnapshot | undefined) => (s ? selectListError(s) : null);
export const selectAuditLoading = (s: ListSnapshot | undefined) => s?.hasTag('loading') ?? true;
export const selectAuditPaging = (s: ListSnapshot | undefined) => {
  if (!s) return { page: 1, pages: 1, total: 0, previousOffset: null, nextOffset: null };
  const { page, pages, previousOffset, nextOffset } = selectListPaging(s);
  return { page, pages, total: s.context.total, previousOffset, nextOffset };
};

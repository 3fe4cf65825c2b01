/**
 * The Admin area's audit log page (issue 18; a page machine since issue 26; issue 28: area, object
 * filters and the CSV export): filters (area, action, who, object kind, object, date range) edited as
 * a draft and applied together; the entries, paging and Retry are the `list` child
 * (machines/list.machine.ts), whose `fetchPage` the Admin wiring file provides
 * (src/adapters/admin-actors.ts). The export reads every row of the applied filters (`exportAudit`)
 * and hands their CSV to `downloadCsv` (both provided by the wiring file).
 *
 * Issue 38: the applied filters and the page live in the address (common/audit-search.ts). The page
 * starts from them (`input`), and applying, clearing or paging writes them back through the provided
 * `writeUrl` (a replacing navigation), so Back after following a row's link shows the same entries.
 */
import type { AuditSearchFilters } from '../common/audit-search';
import {
  assign, forwardTo, fromPromise, sendTo, setup,
  type ActorRefFrom, type SnapshotFrom,
} from 'xstate';
import { machineTypes } from './machine-types';
import { AUDIT_PAGE_SIZE } from '../common/admin-contract';
import {
  AUDIT_LOG_MESSAGES, auditActionInfo, auditCsv, type AuditLogEntry,
} from '../common/audit-actions';
import { ADMIN_MESSAGES } from '../common/messages';
import { listMachine, reportingListMachine, type ListEvent, type ListQuery, type ListSnapshot, selectListError, selectListPaging, selectListRows } from './list.machine';

/** The filters as the page drafts and applies them ('' for none): the address's shape (common/audit-search.ts). */
export type AuditFilters = AuditSearchFilters;
export type AuditFilterField = keyof AuditFilters;

/** Where the page starts: the filters and page of its address (issue 38). */
export interface AuditInput {
  filters?: AuditFilters;
  /** 1-based. */
  page?: number;
}

/** What the address says: the applied filters and the 1-based page. */
export interface AuditUrlParams {
  filters: AuditFilters;
  page: number;
}

export interface AuditExportOutput {
  items: AuditLogEntry[];
  total: number;
}

export interface AuditContext {
  draft: AuditFilters;
  /** The filters the list shows (the export reads the same). */
  applied: AuditFilters;
  filterError: string | null;
  /** What the last export said (its count, or why it failed). */
  exportNotice: { text: string; severity: 'success' | 'error' } | null;
  /** The first row the list opened on (the page of the address). */
  startOffset: number;
}

export type AuditEvent =
  | { type: 'audit.filter'; field: AuditFilterField; value: string }
  | { type: 'audit.apply' }
  | { type: 'audit.clear' }
  | { type: 'audit.export' }
  | Extract<ListEvent, { type: 'list.page' | 'list.reload' }>
  /** From the list: a query it read; `clamped` when an address's page past the last one became the last (issue 38). */
  | { type: 'list.queried'; query: ListQuery; clamped: boolean };

export const NO_FILTERS: AuditFilters = { area: '', action: '', who: '', objectKind: '', object: '', from: '', to: '' };

export const AUDIT_CSV_FILENAME = 'audit-log.csv';

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  return message || AUDIT_LOG_MESSAGES.exportFailed;
}

/** Every child by its id (its actor's name): `snapshot.children.list` is typed. */
type AuditChildren = { list: 'list'; exportAudit: 'exportAudit' };

export const staffAdminAuditMachine = setup({
  types: machineTypes<{ context: AuditContext; events: AuditEvent; children: AuditChildren; input: AuditInput }>(),
  actors: {
    list: reportingListMachine,
    /** Every row of the given filters (GET /audit/export); provided by the wiring file. */
    exportAudit: fromPromise<AuditExportOutput, AuditFilters>(async () => ({ items: [], total: 0 })),
  },
  actions: {
    setFilter: assign(({ context }, params: { field: AuditFilterField; value: string }) => {
      const draft = { ...context.draft, [params.field]: params.value };
      // A chosen action of another area no longer applies once the area changes.
      if (params.field === 'area' && draft.action && params.value && auditActionInfo(draft.action)?.area !== params.value) draft.action = '';
      return { draft, filterError: null };
    }),
    clearDraft: assign({ draft: NO_FILTERS, filterError: null }),
    clearFilterError: assign({ filterError: null }),
    showRangeError: assign({ filterError: ADMIN_MESSAGES.invalidDateRange }),
    storeApplied: assign(({ context }) => ({ applied: { ...context.draft }, exportNotice: null })),
    applyToList: sendTo('list', ({ context }) => ({ type: 'list.filters' as const, filters: { ...context.draft } })),
    forwardToList: forwardTo('list'),
    clearExportNotice: assign({ exportNotice: null }),
    showExported: assign((_, params: { count: number }) => ({ exportNotice: { text: AUDIT_LOG_MESSAGES.exported(params.count), severity: 'success' as const } })),
    showExportFailed: assign((_, params: { message: string }) => ({ exportNotice: { text: params.message, severity: 'error' as const } })),
    /** Writes the applied filters and page as the page's address (replacing it); provided by the wiring file. */
    writeUrl: (_, _params: AuditUrlParams) => undefined,
    /** Hands the CSV to the browser as a download; provided by the wiring file. */
    downloadCsv: (_, _params: { csv: string; filename: string }) => undefined,
  },
  guards: {
    isClamped: (_, params: { clamped: boolean }) => params.clamped,
    rangeInvalid: ({ context }) => context.draft.from !== '' && context.draft.to !== '' && context.draft.from > context.draft.to,
  },
}).createMachine({
  id: 'staffAdminAudit',
  description: 'The site audit log page: who did what to which object and when, filtered and paged, exported as CSV; the entries are the list child.',
  context: ({ input }) => {
    const filters = { ...NO_FILTERS, ...input?.filters };
    const page = input?.page !== undefined && Number.isInteger(input.page) && input.page > 1 ? input.page : 1;
    return { draft: filters, applied: filters, filterError: null, exportNotice: null, startOffset: (page - 1) * AUDIT_PAGE_SIZE };
  },
  invoke: {
    id: 'list',
    src: 'list',
    input: ({ context }) => ({
      filters: context.applied,
      offset: context.startOffset,
      limit: AUDIT_PAGE_SIZE,
      failedMessage: ADMIN_MESSAGES.auditFailed,
    }),
  },
  on: {
    'audit.filter': { actions: { type: 'setFilter', params: ({ event }) => ({ field: event.field, value: event.value }) } },
    'audit.apply': [
      { guard: 'rangeInvalid', actions: 'showRangeError' },
      { actions: ['clearFilterError', 'storeApplied', 'applyToList', { type: 'writeUrl', params: ({ context }) => ({ filters: { ...context.draft }, page: 1 }) }] },
    ],
    'audit.clear': { actions: ['clearDraft', 'storeApplied', 'applyToList', { type: 'writeUrl', params: () => ({ filters: NO_FILTERS, page: 1 }) }] },
    'list.page': {
      actions: ['forwardToList', { type: 'writeUrl', params: ({ context, event }) => ({ filters: context.applied, page: Math.floor(event.offset / AUDIT_PAGE_SIZE) + 1 }) }],
    },
    'list.reload': { actions: 'forwardToList' },
    // Issue 38: the address's page was past the last one; the list shows the last page, and the address says so.
    'list.queried': {
      guard: { type: 'isClamped', params: ({ event }) => ({ clamped: event.clamped }) },
      actions: { type: 'writeUrl', params: ({ context, event }) => ({ filters: context.applied, page: Math.floor(event.query.offset / AUDIT_PAGE_SIZE) + 1 }) },
    },
  },
  initial: 'browsing',
  states: {
    browsing: {
      description: 'The entries are shown (or being read); the operator drafts filters and applies or clears them together, or exports what the filters show.',
      on: {
        'audit.export': { target: 'exporting', actions: 'clearExportNotice' },
      },
    },
    exporting: {
      description: 'Reading every row of the applied filters, then handing their CSV to the browser as a download.',
      invoke: {
        id: 'exportAudit',
        src: 'exportAudit',
        input: ({ context }) => context.applied,
        onDone: {
          target: 'browsing',
          actions: [
            { type: 'downloadCsv', params: ({ event }) => ({ csv: auditCsv(event.output.items), filename: AUDIT_CSV_FILENAME }) },
            { type: 'showExported', params: ({ event }) => ({ count: event.output.items.length }) },
          ],
        },
        onError: { target: 'browsing', actions: { type: 'showExportFailed', params: ({ event }) => ({ message: errorText(event.error) }) } },
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
export const selectAuditExporting = (s: AuditSnapshot) => s.matches('exporting');
export const selectAuditExportNotice = (s: AuditSnapshot) => s.context.exportNotice;

export const selectAuditEntries = (s: ListSnapshot | undefined) => (s ? selectListRows<AuditLogEntry>(s) : []);
export const selectAuditError = (s: ListSnapshot | undefined) => (s ? selectListError(s) : null);
export const selectAuditLoading = (s: ListSnapshot | undefined) => s?.hasTag('loading') ?? true;
export const selectAuditPaging = (s: ListSnapshot | undefined) => {
  if (!s) return { page: 1, pages: 1, total: 0, previousOffset: null, nextOffset: null };
  const { page, pages, previousOffset, nextOffset } = selectListPaging(s);
  return { page, pages, total: s.context.total, previousOffset, nextOffset };
};

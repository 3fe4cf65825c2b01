/**
 * The Admin area's audit log page (issue 18): filters (who, action, date range) edited as a draft and
 * applied together, paging, and Retry after a failed read. I/O comes from src/adapters/admin-actors.ts.
 */
import { assign, setup, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { AuditListResponse } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export interface AuditFilters {
  who: string;
  action: string;
  from: string;
  to: string;
}
export type AuditFilterField = keyof AuditFilters;

export interface AuditContext {
  draft: AuditFilters;
  applied: AuditFilters;
  page: number;
  result: AuditListResponse | null;
  error: string | null;
  filterError: string | null;
}

export type AuditEvent =
  | { type: 'audit.filter'; field: AuditFilterField; value: string }
  | { type: 'audit.apply' }
  | { type: 'audit.clear' }
  | { type: 'audit.page'; page: number }
  | { type: 'audit.retry' };

export interface FetchAuditInput extends AuditFilters {
  page: number;
}

export const NO_FILTERS: AuditFilters = { who: '', action: '', from: '', to: '' };

function fetchAuditInput({ context }: { context: AuditContext }): FetchAuditInput {
  return { ...context.applied, page: context.page };
}

function outputOf<T>(event: AnyEventObject): T {
  return (event as AnyEventObject & { output: T }).output;
}

export const staffAdminAuditMachine = setup({
  types: {
    context: {} as AuditContext,
    events: {} as AuditEvent,
  },
  actors: {
    fetchAudit: providedLater<AuditListResponse, FetchAuditInput>('fetchAudit'),
  },
  actions: {
    setFilter: assign(({ context, event }) => (event.type === 'audit.filter' ? { draft: { ...context.draft, [event.field]: event.value }, filterError: null } : {})),
    applyFilters: assign(({ context }) => ({ applied: context.draft, page: 1, filterError: null })),
    clearFilters: assign({ draft: NO_FILTERS, applied: NO_FILTERS, page: 1, filterError: null }),
    showRangeError: assign({ filterError: ADMIN_MESSAGES.invalidDateRange }),
    setPage: assign(({ event }) => (event.type === 'audit.page' ? { page: event.page } : {})),
    storeResult: assign(({ event }) => ({ result: outputOf<AuditListResponse>(event), error: null })),
    storeError: assign(({ event }) => ({ error: failureMessage((event as AnyEventObject & { error: unknown }).error, ADMIN_MESSAGES.auditFailed) })),
  },
  guards: {
    rangeInvalid: ({ context }) => context.draft.from !== '' && context.draft.to !== '' && context.draft.from > context.draft.to,
    pageInRange: ({ context, event }) => {
      const result = context.result;
      if (!result || event.type !== 'audit.page') return false;
      const last = Math.max(1, Math.ceil(result.total / result.pageSize));
      return event.page >= 1 && event.page <= last && event.page !== result.page;
    },
  },
}).createMachine({
  id: 'staffAdminAudit',
  description: 'The site audit log: who did what and when, filtered and paged.',
  context: { draft: NO_FILTERS, applied: NO_FILTERS, page: 1, result: null, error: null, filterError: null },
  initial: 'loading',
  on: {
    'audit.filter': { actions: 'setFilter' },
  },
  states: {
    loading: {
      description: 'The page of entries matching the applied filters is being read.',
      invoke: {
        id: 'fetchAudit',
        src: 'fetchAudit',
        input: fetchAuditInput,
        onDone: { target: 'ready', actions: 'storeResult' },
        onError: { target: 'failed', actions: 'storeError' },
      },
    },
    failed: {
      description: 'The log could not be read; Retry reads it again.',
      on: { 'audit.retry': 'loading' },
    },
    ready: {
      description: 'The entries are shown.',
      on: {
        'audit.apply': [
          { guard: 'rangeInvalid', actions: 'showRangeError' },
          { target: 'loading', actions: 'applyFilters' },
        ],
        'audit.clear': { target: 'loading', actions: 'clearFilters' },
        'audit.page': { guard: 'pageInRange', target: 'loading', actions: 'setPage' },
      },
    },
  },
});

export type StaffAdminAuditMachine = typeof staffAdminAuditMachine;
export type AuditSnapshot = SnapshotFrom<StaffAdminAuditMachine>;

export const selectAuditEntries = (s: AuditSnapshot) => s.context.result?.items ?? [];
export const selectAuditDraft = (s: AuditSnapshot) => s.context.draft;
export const selectAuditError = (s: AuditSnapshot) => (s.matches('failed') ? s.context.error : null);
export const selectAuditFilterError = (s: AuditSnapshot) => s.context.filterError;
export const selectAuditLoading = (s: AuditSnapshot) => s.matches('loading');
export const selectAuditPaging = (s: AuditSnapshot) => {
  const r = s.context.result;
  return r ? { page: r.page, pages: Math.max(1, Math.ceil(r.total / r.pageSize)), total: r.total } : { page: 1, pages: 1, total: 0 };
};

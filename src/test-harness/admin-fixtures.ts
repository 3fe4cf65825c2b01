/** Wire-shaped answers and the Admin page machines with fake I/O for the Admin views' tests. */
import type { AnyActorLogic } from 'xstate';
import type { StaffListResponse, StaffMember } from '../../common/admin-contract';
import type { AuditLogEntry } from '../../common/audit-actions';
import { listMachine, type ListQuery } from '../../machines/list.machine';
import { staffAdminAuditMachine, type AuditExportOutput, type AuditFilters, type AuditUrlParams } from '../../machines/staff-admin-audit.machine';
import { auditHref } from '../../common/audit-search';
import { listSearchHref } from '../../common/list-search';
import { staffAdminMachine, type StaffPage } from '../../machines/staff-admin.machine';
import { staffDialogMachine } from '../../machines/staff-dialog.machine';
import { historyDisclosureMachine } from '../../machines/history-disclosure.machine';
import { pageHistoryMachine } from '../../machines/history.machine';
import { fakeActor, pendingActor } from '../../machines/test-harness/fakes';

export function member(id: string, overrides: Partial<StaffMember> = {}): StaffMember {
  return {
    id, username: `${id}@demo.test`, email: `${id}@demo.test`, displayName: `Name ${id}`, phoneNumber: '+15550100001',
    twoFactorOnLogin: false, roles: { Content: 'read' }, disabled: false, createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: null,
    activeSessions: 0, version: 2, ...overrides,
  };
}

export function staffList(overrides: Partial<StaffListResponse> = {}): StaffListResponse {
  return {
    success: true, items: [member('ada', { displayName: 'Ada Admin', roles: { Admin: 'write' } }), member('bob', { displayName: 'Bob Reader' })],
    total: 2, page: 1, pageSize: 20, canEdit: true, selfId: 'ada',
    secondFactor: { rule: 'optional', accounts: 2, withSms: 0, withAuthenticator: 0, withNeither: 0, ownAuthenticator: true },
    grantable: { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' }, ...overrides,
  };
}

export interface AuditPageAnswer { items: AuditLogEntry[]; total: number }

/** One page of the audit log in words (issue 28): a brand save naming its network, and a staff change. */
export function auditList(): AuditPageAnswer {
  return {
    items: [
      {
        id: 'e1', at: '2026-03-01T10:00:00.000Z', action: 'appcms.brand.save', label: 'Brand saved', area: 'appcms', actor: { id: 'ada', username: 'ada@demo.test' },
        object: { kind: 'brand', id: 'n1', name: 'Kids Zone', words: 'brand of network Kids Zone', link: '/appcms/brand?network=kids-zone' },
        changes: [{ field: 'Theme primary color', before: '#AA0000', after: '#123456' }], note: '', detail: {},
      },
      {
        id: 'e2', at: '2026-03-01T09:00:00.000Z', action: 'staff.updated', label: 'Staff account updated', area: 'admin', actor: { id: 'ada', username: 'ada@demo.test' },
        object: { kind: 'staff', id: 'bob', name: 'Bob (bob@demo.test)', words: 'staff account Bob (bob@demo.test)', link: '/admin' },
        changes: [{ field: 'Roles', before: 'content read', after: '(none)' }], note: '', detail: {},
      },
    ],
    total: 2,
  };
}

/** The staff list's answer as the Admin wiring file hands it to the list machine. */
export function staffPage(list: StaffListResponse): StaffPage {
  const { items, total, canEdit, selfId, secondFactor, grantable } = list;
  return { items, total, meta: { canEdit, selfId, secondFactor, grantable } };
}

/** `loadHistory`: the Staff page's Histories' `load` (an account's, the second-factor rule's). */
type StaffActorName = 'saveStaff' | 'runAction' | 'fetchSessions' | 'endSession' | 'loadHistory';

/**
 * The Staff page machine with fake I/O for `renderView(<StaffPage />, { pages: { staff: … } })`: the list
 * answers `fetchStaff(query)` (default: staffList()); every other actor never settles unless given.
 */
export function staffPageLogic(
  fetchStaff: (query: ListQuery) => StaffListResponse = () => staffList(),
  actors: Partial<Record<StaffActorName, AnyActorLogic>> = {},
  /** The addresses the page writes as the search changes (issue 38), as the wiring file builds them. */
  onSearch: (href: string) => void = () => undefined,
) {
  const history = pageHistoryMachine.provide({ actors: { load: actors.loadHistory ?? pendingActor() } });
  const disclosure = historyDisclosureMachine.provide({ actors: { history } });
  return staffAdminMachine.provide({
    actors: {
      list: listMachine.provide({ actors: { fetchPage: fakeActor((query: ListQuery) => staffPage(fetchStaff(query))) } }),
      staffDialog: staffDialogMachine.provide({ actors: { saveStaff: actors.saveStaff ?? pendingActor(), history: disclosure } }),
      ruleHistory: disclosure,
      staffHistory: history,
      runAction: actors.runAction ?? pendingActor(),
      fetchSessions: actors.fetchSessions ?? pendingActor(),
      endSession: actors.endSession ?? pendingActor(),
    },
    actions: { writeSearch: (_, params: { search: string }) => onSearch(listSearchHref('/admin', params.search)) },
  });
}

/** The pages the Staff page starts: its own machine (`staffPageLogic`; the second-factor rule is part of it, issue 30). */
export function staffPages(staff = staffPageLogic()) {
  return { staff };
}

/** The Audit page machine whose list answers `fetchAudit(query)`. */
export function auditPageLogic(
  fetchAudit: (query: ListQuery) => AuditPageAnswer = () => auditList(),
  exportAudit: (filters: AuditFilters) => AuditExportOutput = () => auditList(),
  onDownload: (csv: string, filename: string) => void = () => undefined,
  /** The addresses the page writes (issue 38), as the wiring file builds them. */
  onUrl: (href: string) => void = () => undefined,
) {
  return staffAdminAuditMachine.provide({
    actors: {
      list: listMachine.provide({ actors: { fetchPage: fakeActor((query: ListQuery) => fetchAudit(query)) } }),
      exportAudit: fakeActor((filters: AuditFilters) => exportAudit(filters)),
    },
    actions: {
      downloadCsv: (_, params: { csv: string; filename: string }) => onDownload(params.csv, params.filename),
      writeUrl: (_, params: AuditUrlParams) => onUrl(auditHref(params.filters, params.page)),
    },
  });
}

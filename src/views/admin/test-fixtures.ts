/** Wire-shaped answers for the Admin views' tests. */
import type { AuditListResponse, StaffListResponse, StaffMember } from '../../../common/admin-contract';

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
    total: 2, page: 1, pageSize: 20, canEdit: true, selfId: 'ada', requireTwoFactor: false,
    grantable: { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' }, ...overrides,
  };
}

export function auditList(): AuditListResponse {
  return {
    success: true, page: 1, pageSize: 25, total: 1,
    items: [{
      id: 'e1', at: '2026-03-01T10:00:00.000Z', action: 'staff.updated', actor: { id: 'ada', username: 'ada@demo.test' },
      detail: { targetUsername: 'bob@demo.test', before: { roles: { Content: 'read' } }, after: { roles: {} } },
    }],
  };
}

import { describe, expect, it } from 'vitest';
import { describeChange, fieldLabel, formatValue } from '../shared/revision-text';
import type { Revision } from '../../../common/revisions';
import { adminChangeInWords, adminRevisionInWords } from '../../../common/staff-revision-words';

function revision(kind: Revision['kind'], changes: Revision['changes']): Revision {
  return {
    seq: 7, kind, objectId: 'x', objectName: null, networkId: null, objectVersion: 2, actor: null, at: '2026-03-01T10:00:00.000Z',
    reason: null, requestId: null, restoredFrom: null, changes,
  };
}

const lines = (r: Revision) => adminRevisionInWords(r).changes.map((c) => describeChange(c));

describe('Admin revisions in words', () => {
  it('reads a role change one line per area that changed, "none" for no role', () => {
    const r = revision('staff', [{ field: 'roles', before: { Content: 'read', Admin: 'write' }, after: { Content: 'write', 'App CMS': 'read', Admin: 'write' } }]);
    expect(lines(r)).toEqual(['Content: read → write', 'App CMS: none → read']);
    expect(lines(revision('staff', [{ field: 'roles', before: { Admin: 'read' }, after: {} }]))).toEqual(['Admin: read → none']);
  });

  it('lists a creation\'s roles as the areas it grants (nothing before)', () => {
    const created = adminRevisionInWords(revision('staff', [
      { field: 'displayName', before: null, after: 'Eve' },
      { field: 'roles', before: null, after: { 'Customer Support': 'contributor' } },
      { field: 'twoFactorOnLogin', before: null, after: false },
      { field: 'disabled', before: null, after: false },
    ]));
    expect(created.changes).toEqual([
      { field: 'displayName', before: null, after: 'Eve' },
      { field: 'roles.Customer Support', before: null, after: 'contributor' },
      { field: 'twoFactorOnLogin', before: null, after: 'Off' },
      { field: 'accountState', before: null, after: 'Active' },
    ]);
    expect(created.changes.map((c) => `${fieldLabel(c.field)}: ${formatValue(c.after, c.field)}`))
      .toEqual(['Display name: Eve', 'Customer Support: contributor', 'SMS code at sign-in: Off', 'Account: Active']);
  });

  it('reads switches as On/Off, the account as Active/Disabled, the mobile number by its label', () => {
    expect(lines(revision('staff', [
      { field: 'twoFactorOnLogin', before: true, after: false },
      { field: 'disabled', before: false, after: true },
      { field: 'phone', before: '•••• 0101', after: '•••• 0202' },
    ]))).toEqual(['SMS code at sign-in: On → Off', 'Account: Active → Disabled', 'Mobile number: •••• 0101 → •••• 0202']);
  });

  it('reads the second-factor rule by its labels (and the two switches it replaced as On/Off)', () => {
    expect(lines(revision('siteSecurity', [{ field: 'secondFactorRule', before: 'optional', after: 'required' }])))
      .toEqual(['Second factor at sign-in: Not required → Required — a code by SMS or an authenticator app']);
    expect(lines(revision('siteSecurity', [{ field: 'requireTwoFactor', before: false, after: true }])))
      .toEqual(['SMS code required for everyone: Off → On']);
    expect(adminChangeInWords({ field: 'secondFactorRule', before: 'unknown', after: 'authenticator' }))
      .toEqual([{ field: 'secondFactorRule', before: 'unknown', after: 'Required — an authenticator app' }]);
  });

  it('leaves other kinds as they are', () => {
    const plan = revision('plan', [{ field: 'roles', before: { a: 1 }, after: { a: 2 } }]);
    expect(adminRevisionInWords(plan)).toBe(plan);
  });
});

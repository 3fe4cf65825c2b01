// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetStaffDraft, keepStaffDraft, readStaffDraft } from './staff-dialog-draft';

afterEach(() => sessionStorage.clear());

describe('the staff dialog draft (issue 38)', () => {
  it("keeps an account's typed values with its id and version, roles included, and forgets them", () => {
    keepStaffDraft({ memberId: 'b', version: 3, values: { email: 'b@demo.test', displayName: 'Typed', phoneNumber: '+15550100002', twoFactorOnLogin: true, roles: { Admin: 'read' } } });
    expect(readStaffDraft()).toEqual({ memberId: 'b', version: 3, values: { email: 'b@demo.test', displayName: 'Typed', phoneNumber: '+15550100002', twoFactorOnLogin: true, roles: { Admin: 'read' } } });
    forgetStaffDraft();
    expect(readStaffDraft()).toBeNull();
  });

  it("keeps a new account's draft as id null, and reads nothing from an unreadable store", () => {
    keepStaffDraft({ memberId: null, version: 0, values: { email: 'new@demo.test' } });
    expect(readStaffDraft()).toEqual({ memberId: null, version: 0, values: { email: 'new@demo.test', roles: {} } });
    sessionStorage.setItem('formDraft:staffDialog', '{"version":1,"values":{"email":"x"}}');
    expect(readStaffDraft()).toBeNull();
  });

  it('never stores a secret field', () => {
    keepStaffDraft({ memberId: 'b', version: 3, values: { displayName: 'Typed', password: 'hunter2' } as never });
    expect(sessionStorage.getItem('formDraft:staffDialog')).toContain('Typed');
    expect(Object.values({ ...sessionStorage }).join()).not.toContain('hunter2');
  });
});

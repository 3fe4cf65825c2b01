import { describe, expect, it } from 'vitest';
import { auditObjectLink } from './audit-actions';
import { auditFiltersOf, auditHref, validateAuditSearch } from './audit-search';

describe('the audit log address (issue 38)', () => {
  it('keeps every valid filter and page', () => {
    expect(validateAuditSearch({
      area: 'admin', action: 'staff.disabled', who: 'ana', objectKind: 'coupon', object: 'SPRING', from: '2026-03-01', to: '2026-03-02', page: '3',
    })).toEqual({ area: 'admin', action: 'staff.disabled', who: 'ana', objectKind: 'coupon', object: 'SPRING', from: '2026-03-01', to: '2026-03-02', page: 3 });
  });

  it('drops an invalid value, so a bad link still opens the log', () => {
    expect(validateAuditSearch({
      area: 'nowhere', action: 'no.such.action', who: '  ', objectKind: 'toString', object: 'x'.repeat(201), from: '2026-13-45', to: 'yesterday', page: 'two',
    })).toEqual({});
    expect(validateAuditSearch({ page: 1 })).toEqual({});
    expect(validateAuditSearch({ page: 2.5 })).toEqual({});
    expect(validateAuditSearch({ page: 100001 })).toEqual({});
    expect(validateAuditSearch({ who: 42 })).toEqual({});
  });

  it('drops an action of another area than the one named, and a range that ends before it starts', () => {
    expect(validateAuditSearch({ area: 'appcms', action: 'staff.disabled' })).toEqual({ area: 'appcms' });
    expect(validateAuditSearch({ action: 'staff.disabled' })).toEqual({ action: 'staff.disabled' });
    expect(validateAuditSearch({ from: '2026-03-05', to: '2026-03-01' })).toEqual({});
    expect(validateAuditSearch({ from: '2026-03-05' })).toEqual({ from: '2026-03-05' });
  });

  it('writes the address with empty filters and page 1 left out, in a fixed order, and reads it back', () => {
    const filters = auditFiltersOf({ who: 'ana b', area: 'admin' });
    expect(filters).toEqual({ area: 'admin', action: '', who: 'ana b', objectKind: '', object: '', from: '', to: '' });
    expect(auditHref(filters, 1)).toBe('/admin/audit?area=admin&who=ana+b');
    expect(auditHref(filters, 4)).toBe('/admin/audit?area=admin&who=ana+b&page=4');
    expect(auditHref(auditFiltersOf({}), 1)).toBe('/admin/audit');
    const back = Object.fromEntries(new URLSearchParams(auditHref(filters, 4).split('?')[1]));
    expect(validateAuditSearch(back)).toEqual({ area: 'admin', who: 'ana b', page: 4 });
  });
});

describe("an audit row's link to a staff account or a coupon (issue 38)", () => {
  it('opens the staff list searched for the username, and the coupon list searched for the code', () => {
    expect(auditObjectLink('staff', 'id-1', null, null, 'ana+ops@demo.test')).toBe('/admin?search=ana%2Bops%40demo.test');
    expect(auditObjectLink('coupon', 'id-2', null, null, 'SPRING 25')).toBe('/monetization/coupon?search=SPRING%2025');
    // Without the name (the object was deleted), the list unsearched.
    expect(auditObjectLink('staff', 'id-1', null)).toBe('/admin');
    expect(auditObjectLink('coupon', 'id-2', null)).toBe('/monetization/coupon');
    expect(auditObjectLink('siteSecurity', 'site', null, null, 'site')).toBe('/admin');
  });
});

import { describe, expect, it } from 'vitest';
import { AREAS, ROUTES } from './constants';
import {
  accessFlagsFor, applyAllowedSites, areaForPath, canContinue, canEdit, landingRouteFor, parseRoles, routeAfterSignIn, visibleTabsFor,
} from './roles';

describe('landingRouteFor (spec §2.3)', () => {
  it.each([
    [{ 'Dashboard 360': 'read', Content: 'write', Admin: 'write' }, '/analytics'],
    [{ Content: 'contributor', Admin: 'write' }, '/content'],
    [{ 'Subscriptions & Offers': 'read', 'Customer Support': 'read' }, '/monetization/models'],
    [{ 'Customer Support': 'write', 'App CMS': 'write' }, '/users'],
    [{ 'App CMS': 'read', Admin: 'read' }, '/appcms'],
    [{ Admin: 'write' }, '/admin'],
    [{}, '/forbidden'],
  ] as const)('roles %j land on %s', (roles, route) => {
    expect(landingRouteFor(roles)).toBe(route);
  });
});

describe('role levels (spec §6)', () => {
  it('lets read, write and contributor continue', () => {
    for (const level of ['read', 'write', 'contributor'] as const) expect(canContinue({ Content: level }, AREAS.content)).toBe(true);
    expect(canContinue({}, AREAS.content)).toBe(false);
  });
  it('lets only write and contributor edit', () => {
    expect(canEdit({ Content: 'read' }, AREAS.content)).toBe(false);
    expect(canEdit({ Content: 'write' }, AREAS.content)).toBe(true);
    expect(canEdit({ Content: 'contributor' }, AREAS.content)).toBe(true);
  });
  it('derives the four access flags of spec §3', () => {
    expect(accessFlagsFor({ Admin: 'read', 'Customer Support': 'write' })).toEqual({
      adminAccess: true, contentAccess: false, subOfferAccess: false, custAccess: true,
    });
  });
  it('shows a tab only for an area with a role', () => {
    expect(visibleTabsFor({ Content: 'read', 'App CMS': 'write' }).map((t) => t.label)).toEqual(['Content', 'AppCMS']);
    expect(visibleTabsFor({})).toEqual([]);
  });
});

describe('applyAllowedSites (spec §4.1 step 5)', () => {
  const roles = { 'Dashboard 360': 'read', Content: 'write' } as const;
  it('keeps Dashboard 360 when the list is empty', () => {
    expect(applyAllowedSites(roles, 'any', [])).toEqual(roles);
  });
  it('keeps Dashboard 360 for a listed site', () => {
    expect(applyAllowedSites(roles, 'a', ['a'])).toEqual(roles);
  });
  it('drops Dashboard 360 for an unlisted site', () => {
    expect(applyAllowedSites(roles, 'b', ['a'])).toEqual({ Content: 'write' });
  });
});

describe('parseRoles', () => {
  it('keeps only known areas with known levels', () => {
    expect(parseRoles({ Content: 'write', Bogus: 'read', Admin: 'owner' })).toEqual({ Content: 'write' });
    expect(parseRoles('nonsense')).toEqual({});
    expect(parseRoles(null)).toEqual({});
  });
});

describe('areaForPath', () => {
  it('maps each area prefix', () => {
    expect(areaForPath('/analytics/qos-isp')).toBe(AREAS.dashboard360);
    expect(areaForPath('/monetization/plans')).toBe(AREAS.subscriptionsOffers);
    expect(areaForPath(ROUTES.forbidden)).toBeUndefined();
  });
});

describe('routeAfterSignIn (issue 20: deep links)', () => {
  const roles = { 'App CMS': 'read', Content: 'write' } as const;
  it('returns to an internal path the roles allow, with its search', () => {
    expect(routeAfterSignIn(roles, '/appcms/settings?tab=1')).toBe('/appcms/settings?tab=1');
    expect(routeAfterSignIn(roles, '/content/video/42')).toBe('/content/video/42');
  });
  it('lands on the landing route for no deep link, another area, an external or odd path', () => {
    for (const requested of [null, '/admin', '//evil.test/x', '/\\evil.test', 'https://evil.test', '/', '/forbidden']) {
      expect(routeAfterSignIn(roles, requested)).toBe(ROUTES.content);
    }
  });
});

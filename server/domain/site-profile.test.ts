/**
 * The stored site profile is read through its schema (issue 39: no casts): the fields login/info
 * serves come from it, a missing field reads as its default, and a field stored with another type is
 * refused with the site and the field named.
 */
import { describe, expect, it } from 'vitest';
import type { SiteRow } from './rows';
import { buildSiteProfile, siteFlags, storedProfileOf } from './site-profile';

const site = (profile: Record<string, unknown>): SiteRow => ({
  id: 'site-1', siteInternalName: 'probe-site', serviceName: 'Probe', serviceType: 'SVOD', serviceTypes: ['SVOD'], templateName: 't', languageCode: 'en',
  forceLogin: false, isMonetizationModelEnabled: false, monetizationVersion: 1, domainName: 'probe.test', siteBaseUrl: 'https://probe.test',
  backendUrl: 'https://api.probe.test', isLaunched: true, managementApiKey: 'key', defaultTimezone: 'UTC', cloudProvider: 'aws', profile,
  secondFactorRule: 'optional', serviceVersion: 1, signingKey: 'k', signingKeyRotatedAt: null,
});
const user = { username: 'ana', roles: { Admin: 'read' } as const, twoFactorOnLogin: false, phoneNumber: '' };

describe('the stored site profile (server/domain/site-profile.ts)', () => {
  it('serves the stored fields, defaults for the missing ones, and the roles', () => {
    const profile = buildSiteProfile(site({ siteType: 'OTT', siteMap: { home: '/' }, domainNames: ['a.test', 'b.test'], enableQOS: true, contributorData: null }), user, { encodingDisabledSite: '' });
    expect(profile).toMatchObject({
      siteType: 'OTT', siteMap: { home: '/' }, domainName: ['a.test', 'b.test'], enableQOS: true, isVerified: true, gaId: '',
      contributorData: null, contentContributorData: null, roles: { Admin: 'read' },
    });
    expect(buildSiteProfile(site({}), user, { encodingDisabledSite: '' })).toMatchObject({ siteType: 'SVOD', domainName: ['probe.test'], siteMap: {} });
    expect(siteFlags(site({ v2ManagementApiEnabled: true }))).toEqual({ v2ManagementApiEnabled: true, v2VodManagementApiEnabled: false });
  });

  it('refuses a field stored with another type, naming the site and the field', () => {
    expect(() => storedProfileOf(site({ enableQOS: 'yes' }))).toThrow('The stored profile of site probe-site is not valid: enableQOS must be boolean.');
    expect(() => buildSiteProfile(site({ domainNames: ['a.test', 3] }), user, { encodingDisabledSite: '' })).toThrow('domainNames.1 must be string');
    expect(() => siteFlags(site({ siteMap: ['/'] }))).toThrow('siteMap must be object,null');
  });
});

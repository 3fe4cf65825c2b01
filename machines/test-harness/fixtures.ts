/** Wire-shaped fixtures for machine tests. */
import type { StaffMember } from '../../common/admin-contract';
import type { LoginResponse, SiteProfile } from '../../common/contract';

export function siteProfile(overrides: Partial<SiteProfile> = {}): SiteProfile {
  return {
    site: 'demo-site', siteId: 'site-1', siteType: 'vod', roles: { Content: 'write' }, siteMap: {},
    isServiceLaunched: true, gaId: '', domainName: ['demo.example'], desktopLogo: '', username: 'ada',
    otpDetails: { isTwoFactorOnLogin: false, obscureMobileNumber: '' }, firebasePropertyId: '', serviceId: 'svc-1',
    bucket: '', bucketRegion: '', analyticsURL: '', reelybaseURL: '', encodingService: true, contributorData: null,
    contentContributorData: null, isToolsMonetizationModelEnabled: false, renditionUrl: '', templateBuilderURL: '',
    tbHostUrl: '', isDRMEncryptionRequired: false, isVerified: true, settingsId: '', enableQOS: false,
    enableLiveStream: false, enableSSAISupport: false, managementXApiKey: 'key-1', isVerticleVideoEnabled: false,
    defaultTimezone: 'UTC', isSocialPublishAutomated: false,
    ...overrides,
  };
}

export function loginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    success: true, message: '', isTwoFactorOnLogin: false, obscureMobileNumber: '', username: 'ada',
    accessToken: 'token-1', refreshToken: '', v2ManagementApiEnabled: true, v2VodManagementApiEnabled: true,
    ...overrides,
  };
}

/** An unsigned JWT-shaped token with the given claims (machines only read the payload). */
export function jwtWith(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.sig`;
}

/** A staff account of the Admin area's list (its id doubles as the e-mail's local part). */
export function staffMember(id: string, overrides: Partial<StaffMember> = {}): StaffMember {
  return {
    id, username: `${id}@demo.test`, email: `${id}@demo.test`, displayName: `Name ${id}`, phoneNumber: '+15550100001',
    twoFactorOnLogin: false, roles: { Content: 'read' }, disabled: false, createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: null,
    activeSessions: 1, version: 3, ...overrides,
  };
}

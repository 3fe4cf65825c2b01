/** Wire-shaped fixtures for machine tests. */
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

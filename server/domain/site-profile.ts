/**
 * The site profile of spec §3 (GET login/info): columns of `sites`, the rest from its `profile`
 * jsonb, roles and 2FA details from the user.
 */
import type { Roles, SiteProfile } from '../../common/contract';
import type { AuthUser, SiteRow } from './auth-context';

export function obscureMobileNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `******${digits.slice(-4)}`;
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}
function bool(value: unknown, fallback = false): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
function obj(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function siteFlags(site: SiteRow): { v2ManagementApiEnabled: boolean; v2VodManagementApiEnabled: boolean } {
  return {
    v2ManagementApiEnabled: bool(site.profile.v2ManagementApiEnabled),
    v2VodManagementApiEnabled: bool(site.profile.v2VodManagementApiEnabled),
  };
}

export function buildSiteProfile(site: SiteRow, user: Pick<AuthUser, 'username' | 'roles' | 'twoFactorOnLogin' | 'phoneNumber'>, opts: { encodingDisabledSite: string }): SiteProfile {
  const p = site.profile;
  const siteMap = obj(p.siteMap);
  const domains = Array.isArray(p.domainNames) ? p.domainNames.filter((d): d is string => typeof d === 'string') : [site.domainName];
  return {
    site: site.siteInternalName,
    siteId: site.id,
    siteType: str(p.siteType, site.serviceType),
    roles: user.roles as Roles,
    siteMap: siteMap ? Object.fromEntries(Object.entries(siteMap).map(([k, v]) => [k, String(v)])) : {},
    isServiceLaunched: site.isLaunched,
    gaId: str(p.gaId),
    domainName: domains,
    desktopLogo: str(p.desktopLogo),
    username: user.username,
    otpDetails: {
      isTwoFactorOnLogin: user.twoFactorOnLogin,
      obscureMobileNumber: user.twoFactorOnLogin ? obscureMobileNumber(user.phoneNumber) : '',
    },
    firebasePropertyId: str(p.firebasePropertyId),
    serviceId: str(p.serviceId, site.id),
    bucket: str(p.bucket),
    bucketRegion: str(p.bucketRegion),
    analyticsURL: str(p.analyticsURL),
    reelybaseURL: str(p.reelybaseURL),
    encodingService: site.siteInternalName !== opts.encodingDisabledSite,
    contributorData: obj(p.contributorData),
    contentContributorData: obj(p.contentContributorData),
    isToolsMonetizationModelEnabled: site.isMonetizationModelEnabled,
    renditionUrl: str(p.renditionUrl),
    templateBuilderURL: str(p.templateBuilderURL),
    tbHostUrl: str(p.tbHostUrl),
    isDRMEncryptionRequired: bool(p.isDRMEncryptionRequired),
    isVerified: bool(p.isVerified, true),
    settingsId: str(p.settingsId),
    enableQOS: bool(p.enableQOS),
    enableLiveStream: bool(p.enableLiveStream),
    enableSSAISupport: bool(p.enableSSAISupport),
    managementXApiKey: site.managementApiKey,
    isVerticleVideoEnabled: bool(p.isVerticleVideoEnabled),
    defaultTimezone: site.defaultTimezone,
    isSocialPublishAutomated: bool(p.isSocialPublishAutomated),
  };
}

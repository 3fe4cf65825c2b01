/**
 * The site profile of spec §3 (GET login/info): columns of `sites`, the rest from its `profile`
 * jsonb, roles and 2FA details from the user.
 */
import Ajv from 'ajv';
import type { SiteProfile } from '../../common/contract';
import type { FromSchema } from '../../common/json-schema';
import { parseRoles } from '../../common/roles';
import type { AuthUser, SiteRow } from './auth-context';

const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const map = { type: ['object', 'null'], additionalProperties: true } as const;

/**
 * The stored `profile` of a site (the jsonb of spec §3's remaining fields), as it may be stored: every
 * field optional (a missing one reads as its default), each of its own type; other keys are kept.
 */
const STORED_PROFILE_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  properties: {
    siteType: text, siteMap: map, gaId: text, domainNames: { type: 'array', items: text }, desktopLogo: text, firebasePropertyId: text,
    serviceId: text, bucket: text, bucketRegion: text, analyticsURL: text, reelybaseURL: text, contributorData: map, contentContributorData: map,
    renditionUrl: text, templateBuilderURL: text, tbHostUrl: text, isDRMEncryptionRequired: flag, isVerified: flag, settingsId: text,
    enableQOS: flag, enableLiveStream: flag, enableSSAISupport: flag, isVerticleVideoEnabled: flag, isSocialPublishAutomated: flag,
    v2ManagementApiEnabled: flag, v2VodManagementApiEnabled: flag,
  },
} as const;

export type StoredProfile = FromSchema<typeof STORED_PROFILE_SCHEMA>;

const isStoredProfile = new Ajv({ allErrors: false, strict: false, coerceTypes: false }).compile<StoredProfile>(STORED_PROFILE_SCHEMA);

/**
 * The site's stored profile, checked against STORED_PROFILE_SCHEMA. A profile stored with a field
 * of another type is refused with the site and the field named (a server error an operator can act
 * on), never read as a default nor passed on as it is.
 */
export function storedProfileOf(site: Pick<SiteRow, 'siteInternalName' | 'profile'>): StoredProfile {
  if (isStoredProfile(site.profile)) return site.profile;
  const error = isStoredProfile.errors?.[0];
  const field = error?.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'profile';
  throw new Error(`The stored profile of site ${site.siteInternalName} is not valid: ${field} ${error?.message ?? 'is not an object'}.`);
}

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
export function siteFlags(site: SiteRow): { v2ManagementApiEnabled: boolean; v2VodManagementApiEnabled: boolean } {
  const p = storedProfileOf(site);
  return {
    v2ManagementApiEnabled: bool(p.v2ManagementApiEnabled),
    v2VodManagementApiEnabled: bool(p.v2VodManagementApiEnabled),
  };
}

export function buildSiteProfile(site: SiteRow, user: Pick<AuthUser, 'username' | 'roles' | 'twoFactorOnLogin' | 'phoneNumber'>, opts: { encodingDisabledSite: string }): SiteProfile {
  const p = storedProfileOf(site);
  const siteMap = p.siteMap ?? null;
  const domains = p.domainNames ?? [site.domainName];
  return {
    site: site.siteInternalName,
    siteId: site.id,
    siteType: str(p.siteType, site.serviceType),
    roles: parseRoles(user.roles),
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
    contributorData: p.contributorData ?? null,
    contentContributorData: p.contentContributorData ?? null,
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

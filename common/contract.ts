/**
 * Wire shapes shared by the browser and the server (spec §3, §7). Each body is written once, as the
 * JSON schema in SCHEMAS (the server validates requests and serialises fixed-shape answers with it);
 * its TypeScript type is derived from that schema (FromSchema), so the two cannot drift apart.
 */
import type { AccessLevel, AreaName } from './constants';
import type { FromSchema } from './json-schema';

export type Roles = Partial<Record<AreaName, AccessLevel>>;

/**
 * Issue 25: every optimistic-concurrency `version` (and a settings `restore`) is a PostgreSQL integer,
 * so the schema caps it there: a bigger number is a 400 at the schema, never a 500 from the database.
 */
export const MAX_VERSION = 2_147_483_647;
export const VERSION_SCHEMA = { type: 'integer', minimum: 1, maximum: MAX_VERSION } as const;
/** A real UUID (8-4-4-4-12 hex digits), for ids in paths: anything else is a 404 or 400, never a 500. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export interface ApiFailure {
  success: false;
  message: string;
}

/** A theme of a network's brand (web, OTT or apps). */
export interface ThemeColors {
  primaryColor: string;
  secondaryColor: string;
  backgroundColor: string;
  textColor: string;
  fontFamily: string;
}

/** One device platform of a network. */
export interface DeviceEntry {
  platform: string;
  name: string;
  enabled: boolean;
  minAppVersion: string;
}

export type NetworkDataKind = 'settings' | 'brand' | 'device';

/** Runtime configuration the server injects into index.html as window.__CMS_CONFIG__. */
export interface RuntimeConfig {
  inactivityTimeoutMinutes: number;
  inactivityExcludedPaths: string[];
  gaMeasurementId: string;
  analyticsAllowedSites: string[];
  encodingDisabledSite: string;
  inspect: boolean;
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    microsoftTenant: string;
    emulatorUrl: string;
  } | null;
}

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const text = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;
const anyObjectOrNull = { type: ['object', 'null'], additionalProperties: true } as const;

const network = {
  type: 'object',
  required: ['name', 'identifier', 'image', 'isActive', 'isDefault'],
  properties: { name: str, identifier: str, image: str, isActive: bool, isDefault: bool },
} as const;

const networkBrandCopy = {
  type: 'object',
  required: ['logoAndIcons', 'theme', 'themeOtt', 'themeApps'],
  properties: { logoAndIcons: bool, theme: bool, themeOtt: bool, themeApps: bool },
} as const;

/** JSON schemas of every request and fixed-shape response body; the types below derive from them. */
export const SCHEMAS = {
  login: {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: text(200, 1), password: text(500, 1), deviceId: text(200) },
  },
  /** Login response of spec §3 (also the googleLogin / microsoftLogin result). */
  loginResponse: {
    type: 'object',
    required: ['success', 'message', 'isTwoFactorOnLogin', 'obscureMobileNumber', 'username', 'accessToken', 'refreshToken', 'v2ManagementApiEnabled', 'v2VodManagementApiEnabled'],
    properties: {
      success: bool, message: str, isTwoFactorOnLogin: bool, obscureMobileNumber: str, username: str,
      accessToken: str, refreshToken: str, v2ManagementApiEnabled: bool, v2VodManagementApiEnabled: bool,
      /** Added (SECURITY.md C-OTP-3): with isTwoFactorOnLogin, the proof a resend of the login code must carry. */
      loginAttemptToken: str,
      /** Added (issue 19): with isTwoFactorOnLogin, which code the next step takes ('totp': the authenticator app, no SMS sent). */
      secondFactor: { type: 'string', enum: ['sms', 'totp'] },
      /** Added (issue 19): signed in, but the site requires an authenticator app this user has not set up yet. */
      authenticatorEnrolmentDue: bool,
    },
  },
  generateOtp: {
    type: 'object',
    required: ['isLogin'],
    /** loginAttemptToken (added): with isLogin and no session, the proof from the login answer. */
    properties: { username: text(200), isLogin: bool, loginAttemptToken: text(200) },
  },
  generateOtpResponse: {
    type: 'object',
    required: ['success', 'message'],
    /** retryAfterSeconds: seconds until another code may be requested. */
    properties: { success: bool, message: str, obscureMobileNumber: str, retryAfterSeconds: { type: 'integer' } },
  },
  verifyOtp: {
    type: 'object',
    required: ['otp', 'isLogin'],
    /** loginAttemptToken (added, issue 19): the login answer's proof; required for an authenticator or recovery code. */
    properties: { username: text(200), otp: str, isLogin: bool, deviceId: text(200), loginAttemptToken: text(200) },
  },
  /** accessToken: the session token after a login OTP; the single-use reset token after a password OTP. */
  verifyOtpResponse: {
    type: 'object',
    required: ['success', 'message', 'accessToken', 'v2ManagementApiEnabled'],
    properties: {
      success: bool, message: str, accessToken: str, v2ManagementApiEnabled: bool,
      /** Added (issue 19): as in the login response. */
      authenticatorEnrolmentDue: bool,
    },
  },
  forgotPassword: {
    type: 'object',
    required: ['username'],
    properties: { username: text(200, 1) },
  },
  forgotPasswordResponse: {
    type: 'object',
    required: ['success', 'message', 'errorMessage'],
    properties: { success: bool, message: str, errorMessage: str },
  },
  resetPassword: {
    type: 'object',
    required: ['newPassword', 'confirmPassword'],
    /** currentPassword (added, ASVS 6.2.3): required when the token came from the signed-in change flow. */
    properties: { newPassword: text(500), confirmPassword: text(500), token: text(500), currentPassword: text(500) },
  },
  resetPasswordResponse: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: bool, message: str },
  },
  logoutResponse: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: bool, message: str },
  },
  /** User-info (site profile) of spec §3, the fields the console reads. */
  siteProfile: {
    type: 'object',
    required: [
      'site', 'siteId', 'siteType', 'roles', 'siteMap', 'isServiceLaunched', 'gaId', 'domainName', 'desktopLogo', 'username',
      'otpDetails', 'firebasePropertyId', 'serviceId', 'bucket', 'bucketRegion', 'analyticsURL', 'reelybaseURL', 'encodingService',
      'contributorData', 'contentContributorData', 'isToolsMonetizationModelEnabled', 'renditionUrl', 'templateBuilderURL', 'tbHostUrl',
      'isDRMEncryptionRequired', 'isVerified', 'settingsId', 'enableQOS', 'enableLiveStream', 'enableSSAISupport', 'managementXApiKey',
      'isVerticleVideoEnabled', 'defaultTimezone', 'isSocialPublishAutomated',
    ],
    properties: {
      site: str, siteId: str, siteType: str,
      roles: { type: 'object', additionalProperties: str },
      siteMap: { type: 'object', additionalProperties: str },
      isServiceLaunched: bool, gaId: str,
      domainName: { type: 'array', items: str },
      desktopLogo: str, username: str,
      otpDetails: {
        type: 'object',
        required: ['isTwoFactorOnLogin', 'obscureMobileNumber'],
        properties: { isTwoFactorOnLogin: bool, obscureMobileNumber: str },
      },
      firebasePropertyId: str, serviceId: str, bucket: str, bucketRegion: str, analyticsURL: str, reelybaseURL: str,
      encodingService: bool,
      contributorData: anyObjectOrNull,
      contentContributorData: anyObjectOrNull,
      isToolsMonetizationModelEnabled: bool, renditionUrl: str, templateBuilderURL: str, tbHostUrl: str,
      isDRMEncryptionRequired: bool, isVerified: bool, settingsId: str, enableQOS: bool, enableLiveStream: bool,
      enableSSAISupport: bool, managementXApiKey: str, isVerticleVideoEnabled: bool, defaultTimezone: str,
      isSocialPublishAutomated: bool,
      /** Added (issue 19): the site requires an authenticator app this user has not set up yet. */
      authenticatorEnrolmentDue: bool,
    },
  },
  verifyResponse: { type: 'object', required: ['valid'], properties: { valid: bool } },
  verifySiteResponse: { type: 'object', required: ['provider'], properties: { provider: str } },
  deviceResponse: { type: 'object', required: ['deviceId'], properties: { deviceId: str } },
  network,
  service: {
    type: 'object',
    required: [
      'id', 'siteInternalName', 'isLaunched', 'networks', 'serviceName', 'serviceType', 'serviceTypes', 'templateName',
      'languageCode', 'forceLogin', 'isMonetizationModelEnabled', 'domainName', 'siteBaseUrl', 'backendUrl',
    ],
    properties: {
      id: str, siteInternalName: str, isLaunched: bool, networks: { type: 'array', items: network },
      serviceName: str, serviceType: str, serviceTypes: { type: 'array', items: str }, templateName: str,
      languageCode: str, forceLogin: bool, isMonetizationModelEnabled: bool, domainName: str, siteBaseUrl: str, backendUrl: str,
    },
  },
  networkBrandCopy,
  networkCopyRequest: {
    type: 'object',
    required: ['site', 'network'],
    properties: { site: str, network: str, networkBrand: networkBrandCopy, networkSettings: bool },
  },
  outboxMessages: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'to', 'body', 'createdAt'],
      properties: { id: str, to: str, body: str, createdAt: str },
    },
  },
} as const;

export type LoginRequest = FromSchema<typeof SCHEMAS.login>;
export type LoginResponse = FromSchema<typeof SCHEMAS.loginResponse>;
export type GenerateOtpRequest = FromSchema<typeof SCHEMAS.generateOtp>;
export type GenerateOtpResponse = FromSchema<typeof SCHEMAS.generateOtpResponse>;
export type VerifyOtpRequest = FromSchema<typeof SCHEMAS.verifyOtp>;
export type VerifyOtpResponse = FromSchema<typeof SCHEMAS.verifyOtpResponse>;
export type ForgotPasswordRequest = FromSchema<typeof SCHEMAS.forgotPassword>;
export type ForgotPasswordResponse = FromSchema<typeof SCHEMAS.forgotPasswordResponse>;
export type ResetPasswordRequest = FromSchema<typeof SCHEMAS.resetPassword>;
export type ResetPasswordResponse = FromSchema<typeof SCHEMAS.resetPasswordResponse>;
/** The schema keeps roles an open map (the server stores them as such); the type narrows it to our areas and levels. */
export type LogoutResponse = FromSchema<typeof SCHEMAS.logoutResponse>;
export type SiteProfile = Omit<FromSchema<typeof SCHEMAS.siteProfile>, 'roles'> & { roles: Roles };
export type VerifyResponse = FromSchema<typeof SCHEMAS.verifyResponse>;
export type VerifySiteResponse = FromSchema<typeof SCHEMAS.verifySiteResponse>;
export type DeviceResponse = FromSchema<typeof SCHEMAS.deviceResponse>;
export type Network = FromSchema<typeof SCHEMAS.network>;
export type Service = FromSchema<typeof SCHEMAS.service>;
export type NetworkBrandCopy = FromSchema<typeof SCHEMAS.networkBrandCopy>;
export type NetworkCopyRequest = FromSchema<typeof SCHEMAS.networkCopyRequest>;
export type OutboxMessage = FromSchema<typeof SCHEMAS.outboxMessages>[number];

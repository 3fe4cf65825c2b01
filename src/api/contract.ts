/**
 * Wire shapes shared by the browser and the server: one source of truth for every request and
 * response body (spec §3, §7). The JSON schemas are what the server validates with; the types are
 * what both sides compile against.
 */
import type { AccessLevel, AreaName } from '../config';

export type Roles = Partial<Record<AreaName, AccessLevel>>;

export interface ApiFailure {
  success: false;
  message: string;
}

export interface LoginRequest {
  username: string;
  password: string;
  deviceId?: string;
}

/** Login response of spec §3. */
export interface LoginResponse {
  success: boolean;
  message: string;
  isTwoFactorOnLogin: boolean;
  obscureMobileNumber: string;
  username: string;
  accessToken: string;
  refreshToken: string;
  v2ManagementApiEnabled: boolean;
  v2VodManagementApiEnabled: boolean;
}

export interface GenerateOtpRequest {
  username?: string;
  isLogin: boolean;
}
export interface GenerateOtpResponse {
  success: boolean;
  message: string;
  obscureMobileNumber?: string;
  /** Seconds until another code may be requested. */
  retryAfterSeconds?: number;
}

export interface VerifyOtpRequest {
  username?: string;
  otp: string;
  isLogin: boolean;
  deviceId?: string;
}
export interface VerifyOtpResponse {
  success: boolean;
  message: string;
  /** The session token after a login OTP; the single-use reset token after a password OTP. */
  accessToken: string;
  v2ManagementApiEnabled: boolean;
}

export interface ForgotPasswordRequest {
  username: string;
}
export interface ForgotPasswordResponse {
  success: boolean;
  message: string;
  errorMessage: string;
}

export interface ResetPasswordRequest {
  newPassword: string;
  confirmPassword: string;
  token?: string;
}
export interface ResetPasswordResponse {
  success: boolean;
  message: string;
}

/** User-info (site profile) of spec §3, the fields the console reads. */
export interface SiteProfile {
  site: string;
  siteId: string;
  siteType: string;
  roles: Roles;
  siteMap: Record<string, string>;
  isServiceLaunched: boolean;
  gaId: string;
  domainName: string[];
  desktopLogo: string;
  username: string;
  otpDetails: { isTwoFactorOnLogin: boolean; obscureMobileNumber: string };
  firebasePropertyId: string;
  serviceId: string;
  bucket: string;
  bucketRegion: string;
  analyticsURL: string;
  reelybaseURL: string;
  encodingService: boolean;
  contributorData: Record<string, unknown> | null;
  contentContributorData: Record<string, unknown> | null;
  isToolsMonetizationModelEnabled: boolean;
  renditionUrl: string;
  templateBuilderURL: string;
  tbHostUrl: string;
  isDRMEncryptionRequired: boolean;
  isVerified: boolean;
  settingsId: string;
  enableQOS: boolean;
  enableLiveStream: boolean;
  enableSSAISupport: boolean;
  managementXApiKey: string;
  isVerticleVideoEnabled: boolean;
  defaultTimezone: string;
  isSocialPublishAutomated: boolean;
}

export interface VerifyResponse {
  valid: boolean;
}
export interface VerifySiteResponse {
  provider: string;
}
export interface DeviceResponse {
  deviceId: string;
}

export interface Network {
  name: string;
  identifier: string;
  image: string;
  isActive: boolean;
  isDefault: boolean;
}

export interface Service {
  id: string;
  siteInternalName: string;
  isLaunched: boolean;
  networks: Network[];
  serviceName: string;
  serviceType: string;
  serviceTypes: string[];
  templateName: string;
  languageCode: string;
  forceLogin: boolean;
  isMonetizationModelEnabled: boolean;
  domainName: string;
  siteBaseUrl: string;
  backendUrl: string;
}

export interface NetworkBrandCopy {
  logoAndIcons: boolean;
  theme: boolean;
  themeOtt: boolean;
  themeApps: boolean;
}

export interface NetworkCopyRequest {
  site: string;
  network: string;
  networkBrand?: NetworkBrandCopy;
  networkSettings?: boolean;
}

export type NetworkDataKind = 'settings' | 'brand' | 'device';

export interface OutboxMessage {
  id: string;
  to: string;
  body: string;
  createdAt: string;
}

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

/** JSON schemas the server validates request bodies with. */
export const SCHEMAS = {
  login: {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', minLength: 1, maxLength: 500 }, deviceId: { type: 'string', maxLength: 200 } },
  },
  generateOtp: {
    type: 'object',
    required: ['isLogin'],
    properties: { username: { type: 'string', maxLength: 200 }, isLogin: bool },
  },
  verifyOtp: {
    type: 'object',
    required: ['otp', 'isLogin'],
    properties: { username: { type: 'string', maxLength: 200 }, otp: str, isLogin: bool, deviceId: { type: 'string', maxLength: 200 } },
  },
  forgotPassword: {
    type: 'object',
    required: ['username'],
    properties: { username: { type: 'string', minLength: 1, maxLength: 200 } },
  },
  resetPassword: {
    type: 'object',
    required: ['newPassword', 'confirmPassword'],
    properties: { newPassword: { type: 'string', maxLength: 500 }, confirmPassword: { type: 'string', maxLength: 500 }, token: { type: 'string', maxLength: 500 } },
  },
} as const;

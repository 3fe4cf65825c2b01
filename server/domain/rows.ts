/**
 * The rows the rules read and write, as the rules see them (issue 39): domain-owned shapes of what
 * the repositories (server/db/) answer and take. The repositories' own types come from the table
 * definitions; the composition root (server/composition.ts) hands them to the domain, where the
 * compiler checks that they fit these shapes.
 */
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import type { RevisionChange } from '../../common/revisions';

export type SiteRow = {
  id: string;
  siteInternalName: string;
  serviceName: string;
  serviceType: string;
  serviceTypes: string[];
  templateName: string;
  languageCode: string;
  forceLogin: boolean;
  isMonetizationModelEnabled: boolean;
  monetizationVersion: number;
  domainName: string;
  siteBaseUrl: string;
  backendUrl: string;
  isLaunched: boolean;
  managementApiKey: string;
  defaultTimezone: string;
  cloudProvider: string;
  profile: Record<string, unknown>;
  secondFactorRule: 'optional' | 'required' | 'authenticator';
  serviceVersion: number;
  signingKey: string;
  signingKeyRotatedAt: Date | null;
};

export type StaffUserRow = {
  id: string;
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Record<string, string>;
  disabled: boolean;
  createdAt: Date;
  passwordChangedAt: Date;
  version: number;
};

export type SessionRow = {
  id: string;
  createdAt: Date;
  userId: string;
  deviceId: string;
  ipAddress: string;
  userAgent: string;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
};

export type SessionLookupRow = {
  session: SessionRow;
  user: StaffUserRow;
  site: SiteRow;
  authenticatorConfirmedAt: Date | null;
};

export type ResetTokenRow = {
  id: string;
  createdAt: Date;
  userId: string;
  expiresAt: Date;
  purpose: string;
  tokenHash: string;
  usedAt: Date | null;
};

export type OtpCodeRow = {
  id: string;
  createdAt: Date;
  userId: string;
  deviceId: string;
  expiresAt: Date;
  purpose: string;
  codeHash: string;
  wrongAttempts: number;
  consumedAt: Date | null;
};

export type TotpFactorRow = {
  createdAt: Date;
  userId: string;
  secretEncrypted: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
};

export type StaffUserInsert = {
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  phoneNumber: string;
  roles: Record<string, string>;
  id?: string;
  twoFactorOnLogin?: boolean;
  disabled?: boolean;
  createdAt?: Date;
  passwordChangedAt?: Date;
  version?: number;
};

export type StaffRecord = {
  id: string;
  siteId: string;
  username: string;
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Record<string, string>;
  disabled: boolean;
  createdAt: Date;
  version: number;
};

export type StaffPage = {
  rows: (StaffRecord & { lastSeenAt: Date | null; activeSessions: number; })[];
  total: number;
};

export type UserWithSite = {
  user: StaffUserRow;
  site: SiteRow;
};

export type NetworkRow = {
  id: string;
  name: string;
  siteId: string;
  identifier: string;
  image: string;
  isActive: boolean;
  isDefault: boolean;
};

export type NetworkBrandRow = {
  version: number;
  networkId: string;
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
  updatedAt: Date;
};

export type NetworkSettingsRow = {
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  updatedAt: Date;
};

export type NetworkDevicesRow = {
  version: number;
  networkId: string;
  updatedAt: Date;
  devices: DeviceEntry[];
};

export type ServiceSnapshot = {
  site: SiteRow;
  networks: readonly NetworkRow[];
};

export type SettingsVersionRow = {
  id: string;
  createdAt: Date;
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  createdBy: string | null;
  changed: string[];
  restoredFrom: number | null;
};

export type SettingsVersionInsert = {
  version: number;
  networkId: string;
  values: Record<string, string | number | boolean>;
  id?: string;
  createdAt?: Date;
  createdBy?: string | null;
  changed?: string[];
  restoredFrom?: number | null;
};

export type ServiceWrite = {
  serviceName?: string;
  serviceType?: string;
  serviceTypes?: string[];
  templateName?: string;
  languageCode?: string;
  forceLogin?: boolean;
  isMonetizationModelEnabled?: boolean;
  domainName?: string;
};

export type BrandWrite = {
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
};

export type BrandValues = {
  logoUrl: string;
  iconUrl: string;
  theme: ThemeColors;
  themeOtt: ThemeColors;
  themeApps: ThemeColors;
  updatedAt: Date;
};

export type AuditEventValues = {
  at?: Date;
  siteId?: string | null;
  actorUserId?: string | null;
  action: string;
  networkIdentifier?: string | null;
  detail?: Record<string, unknown>;
  objectKind?: string | null;
  objectId?: string | null;
  objectName?: string | null;
  requestId?: string | null;
};

export type AuditLogRow = {
  id: string;
  at: Date;
  siteId: string | null;
  actorUserId: string | null;
  action: string;
  networkIdentifier: string | null;
  detail: Record<string, unknown>;
  seq: number;
  objectKind: string | null;
  objectId: string | null;
  objectName: string | null;
  requestId: string | null;
  actorUsername: string | null;
};

export type AuditLogFilter = {
  actions: readonly string[] | null;
  who: string;
  objectKind: string | null;
  object: string;
  from: Date | null;
  toExclusive: Date | null;
};

export type RevisionRow = {
  at: Date;
  siteId: string;
  networkId: string | null;
  restoredFrom: number | null;
  actorUserId: string | null;
  seq: number;
  objectKind: string;
  objectId: string;
  objectName: string | null;
  requestId: string | null;
  objectVersion: number | null;
  reason: string | null;
  creation: boolean;
  changes: RevisionChange[];
  snapshot: Record<string, unknown> | null;
};

export type RevisionWithActor = {
  at: Date;
  siteId: string;
  networkId: string | null;
  restoredFrom: number | null;
  actorUserId: string | null;
  seq: number;
  objectKind: string;
  objectId: string;
  objectName: string | null;
  requestId: string | null;
  objectVersion: number | null;
  reason: string | null;
  creation: boolean;
  changes: RevisionChange[];
  snapshot: Record<string, unknown> | null;
  actorUsername: string | null;
};

export type RevisionValues = {
  at?: Date;
  siteId: string;
  networkId?: string | null;
  restoredFrom?: number | null;
  actorUserId?: string | null;
  objectKind: string;
  objectId: string;
  objectName?: string | null;
  requestId?: string | null;
  objectVersion?: number | null;
  reason?: string | null;
  creation?: boolean;
  changes: RevisionChange[];
  snapshot?: Record<string, unknown> | null;
};

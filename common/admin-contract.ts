/**
 * Wire shapes and JSON schemas of the Admin area (`/v3.0/user/admin`, spec §7.3 "user/admin"): staff
 * accounts of the caller's site, their roles per area, sessions, the site's second-factor rule, the
 * audit log, and the public set-password step a new account starts with.
 */
import { AREA_NAMES, ACCESS_LEVELS } from './constants';
import { VERSION_SCHEMA, type Roles } from './contract';
import type { FromSchema } from './json-schema';
import type { SecondFactorState } from './second-factor-rule';

export interface StaffMember {
  id: string;
  username: string;
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Roles;
  disabled: boolean;
  createdAt: string;
  /** The newest activity of any active session, or null when none is active. */
  lastSeenAt: string | null;
  activeSessions: number;
  /** Optimistic concurrency: sent back with every change. */
  version: number;
}

export interface StaffListResponse {
  success: true;
  items: StaffMember[];
  total: number;
  page: number;
  pageSize: number;
  /** Whether the caller may change anything (Admin write or contributor). */
  canEdit: boolean;
  /** The caller's own account id (the page offers no "disable" for it). */
  selfId: string;
  /** The site's second-factor rule and the counts its confirmation speaks of (issue 30). */
  secondFactor: SecondFactorState;
  /**
   * Issue 25: the caller's own roles, the most it may hand out (common/grant-cap.ts): the editor's
   * role grid offers only the levels this allows.
   */
  grantable: Roles;
}

export interface StaffResponse {
  success: true;
  staff: StaffMember;
}

/** A one-time set-password link: shown to the admin once and sent to the account's phone. */
export interface SetPasswordLink {
  url: string;
  expiresAt: string;
}

export interface StaffChangeResponse {
  success: true;
  message: string;
  staff: StaffMember;
  link?: SetPasswordLink;
}

export interface StaffSession {
  id: string;
  deviceId: string;
  ipAddress: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  /** The session the caller is using right now. */
  current: boolean;
}

export interface StaffSessionsResponse {
  success: true;
  sessions: StaffSession[];
}

export interface EndSessionsResponse {
  success: true;
  message: string;
  ended: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  actor: { id: string; username: string } | null;
  detail: Record<string, unknown>;
  /** The object the entry touched (issue 28): its kind (REVISION_KINDS of common/revisions.ts), id and name in words. */
  object?: { kind: string; id: string; name: string | null } | null;
}

export interface AuditListResponse {
  success: true;
  items: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
}

export interface SetPasswordCheckResponse {
  success: true;
  username: string;
  displayName: string;
}

export interface SetPasswordResponse {
  success: boolean;
  message: string;
}

/** Audit actions the Admin area writes (the audit filter also lists the sign-in actions). */
export const ADMIN_AUDIT_ACTIONS = {
  created: 'staff.created',
  updated: 'staff.updated',
  disabled: 'staff.disabled',
  enabled: 'staff.enabled',
  sessionsEnded: 'staff.sessions_ended',
  sessionEnded: 'staff.session_ended',
  passwordLinkIssued: 'staff.password_link_issued',
  passwordSet: 'staff.password_set',
  secondFactorReset: 'staff.second_factor_reset',
  twoFactorRequired: 'site.two_factor_required',
  /** Issue 25: a create or update that tried to grant roles above the granter's own (refused, nothing changed). */
  grantRefused: 'staff.grant_refused',
} as const;

/** Every action the audit log filter offers, admin changes first. */
export const AUDIT_FILTER_ACTIONS: readonly string[] = [
  ...Object.values(ADMIN_AUDIT_ACTIONS),
  'login.success', 'login.failure', 'login.otp_required', 'otp.issued', 'otp.verify_failed', 'otp.verified', 'logout',
  'password.reset_token_issued', 'password.reset', 'password.reset_failed',
];

export const STAFF_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** A set-password link lives this long and works once. */
export const SET_PASSWORD_TTL_HOURS = 24;

const rolesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(AREA_NAMES.map((area) => [area, { type: 'string', enum: [...ACCESS_LEVELS] }])),
} as const;
const phoneSchema = { type: 'string', minLength: 7, maxLength: 20, pattern: '^\\+?[0-9][0-9 ()-]{5,18}[0-9]$' } as const;
/** An account's mobile number: empty where the SMS second factor does not apply (issue 30; the domain checks when it does). */
const optionalPhoneSchema = { type: 'string', maxLength: 20, pattern: '^(\\s*|\\+?[0-9][0-9 ()-]{5,18}[0-9])$' } as const;
const displayNameSchema = { type: 'string', minLength: 1, maxLength: 120, pattern: '\\S' } as const;
const versionSchema = VERSION_SCHEMA;
/** Ids in paths: any short text; the domain answers 404 for one that is not a UUID (issue 25). */
const idSchema = { type: 'string', minLength: 1, maxLength: 100 } as const;
const tokenSchema = { type: 'string', minLength: 1, maxLength: 500 } as const;
const pageSchema = { type: 'integer', minimum: 1, maximum: 100000 } as const;
const pageSizeSchema = { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE } as const;
/** YYYY-MM-DD, inclusive: the site's day (its zone), decided in server/domain/audit-log.ts. */
const dateSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

/** JSON schemas the server validates the Admin area's requests with; the request types below derive from them. */
export const ADMIN_SCHEMAS = {
  staffListQuery: {
    type: 'object',
    properties: { search: { type: 'string', maxLength: 200 }, page: pageSchema, pageSize: pageSizeSchema },
  },
  staffParams: {
    type: 'object',
    required: ['id'],
    properties: { id: idSchema },
  },
  sessionParams: {
    type: 'object',
    required: ['id', 'sessionId'],
    properties: { id: idSchema, sessionId: idSchema },
  },
  createStaff: {
    type: 'object',
    required: ['email', 'displayName', 'phoneNumber', 'twoFactorOnLogin', 'roles'],
    properties: {
      email: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
      displayName: displayNameSchema,
      phoneNumber: optionalPhoneSchema,
      twoFactorOnLogin: { type: 'boolean' },
      roles: rolesSchema,
    },
  },
  updateStaff: {
    type: 'object',
    required: ['displayName', 'phoneNumber', 'twoFactorOnLogin', 'roles', 'version'],
    properties: {
      displayName: displayNameSchema,
      phoneNumber: optionalPhoneSchema,
      twoFactorOnLogin: { type: 'boolean' },
      roles: rolesSchema,
      version: versionSchema,
    },
  },
  version: {
    type: 'object',
    required: ['version'],
    properties: { version: versionSchema },
  },
  resetSecondFactor: {
    type: 'object',
    required: ['phoneNumber', 'version'],
    properties: { phoneNumber: phoneSchema, version: versionSchema },
  },
  auditQuery: {
    type: 'object',
    properties: {
      who: { type: 'string', maxLength: 200 },
      action: { type: 'string', maxLength: 100 },
      from: dateSchema,
      to: dateSchema,
      page: pageSchema,
      pageSize: pageSizeSchema,
    },
  },
  setPasswordCheck: {
    type: 'object',
    required: ['token'],
    properties: { token: tokenSchema },
  },
  setPassword: {
    type: 'object',
    required: ['token', 'newPassword', 'confirmPassword'],
    properties: { token: tokenSchema, newPassword: { type: 'string', maxLength: 500 }, confirmPassword: { type: 'string', maxLength: 500 } },
  },
} as const;

/** The schema lists the areas from AREA_NAMES at run time, so the type names them through Roles. */
type WithRoles<T> = Omit<T, 'roles'> & { roles: Roles };

export type StaffListQuery = FromSchema<typeof ADMIN_SCHEMAS.staffListQuery>;
export type CreateStaffRequest = WithRoles<FromSchema<typeof ADMIN_SCHEMAS.createStaff>>;
export type UpdateStaffRequest = WithRoles<FromSchema<typeof ADMIN_SCHEMAS.updateStaff>>;
export type VersionRequest = FromSchema<typeof ADMIN_SCHEMAS.version>;
export type ResetSecondFactorRequest = FromSchema<typeof ADMIN_SCHEMAS.resetSecondFactor>;
export type AuditQuery = FromSchema<typeof ADMIN_SCHEMAS.auditQuery>;
export type SetPasswordCheckRequest = FromSchema<typeof ADMIN_SCHEMAS.setPasswordCheck>;
export type SetPasswordRequest = FromSchema<typeof ADMIN_SCHEMAS.setPassword>;

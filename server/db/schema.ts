/**
 * One Drizzle schema for both drivers (PGlite embedded, node-postgres with DATABASE_URL).
 * Migrations in server/db/migrations are generated from this file by drizzle-kit.
 */
import { sql } from 'drizzle-orm';
import {
  boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';

/** A site (the spec's "service"). `siteInternalName` is the `site` value every call carries. */
export const sites = pgTable('sites', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteInternalName: text('site_internal_name').notNull().unique(),
  serviceName: text('service_name').notNull(),
  serviceType: text('service_type').notNull(),
  serviceTypes: jsonb('service_types').$type<string[]>().notNull(),
  templateName: text('template_name').notNull(),
  languageCode: text('language_code').notNull(),
  forceLogin: boolean('force_login').notNull().default(false),
  isMonetizationModelEnabled: boolean('is_monetization_model_enabled').notNull().default(false),
  domainName: text('domain_name').notNull(),
  siteBaseUrl: text('site_base_url').notNull(),
  backendUrl: text('backend_url').notNull(),
  isLaunched: boolean('is_launched').notNull().default(false),
  /** The management API key (spec §3 managementXApiKey); every call carries it. */
  managementApiKey: text('management_api_key').notNull().unique(),
  defaultTimezone: text('default_timezone').notNull(),
  cloudProvider: text('cloud_provider').notNull(),
  /** The remaining site-profile fields of spec §3 (bucket, analyticsURL, ...), served as they are. */
  profile: jsonb('profile').$type<Record<string, unknown>>().notNull(),
});

/** Networks of a site; exactly one default per site (partial unique index). */
export const networks = pgTable('networks', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  identifier: text('identifier').notNull(),
  name: text('name').notNull(),
  image: text('image').notNull(),
  /** Launched (published). */
  isActive: boolean('is_active').notNull().default(false),
  isDefault: boolean('is_default').notNull().default(false),
}, (t) => [
  uniqueIndex('networks_site_identifier_uq').on(t.siteId, t.identifier),
  uniqueIndex('networks_one_default_per_site_uq').on(t.siteId).where(sql`${t.isDefault}`),
]);

export interface ThemeColors {
  primaryColor: string;
  secondaryColor: string;
  backgroundColor: string;
  textColor: string;
  fontFamily: string;
}

export const networkBrands = pgTable('network_brands', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  logoUrl: text('logo_url').notNull(),
  iconUrl: text('icon_url').notNull(),
  theme: jsonb('theme').$type<ThemeColors>().notNull(),
  themeOtt: jsonb('theme_ott').$type<ThemeColors>().notNull(),
  themeApps: jsonb('theme_apps').$type<ThemeColors>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const networkSettings = pgTable('network_settings', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  values: jsonb('values').$type<Record<string, string | number | boolean>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export interface DeviceEntry {
  platform: string;
  name: string;
  enabled: boolean;
  minAppVersion: string;
}

export const networkDevices = pgTable('network_devices', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  devices: jsonb('devices').$type<DeviceEntry[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Staff users; roles map area name -> access level (spec §6). */
export const staffUsers = pgTable('staff_users', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  username: text('username').notNull().unique(),
  email: text('email').notNull(),
  displayName: text('display_name').notNull(),
  passwordHash: text('password_hash').notNull(),
  phoneNumber: text('phone_number').notNull(),
  twoFactorOnLogin: boolean('two_factor_on_login').notNull().default(false),
  roles: jsonb('roles').$type<Record<string, string>>().notNull(),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Social identities linked to staff accounts (provider + provider user id). */
export const identityLinks = pgTable('identity_links', {
  provider: text('provider').notNull(),
  providerUserId: text('provider_user_id').notNull(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.provider, t.providerUserId] })]);

/** Server-side sessions behind every access token: revocable, with idle and absolute expiry. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  deviceId: text('device_id').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
}, (t) => [index('sessions_user_idx').on(t.userId)]);

/** One-time codes: hashed, single use, expiring, with a wrong-try counter. */
export const otpCodes = pgTable('otp_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  /** 'login' (second factor) or 'password' (forgot / change password). */
  purpose: text('purpose').notNull(),
  codeHash: text('code_hash').notNull(),
  deviceId: text('device_id').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  wrongAttempts: integer('wrong_attempts').notNull().default(0),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
}, (t) => [index('otp_user_purpose_idx').on(t.userId, t.purpose)]);

/** Password-reset tokens: random, hashed, single use, 15 minutes. */
export const resetTokens = pgTable('reset_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const auditEvents = pgTable('audit_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  actorUserId: uuid('actor_user_id'),
  action: text('action').notNull(),
  siteId: uuid('site_id'),
  networkIdentifier: text('network_identifier'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
}, (t) => [index('audit_at_idx').on(t.at)]);

/** Fixed-window rate-limit counters, shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** The development SMS transport: messages stored here and listed at GET /__dev/outbox. */
export const smsOutbox = pgTable('sms_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One Drizzle schema for both drivers (PGlite embedded, node-postgres with DATABASE_URL).
 * Migrations in server/db/migrations are generated from this file by drizzle-kit.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn, bigint, bigserial, boolean, customType, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';
import type { DeviceEntry, ThemeColors } from '../../common/contract';
import type { SecondFactorRule } from '../../common/second-factor-rule';
import type { QoeFilter } from '../../common/qoe';

/** A site (the spec's "service"). `siteInternalName` is the `site` value every call carries. */
export const sites = pgTable('sites', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteInternalName: text('site_internal_name').notNull().unique(),
  serviceName: text('service_name').notNull(),
  serviceType: text('service_type').notNull(),
  /**
   * The service types the site runs (SERVICE_TYPES of common/appcms.ts), never empty, with
   * `serviceType` among them: one fact that AppCMS › Service and Monetization › Models both edit.
   */
  serviceTypes: jsonb('service_types').$type<string[]>().notNull(),
  templateName: text('template_name').notNull(),
  languageCode: text('language_code').notNull(),
  forceLogin: boolean('force_login').notNull().default(false),
  isMonetizationModelEnabled: boolean('is_monetization_model_enabled').notNull().default(false),
  /**
   * Optimistic-concurrency version of the Models editor (`isMonetizationModelEnabled` and the service
   * types). A write of those shared fields by either editor bumps this and `serviceVersion` together.
   */
  monetizationVersion: integer('monetization_version').notNull().default(1),
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
  /**
   * The Admin area's second-factor rule (issue 30, migration 0026; common/second-factor-rule.ts):
   * 'optional' (each account's own setting), 'required' (SMS code or authenticator app for every
   * account) or 'authenticator' (an authenticator app for every account, SECURITY.md C-TOTP-4).
   */
  secondFactorRule: text('second_factor_rule').$type<SecondFactorRule>().notNull().default('optional'),
  /** Optimistic-concurrency version of the AppCMS Service and Template fields (see `monetizationVersion`). */
  serviceVersion: integer('service_version').notNull().default(1),
  /** The service's signing key (AppCMS Service): shown masked, replaced by a rotation. */
  signingKey: text('signing_key').notNull().default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
  signingKeyRotatedAt: timestamp('signing_key_rotated_at', { withTimezone: true }),
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

export const networkBrands = pgTable('network_brands', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  logoUrl: text('logo_url').notNull(),
  iconUrl: text('icon_url').notNull(),
  theme: jsonb('theme').$type<ThemeColors>().notNull(),
  themeOtt: jsonb('theme_ott').$type<ThemeColors>().notNull(),
  themeApps: jsonb('theme_apps').$type<ThemeColors>().notNull(),
  /** Optimistic-concurrency version (AppCMS Brand editor). */
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const networkSettings = pgTable('network_settings', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  values: jsonb('values').$type<Record<string, string | number | boolean>>().notNull(),
  /** Optimistic-concurrency version; equals the newest row of network_settings_versions once one exists. */
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Append-only history of a network's settings: every save and restore adds one row. */
export const networkSettingsVersions = pgTable('network_settings_versions', {
  id: uuid('id').primaryKey().defaultRandom(),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  values: jsonb('values').$type<Record<string, string | number | boolean>>().notNull(),
  createdBy: text('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Field keys changed against the previous version. */
  changed: jsonb('changed').$type<string[]>().notNull().default([]),
  /** The version this one restored, when it is a restore. */
  restoredFrom: integer('restored_from'),
}, (t) => [uniqueIndex('network_settings_versions_uq').on(t.networkId, t.version)]);

export const networkDevices = pgTable('network_devices', {
  networkId: uuid('network_id').primaryKey().references(() => networks.id, { onDelete: 'cascade' }),
  devices: jsonb('devices').$type<DeviceEntry[]>().notNull(),
  /** Optimistic-concurrency version (AppCMS Devices editor). */
  version: integer('version').notNull().default(1),
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
  /** Optimistic concurrency of the Admin area's edits. */
  version: integer('version').notNull().default(1),
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
  /** Where the session was opened from, for the Admin area's session list. */
  ipAddress: text('ip_address').notNull().default(''),
  userAgent: text('user_agent').notNull().default(''),
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

/**
 * A staff account's authenticator-app factor (TOTP, RFC 6238; server/domain/totp.ts): one per user.
 * The secret is AES-256-GCM encrypted with a key derived from the server secret. Pending until a
 * first code confirms it (confirmedAt); lastUsedStep refuses a code's reuse.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id').primaryKey().references(() => staffUsers.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

/** Recovery codes of an authenticator enrolment: 10, shown once, stored as hashes, single use. */
export const totpRecoveryCodes = pgTable('totp_recovery_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true }),
}, (t) => [index('totp_recovery_user_idx').on(t.userId)]);

/**
 * Password tokens: random, hashed, single use. 'reset' (forgot password, 15 minutes) or
 * 'set-password' (the Admin area's link for a new account or a reset it triggers, 24 hours).
 */
export const resetTokens = pgTable('reset_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull().default('reset'),
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
  /** Insertion order: two events of one request can share a millisecond, and lists show them in the order they happened. */
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  /** The object the event touched (issue 28): its kind (REVISION_KINDS of common/revisions.ts), id and name in words. */
  objectKind: text('object_kind'),
  objectId: text('object_id'),
  objectName: text('object_name'),
  /** The request that wrote it (issue 28, migration 0020): the audit log reads the same request's revisions for "field: before → after". */
  requestId: text('request_id'),
}, (t) => [
  index('audit_at_idx').on(t.at), index('audit_site_at_idx').on(t.siteId, t.at),
  index('audit_site_object_idx').on(t.siteId, t.objectKind, t.objectId, t.at),
  index('audit_site_action_at_idx').on(t.siteId, t.action, t.at),
  index('audit_site_actor_at_idx').on(t.siteId, t.actorUserId, t.at),
  index('audit_site_request_idx').on(t.siteId, t.requestId),
]);

/**
 * One revision per write of an editable object (issue 28), written in the write's transaction by
 * server/domain/revisions.ts: who, when, why, which request, and the changed fields before → after.
 * `seq` is monotonic (insertion order); `snapshot` is the object's state after the write where the
 * object is small enough to keep whole (the AppCMS settings' versions are read from it).
 */
export const revisions = pgTable('revisions', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  siteId: uuid('site_id').notNull(),
  /** The network the object belongs to (brand, settings, devices, launch state); null for site-wide objects. */
  networkId: uuid('network_id'),
  objectKind: text('object_kind').notNull(),
  objectId: text('object_id').notNull(),
  objectName: text('object_name'),
  /** The object's optimistic-concurrency version after the write, when it has one. */
  objectVersion: integer('object_version'),
  actorUserId: uuid('actor_user_id'),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  reason: text('reason'),
  requestId: text('request_id'),
  /** The revision this one restored (a restore writes a new revision). */
  restoredFrom: bigint('restored_from', { mode: 'number' }),
  /** The write created the object (issue 37): nothing before it to restore or undo. */
  creation: boolean('creation').notNull().default(false),
  changes: jsonb('changes').$type<{ field: string; before: unknown; after: unknown }[]>().notNull(),
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>(),
}, (t) => [
  index('revisions_object_idx').on(t.siteId, t.objectKind, t.objectId, t.seq),
  index('revisions_site_at_idx').on(t.siteId, t.at),
  index('revisions_site_actor_at_idx').on(t.siteId, t.actorUserId, t.at),
  index('revisions_site_request_idx').on(t.siteId, t.requestId),
]);

/** Fixed-window rate-limit counters, shared by every server instance. */
/**
 * Issue 37: which site holds which stored upload (server/storage/upload-storage.ts keys: content hash
 * and extension). A site references and is served only its own files; `legacy` rows (backfilled by
 * migration 0031 from what sites referenced or uploaded before) are also served at the old unscoped
 * address.
 */
export const uploadFiles = pgTable('upload_files', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  legacy: boolean('legacy').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ name: 'upload_files_site_id_key_pk', columns: [t.siteId, t.key] }), index('upload_files_key_idx').on(t.key)]);

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

/* ---------------------------------------------------------------------------------------------
 * The viewers' world (ARCHITECTURE.md "The areas behind the sign-in"): content, subscribers and
 * their devices, monetization, subscriptions and payments, playback. Every row carries its site;
 * editable entities carry a `version` for optimistic concurrency. Money is integer minor units.
 * ------------------------------------------------------------------------------------------- */

/** Content items: video, series, episode, live event. */
/** PostgreSQL's tsvector, for generated search columns (never written by the server). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const contentItems = pgTable('content_items', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  /** null: available on every network of the site. */
  networkId: uuid('network_id').references(() => networks.id, { onDelete: 'set null' }),
  /** 'video' | 'series' | 'episode' | 'live' */
  kind: text('kind').notNull(),
  title: text('title').notNull(),
  /** Lower-cased, accent-free title kept by the server on every write: the search key. */
  titleSearch: text('title_search').notNull(),
  /**
   * The words of title_search, kept by PostgreSQL itself: stored so a search filters on it without
   * parsing every candidate title again (content_title_words_idx is a GIN over it).
   */
  titleWords: tsvector('title_words').generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, title_search) || jsonb_to_tsvector('simple'::regconfig, tags, '["string"]'::jsonb)`),
  description: text('description').notNull().default(''),
  genre: text('genre').notNull(),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  durationSeconds: integer('duration_seconds').notNull(),
  /** 'draft' | 'published' | 'unpublished' | 'scheduled' */
  status: text('status').notNull(),
  scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  /** Issue 29 (migration 0022): when a published item is taken down by its job (null: never). */
  unpublishAt: timestamp('unpublish_at', { withTimezone: true }),
  /** The pg-boss jobs that carry out scheduledAt / unpublishAt, and the time each was sent for (server/domain/content-scheduler.ts). */
  publishJobId: uuid('publish_job_id'),
  publishJobAt: timestamp('publish_job_at', { withTimezone: true }),
  unpublishJobId: uuid('unpublish_job_id'),
  unpublishJobAt: timestamp('unpublish_job_at', { withTimezone: true }),
  /** Country groups the item is limited to ([]: everywhere). */
  countryGroupIds: jsonb('country_group_ids').$type<string[]>().notNull().default([]),
  /** Episodes: their series, season and number. */
  seriesId: uuid('series_id'),
  seasonNumber: integer('season_number'),
  episodeNumber: integer('episode_number'),
  /** The thumbnail (16:9): the library's rows and the apps' rails. */
  artworkUrl: text('artwork_url').notNull().default(''),
  /** Catalogue fields (issue 29, migration 0021): rating (CONTENT_RATINGS), ISO 639 language, release day. */
  rating: text('rating').notNull().default('NR'),
  originalLanguage: text('original_language').notNull().default('en'),
  releaseDate: date('release_date', { mode: 'string' }),
  /** Live events: when the event starts (UTC; the console shows it in the site's default time zone). */
  startsAt: timestamp('starts_at', { withTimezone: true }),
  /** The poster (2:3). */
  posterUrl: text('poster_url').notNull().default(''),
  /** A series' declared seasons (its episodes may name others: the item page shows both). */
  seasons: jsonb('seasons').$type<{ number: number; title: string }[]>().notNull().default([]),
  /** Issue 40 (migration 0036): the attached video (media_assets); replacing it keeps the old asset. */
  mediaAssetId: uuid('media_asset_id').references((): AnyPgColumn => mediaAssets.id, { onDelete: 'set null' }),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // One episode per (series, season, number).
  uniqueIndex('content_episode_number_idx').on(t.seriesId, t.seasonNumber, t.episodeNumber)
    .where(sql`${t.seriesId} IS NOT NULL AND ${t.episodeNumber} IS NOT NULL`),
  index('content_site_kind_updated_idx').on(t.siteId, t.kind, t.updatedAt),
  index('content_site_status_idx').on(t.siteId, t.status),
  index('content_series_idx').on(t.seriesId),
  // Library search (server/db/content-repository.ts): title prefix through the pattern-ops btree,
  // word prefixes ('stor' finds "A Winter's Story") through the GIN over the words of the search key.
  index('content_site_title_search_prefix_idx').on(t.siteId, t.titleSearch.op('text_pattern_ops')),
  index('content_title_words_idx').using('gin', t.titleWords),
  index('content_pending_schedule_idx').on(t.siteId).where(sql`${t.scheduledAt} IS NOT NULL OR ${t.unpublishAt} IS NOT NULL`),
  index('content_media_asset_idx').on(t.mediaAssetId).where(sql`${t.mediaAssetId} IS NOT NULL`),
]);

/** Issue 29: named sets of countries (ISO 3166-1 alpha-2) an item or a licence can be limited to. */
export const countryGroups = pgTable('country_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  countries: jsonb('countries').$type<string[]>().notNull().default([]),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('country_groups_site_name_idx').on(t.siteId, sql`lower(${t.name})`)]);

/** Issue 29: a video licence window of one item (publishing outside every window is refused). */
export const contentLicences = pgTable('content_licences', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  contentId: uuid('content_id').notNull().references(() => contentItems.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  countryGroupIds: jsonb('country_group_ids').$type<string[]>().notNull().default([]),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('content_licences_item_idx').on(t.siteId, t.contentId, t.startsAt)]);

/** The service's viewers. */
export const subscribers = pgTable('subscribers', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  /** The network the viewer signed up on. */
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  name: text('name').notNull(),
  phone: text('phone').notNull().default(''),
  /** ISO 3166-1 alpha-2. */
  country: text('country').notNull(),
  /** 'active' | 'suspended' | 'closed' */
  status: text('status').notNull().default('active'),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('subscribers_site_email_uq').on(t.siteId, sql`lower(${t.email})`),
  index('subscribers_site_created_idx').on(t.siteId, t.createdAt),
  // Migration 0034: the list filtered by status, counted from the index and paged in its order.
  index('subscribers_site_status_created_idx').on(t.siteId, t.status, t.createdAt),
  // Support search (issue 16): case-insensitive prefix search on e-mail, name, phone digits and id.
  // text_pattern_ops lets `LIKE 'prefix%'` use the btree whatever the database collation is.
  index('subscribers_site_email_prefix_idx').on(t.siteId, sql`lower(${t.email}) text_pattern_ops`),
  index('subscribers_site_name_prefix_idx').on(t.siteId, sql`lower(${t.name}) text_pattern_ops`),
  index('subscribers_site_phone_digits_idx').on(t.siteId, sql`regexp_replace(${t.phone}, '[^0-9]', '', 'g') text_pattern_ops`),
  index('subscribers_site_id_prefix_idx').on(t.siteId, sql`(${t.id}::text) text_pattern_ops`),
  // Issue 29 (migration 0023, 0027): any word of the name by prefix, and the phone's last four digits.
  index('subscribers_name_words_idx').using('gin', subscriberNameWords(t.name)),
  index('subscribers_site_phone_tail_idx').on(t.siteId, sql`right(regexp_replace(${t.phone}, '[^0-9]', '', 'g'), 4)`),
  // Issue 38 (migrations 0032, 0034): the e-mail's domain (its reversed end, `gro.elpmaxe@` …), the e-mail last
  // for an index-only count, and its whole words.
  index('subscribers_site_email_domain_idx').on(t.siteId, sql`reverse(lower(${t.email})) text_pattern_ops`, t.email),
  index('subscribers_email_words_idx').using('gin', subscriberEmailWords(t.email)),
]);

/**
 * A subscriber name's words for the GIN index and the search (migration 0027): the characters that
 * PostgreSQL's text parser reads as part of a number, a version, a host, a path or an e-mail
 * (`- + . / @ : _`) are blanks first, as the query's words are split (nameWordsQuery), so
 * 'Pager-123456' holds the words 'pager' and '123456' (not the signed number '-123456') and
 * 'Ann.Lee' the words 'ann' and 'lee'. Letters of any script stay as they are.
 */
export function subscriberNameWords(name: AnyPgColumn | SQL): SQL {
  return sql`to_tsvector('simple'::regconfig, translate(${name}, '-+./@:_', '       '))`;
}

/**
 * An e-mail's words for the GIN index and the search (issue 38, migration 0032): the address in
 * lower case with the same characters made blanks as a name's (`- + . / @ : _`), so
 * 'maria.lopez40@mail.example.org' holds 'maria', 'lopez40', 'mail', 'example' and 'org'. The
 * search matches a whole word only (never a prefix: SECURITY.md C-SUP-1).
 */
export function subscriberEmailWords(email: AnyPgColumn | SQL): SQL {
  return sql`to_tsvector('simple'::regconfig, translate(lower(${email}), '-+./@:_', '       '))`;
}

export const subscriberDevices = pgTable('subscriber_devices', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  /** 'web' | 'ios' | 'android' | 'roku' | 'firetv' | 'appletv' | 'smarttv' */
  deviceType: text('device_type').notNull(),
  os: text('os').notNull(),
  appVersion: text('app_version').notNull(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set when support signs the device out (the device must sign in again). */
  signedOutAt: timestamp('signed_out_at', { withTimezone: true }),
}, (t) => [index('subscriber_devices_subscriber_idx').on(t.subscriberId)]);

export const supportNotes = pgTable('support_notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  authorUserId: uuid('author_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('support_notes_subscriber_idx').on(t.subscriberId, t.createdAt)]);

export interface PlanPrice {
  /** ISO 4217. */
  currency: string;
  /** Minor units (cents). */
  amount: number;
}

export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  prices: jsonb('prices').$type<PlanPrice[]>().notNull(),
  /** 'month' | 'quarter' | 'year' */
  billingPeriod: text('billing_period').notNull(),
  trialDays: integer('trial_days').notNull().default(0),
  deviceLimit: integer('device_limit').notNull().default(4),
  /** 'draft' | 'active' | 'archived' */
  status: text('status').notNull(),
  /** The price version new subscriptions get (its amounts are `prices`; issue 30, migration 0024). */
  priceVersion: integer('price_version').notNull().default(1),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('plans_site_status_idx').on(t.siteId, t.status)]);

/** Every price version of a plan (a version's amounts never change; issue 30). */
export const planPriceVersions = pgTable('plan_price_versions', {
  planId: uuid('plan_id').notNull().references(() => plans.id, { onDelete: 'cascade' }),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  prices: jsonb('prices').$type<PlanPrice[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ name: 'plan_price_versions_pk', columns: [t.planId, t.version] })]);

export const planGroups = pgTable('plan_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  position: integer('position').notNull().default(0),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('plan_groups_site_idx').on(t.siteId, t.position)]);

/** The plans of a group in paywall order. */
export const planGroupPlans = pgTable('plan_group_plans', {
  groupId: uuid('group_id').notNull().references(() => planGroups.id, { onDelete: 'cascade' }),
  planId: uuid('plan_id').notNull().references(() => plans.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
}, (t) => [primaryKey({ columns: [t.groupId, t.planId] })]);

export const offers = pgTable('offers', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** 'percent' (1–100) | 'fixed' (minor units of `currency`) */
  discountType: text('discount_type').notNull(),
  discountValue: integer('discount_value').notNull(),
  currency: text('currency'),
  planIds: jsonb('plan_ids').$type<string[]>().notNull().default([]),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  /** 'new' (new subscribers only) | 'everyone' */
  eligibility: text('eligibility').notNull(),
  /** How long the discount applies: 'once' | 'repeating' (`durationMonths` months) | 'forever' (issue 30). */
  duration: text('duration').notNull().default('once'),
  durationMonths: integer('duration_months'),
  /** 'draft' | 'active' | 'archived' */
  status: text('status').notNull(),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('offers_site_status_idx').on(t.siteId, t.status)]);

export const coupons = pgTable('coupons', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  offerId: uuid('offer_id').notNull().references(() => offers.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  /** null: unlimited. */
  maxRedemptions: integer('max_redemptions'),
  maxPerSubscriber: integer('max_per_subscriber').notNull().default(1),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  /** 'active' | 'disabled' */
  status: text('status').notNull().default('active'),
  /** Codes generated together share a batch id. */
  batchId: uuid('batch_id'),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('coupons_site_code_uq').on(t.siteId, sql`lower(${t.code})`),
  index('coupons_offer_idx').on(t.offerId),
]);

export const couponRedemptions = pgTable('coupon_redemptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  couponId: uuid('coupon_id').notNull().references(() => coupons.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  subscriptionId: uuid('subscription_id'),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('coupon_redemptions_coupon_idx').on(t.couponId),
  index('coupon_redemptions_subscriber_idx').on(t.subscriberId),
]);

export const subscriptions = pgTable('subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  planId: uuid('plan_id').notNull().references(() => plans.id),
  /** 'trialing' | 'active' | 'past_due' | 'cancelled' | 'expired' */
  status: text('status').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  /** Price of the current period, minor units. */
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  couponId: uuid('coupon_id'),
  /** Issue 29: the plan the subscription moves to at its period end (a support plan change), or null. */
  pendingPlanId: uuid('pending_plan_id').references(() => plans.id),
  /** Issue 29: minor units added to (or, negative, taken off) the next payment: the proration of a plan change now. */
  nextPaymentAdjustment: integer('next_payment_adjustment').notNull().default(0),
  /** The plan's price version this subscription pays (issue 30). */
  priceVersion: integer('price_version').notNull().default(1),
  /** The price version it moves to at its next renewal, when an operator moved it (null: stays). */
  renewalPriceVersion: integer('renewal_price_version'),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('subscriptions_subscriber_idx').on(t.subscriberId),
  index('subscriptions_site_status_idx').on(t.siteId, t.status),
  index('subscriptions_site_started_idx').on(t.siteId, t.startedAt),
  index('subscriptions_plan_idx').on(t.planId),
  index('subscriptions_plan_price_idx').on(t.planId, t.priceVersion),
]);

export const payments = pgTable('payments', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
  planId: uuid('plan_id').references(() => plans.id),
  /** Minor units. */
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  /** 'succeeded' | 'failed' | 'refunded' | 'pending' */
  status: text('status').notNull(),
  /** 'card' | 'paypal' | 'apple_pay' | 'google_pay' */
  method: text('method').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  /** Issue 29: minor units given back by support refunds (payment_refunds); 0 for none. */
  refundedAmount: integer('refunded_amount').notNull().default(0),
  version: integer('version').notNull().default(1),
}, (t) => [
  index('payments_site_at_idx').on(t.siteId, t.at),
  index('payments_subscriber_at_idx').on(t.subscriberId, t.at),
]);

/**
 * Issue 29: one refund of a payment (full or part), its own row on the day it was given, so revenue
 * reports count it on that day (server/db/rollups.ts, status 'refund' in daily_payment_rollups).
 */
export const paymentRefunds = pgTable('payment_refunds', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  paymentId: uuid('payment_id').notNull().references(() => payments.id, { onDelete: 'cascade' }),
  planId: uuid('plan_id'),
  /** Minor units, in the payment's currency. */
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  reason: text('reason').notNull(),
  actorUserId: uuid('actor_user_id'),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('payment_refunds_site_at_idx').on(t.siteId, t.at),
  index('payment_refunds_payment_idx').on(t.paymentId),
]);

/**
 * One viewer watching one item on one device; updated by heartbeats, closed by a session end. The
 * id is the player's and is scoped per site: another site's id is just free here.
 *
 * Partitioned by the UTC day of started_at (migration 0017, issue 31: PARTITION BY RANGE, one
 * partition per day, `playback_sessions_pYYYYMMDD`, and a default partition; Drizzle cannot express
 * partitions, so the migration is hand-written and server/db/raw-history.ts creates and drops the
 * days). A partitioned table's key must contain the partition column, hence (site, id, started_at);
 * one row per (site, id) is kept by the consumers (a start is inserted only where no session of that
 * id exists, under the session's advisory lock).
 */
export const playbackSessions = pgTable('playback_sessions', {
  id: uuid('id').notNull(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  subscriberId: uuid('subscriber_id').notNull().references(() => subscribers.id, { onDelete: 'cascade' }),
  contentId: uuid('content_id').notNull().references(() => contentItems.id, { onDelete: 'cascade' }),
  deviceId: uuid('device_id'),
  deviceType: text('device_type').notNull(),
  country: text('country').notNull(),
  isp: text('isp').notNull(),
  cdn: text('cdn').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  lastEventAt: timestamp('last_event_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  watchedSeconds: integer('watched_seconds').notNull().default(0),
  startupMs: integer('startup_ms').notNull().default(0),
  rebufferCount: integer('rebuffer_count').notNull().default(0),
  rebufferSeconds: integer('rebuffer_seconds').notNull().default(0),
  avgBitrateKbps: integer('avg_bitrate_kbps').notNull().default(0),
  /**
   * Heartbeats counted in avg_bitrate_kbps (those dated up to the end) and the sum of their
   * bitrates (0014 → 0015, issue 31): a consumer adds a group's heartbeats to these instead of
   * re-reading every stored heartbeat of the session; an end that moves the end re-reads them once.
   */
  heartbeatCount: integer('heartbeat_count').notNull().default(0),
  bitrateKbpsSum: bigint('bitrate_kbps_sum', { mode: 'number' }).notNull().default(0),
  errorCode: text('error_code'),
  /**
   * Plan of the viewer's latest subscription started before the session (null: none), fixed when
   * the session starts: the rollups' 'plan' dimension reads it instead of joining subscriptions.
   */
  planId: uuid('plan_id'),
  /*
   * Dimensions of issue 41 (migration 0040; common/qoe.ts QOE_DIMENSIONS): what the player reported
   * at the start ('' = not reported), and the title's series fixed at the start like the plan.
   */
  os: text('os').notNull().default(''),
  osVersion: text('os_version').notNull().default(''),
  browser: text('browser').notNull().default(''),
  playerName: text('player_name').notNull().default(''),
  playerVersion: text('player_version').notNull().default(''),
  appVersion: text('app_version').notNull().default(''),
  region: text('region').notNull().default(''),
  streamType: text('stream_type').notNull().default('vod'),
  sourceHost: text('source_host').notNull().default(''),
  seriesId: uuid('series_id'),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.id, t.startedAt] }),
  index('playback_site_started_idx').on(t.siteId, t.startedAt),
  index('playback_subscriber_started_idx').on(t.subscriberId, t.startedAt),
  index('playback_content_started_idx').on(t.contentId, t.startedAt),
]);

/**
 * Player heartbeats as received (idempotent by the player's event id, per site). Partitioned by the
 * UTC day of `at` (migration 0017, like playback_sessions); key (site, event id, at): a repeated
 * heartbeat (same id, same at) lands in the same day's partition and is refused by its key.
 */
export const playerHeartbeats = pgTable('player_heartbeats', {
  // No foreign key to sites (migration 0049, issue 42): its check was a quarter of the consumer's
  // heartbeat insert; the site is the ingestion key's, set by the server, and sites are never deleted.
  siteId: uuid('site_id').notNull(),
  eventId: text('event_id').notNull(),
  sessionId: uuid('session_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  playheadSeconds: integer('playhead_seconds').notNull(),
  watchedSeconds: integer('watched_seconds').notNull(),
  bitrateKbps: integer('bitrate_kbps').notNull(),
  rebufferCount: integer('rebuffer_count').notNull().default(0),
  rebufferMs: integer('rebuffer_ms').notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.eventId, t.at] }),
  index('player_heartbeats_session_idx').on(t.sessionId, t.at),
]);

/* ---------------------------------------------------------------------------------------------
 * Rollups: what reports read (never raw sessions). Kept up to date as data arrive (ingestion) and
 * rebuilt by `npm run rollups`. Histograms use the fixed bucket bounds of common/constants.ts.
 * ------------------------------------------------------------------------------------------- */

/**
 * Playback per site, network, day and one dimension: 'all' (key ''), 'content' (content id),
 * 'device' (device type), 'country', 'isp', 'cdn', 'plan' (plan id of the viewer's subscription).
 */
export const dailyPlaybackRollups = pgTable('daily_playback_rollups', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  dimension: text('dimension').notNull(),
  dimKey: text('dim_key').notNull(),
  sessions: integer('sessions').notNull().default(0),
  /** Distinct viewers of this day and key (not additive across days). */
  viewers: integer('viewers').notNull().default(0),
  watchedSeconds: bigint('watched_seconds', { mode: 'number' }).notNull().default(0),
  startupMsSum: bigint('startup_ms_sum', { mode: 'number' }).notNull().default(0),
  rebufferCount: integer('rebuffer_count').notNull().default(0),
  rebufferSeconds: bigint('rebuffer_seconds', { mode: 'number' }).notNull().default(0),
  errorSessions: integer('error_sessions').notNull().default(0),
  bitrateKbpsSum: bigint('bitrate_kbps_sum', { mode: 'number' }).notNull().default(0),
  /** Session counts per startup-time bucket (STARTUP_MS_BUCKETS). */
  startupHistogram: jsonb('startup_histogram').$type<number[]>().notNull().default([]),
  /** Session counts per rebuffer-ratio bucket (REBUFFER_RATIO_BUCKETS). */
  rebufferHistogram: jsonb('rebuffer_histogram').$type<number[]>().notNull().default([]),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.networkId, t.day, t.dimension, t.dimKey] }),
  index('daily_playback_site_dim_day_idx').on(t.siteId, t.dimension, t.day),
  // One key's days (a content item's plays and QoS on its detail page and in the library rows).
  index('daily_playback_site_dim_key_day_idx').on(t.siteId, t.dimension, t.dimKey, t.day),
]);

/** Subscription movements per site, network, day and plan. */
export const dailySubscriptionRollups = pgTable('daily_subscription_rollups', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  planId: uuid('plan_id').notNull(),
  trialsStarted: integer('trials_started').notNull().default(0),
  paidStarted: integer('paid_started').notNull().default(0),
  conversions: integer('conversions').notNull().default(0),
  cancellations: integer('cancellations').notNull().default(0),
  expirations: integer('expirations').notNull().default(0),
  /** Subscriptions active (paying) and trialing at the end of the day. */
  activeAtEnd: integer('active_at_end').notNull().default(0),
  trialingAtEnd: integer('trialing_at_end').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.networkId, t.day, t.planId] })]);

/** Payments per site, network, day, plan, currency and status. */
export const dailyPaymentRollups = pgTable('daily_payment_rollups', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  planId: uuid('plan_id').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  payments: integer('payments').notNull().default(0),
  amount: bigint('amount', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.networkId, t.day, t.planId, t.currency, t.status] })]);

/** Sign-ups per site, network, day and country. */
export const dailyAudienceRollups = pgTable('daily_audience_rollups', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  networkId: uuid('network_id').notNull().references(() => networks.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  country: text('country').notNull(),
  signups: integer('signups').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.networkId, t.day, t.country] })]);

/** Per-site ingestion keys of the players (POST /v1/events); only a hash is stored. */
export const ingestionKeys = pgTable('ingestion_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull().unique(),
  label: text('label').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/**
 * Sessions whose session.start POST /v1/events has accepted (issue 31): the producer answers 202
 * before a consumer writes the session, so a heartbeat sent right after its start is checked against
 * this record as well as playback_sessions. Purged after the ingestion window (INGEST_WINDOW_DAYS).
 */
export const ingestSessionStarts = pgTable('ingest_session_starts', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  sessionId: uuid('session_id').notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.sessionId] }),
  index('ingest_session_starts_accepted_idx').on(t.acceptedAt),
]);

/**
 * (site, UTC day) slices of daily_playback_rollups that consumers wrote sessions for and no fold
 * has re-aggregated since (issue 31). Fold workers take them FOR UPDATE SKIP LOCKED.
 */
export const dirtyRollupSlices = pgTable('dirty_rollup_slices', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.siteId, t.day] })]);

/**
 * Accepted player events a consumer could not place (issue 37, migration 0028): one row per event
 * with the reason (INGEST_DEAD_LETTER_REASONS in common/ingest-contract.ts), a sentence saying why,
 * and the event as received; keyed by (site, event id) so a redelivery records nothing twice.
 */
export const ingestDeadLetters = pgTable('ingest_dead_letters', {
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  eventId: text('event_id').notNull(),
  reason: text('reason').notNull(),
  detail: text('detail').notNull(),
  payload: jsonb('payload').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.eventId] }),
  index('ingest_dead_letters_site_reason_idx').on(t.siteId, t.reason, t.createdAt),
]);

/**
 * How far back raw history (playback_sessions, player_heartbeats) is whole (migration 0017): the
 * retention job (INGEST_RETENTION_DAYS) drops day partitions older than it and moves kept_from to the
 * first day it kept. One row at most. Folds and rollup rebuilds leave the rollups of earlier days
 * untouched (their raw rows are gone; the rollups are what reports read).
 */
export const rawHistoryRetention = pgTable('raw_history_retention', {
  id: boolean('id').primaryKey().default(true),
  keptFrom: date('kept_from').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One planned rendition of an asset's ladder (server/media-encode ladderFor). */
export interface MediaRungRow { name: string; width: number; height: number; videoKbps: number; audioKbps: number; bandwidth: number; codecs: string }

/**
 * Issue 40 (migration 0036): a site's video. Uploaded by tus (the upload id is the asset id), checked
 * by ffprobe, encoded by the `media.encode` job into an HLS ladder under
 * `<site>/<asset>/v<attempt>/` in the media storage. `attempt` is the encode attempt that holds the
 * lease (`lease_until`, renewed while it runs); `live_attempt` and `done_rungs` are what players see,
 * switched in one transaction at the end of each rendition, so nothing half-written is ever visible.
 */
export const mediaAssets = pgTable('media_assets', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  /** MEDIA_STATUSES of common/media-contract.ts */
  status: text('status').notNull().default('waiting'),
  errorMessage: text('error_message'),
  /** The last failed attempt's reason, kept across retries. */
  lastError: text('last_error'),
  /** 'upload' | 'external' */
  source: text('source').notNull().default('upload'),
  externalUrl: text('external_url'),
  filename: text('filename').notNull().default(''),
  filetype: text('filetype').notNull().default(''),
  uploadSize: bigint('upload_size', { mode: 'number' }),
  uploadedBytes: bigint('uploaded_bytes', { mode: 'number' }).notNull().default(0),
  durationSeconds: doublePrecision('duration_seconds'),
  width: integer('width'),
  height: integer('height'),
  probe: jsonb('probe').$type<Record<string, unknown>>(),
  encrypted: boolean('encrypted').notNull().default(false),
  /** AES-128 key (hex) when encrypted: served only to a valid playback token. */
  encryptionKey: text('encryption_key'),
  /** 'public' | 'signed' */
  policy: text('policy').notNull().default('signed'),
  ladder: jsonb('ladder').$type<MediaRungRow[]>().notNull().default([]),
  /** Rendition name → 0..1 of the running attempt. */
  progress: jsonb('progress').$type<Record<string, number>>().notNull().default({}),
  attempt: integer('attempt').notNull().default(0),
  liveAttempt: integer('live_attempt'),
  doneRungs: jsonb('done_rungs').$type<string[]>().notNull().default([]),
  posterReady: boolean('poster_ready').notNull().default(false),
  storyboardReady: boolean('storyboard_ready').notNull().default(false),
  /** Issue 40 (migration 0041): the poster's chosen time in seconds (null: a tenth of the duration, up to 10 s). */
  posterSeconds: doublePrecision('poster_seconds'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** The content item named in the upload's metadata (attached when the upload is created). */
  contentItemHint: uuid('content_item_hint'),
  createdBy: uuid('created_by'),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('media_assets_site_created_idx').on(t.siteId, t.createdAt),
  index('media_assets_encoding_idx').on(t.status, t.leaseUntil).where(sql`${t.status} IN ('preparing', 'viewable')`),
]);

/** Issue 40: an asset's captions per language (WebVTT, converted from SRT when sent so). */
export const mediaCaptions = pgTable('media_captions', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  assetId: uuid('asset_id').notNull().references(() => mediaAssets.id, { onDelete: 'cascade' }),
  language: text('language').notNull(),
  label: text('label').notNull(),
  vtt: text('vtt').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('media_captions_asset_language_idx').on(t.assetId, t.language)]);

/*
 * Issue 41 (migration 0042, qoe-alerts): alert rules over a QoE metric and a filter set
 * (common/qoe.ts), their incidents (one open per rule), the site's alert delivery settings, the
 * deliveries of opened/resolved incidents, and saved views. server/db/qoe-alert-repository.ts.
 */
export const qoeAlertRules = pgTable('qoe_alert_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  metric: text('metric').notNull(),
  comparison: text('comparison').notNull(),
  threshold: doublePrecision('threshold').notNull(),
  durationMinutes: integer('duration_minutes').notNull(),
  filters: jsonb('filters').$type<QoeFilter[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  version: integer('version').notNull().default(1),
  breachingSince: timestamp('breaching_since', { withTimezone: true }),
  lastValue: doublePrecision('last_value'),
  lastEvaluatedAt: timestamp('last_evaluated_at', { withTimezone: true }),
  createdBy: uuid('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('qoe_alert_rules_site_name_idx').on(t.siteId, sql`lower(${t.name})`),
  index('qoe_alert_rules_enabled_idx').on(t.enabled),
]);

export const qoeIncidents = pgTable('qoe_incidents', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  /** null once its rule is deleted (the incident stays listed with the rule's name and terms). */
  ruleId: uuid('rule_id').references(() => qoeAlertRules.id, { onDelete: 'set null' }),
  ruleName: text('rule_name').notNull(),
  metric: text('metric').notNull(),
  comparison: text('comparison').notNull(),
  threshold: doublePrecision('threshold').notNull(),
  filters: jsonb('filters').$type<QoeFilter[]>().notNull().default([]),
  state: text('state').notNull().default('open'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  /** recovered | disabled | deleted | changed */
  resolvedReason: text('resolved_reason'),
  peakValue: doublePrecision('peak_value').notNull(),
  lastValue: doublePrecision('last_value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('qoe_incidents_one_open_idx').on(t.ruleId).where(sql`${t.state} = 'open'`),
  index('qoe_incidents_site_started_idx').on(t.siteId, t.startedAt),
]);

export const qoeAlertSettings = pgTable('qoe_alert_settings', {
  siteId: uuid('site_id').primaryKey().references(() => sites.id, { onDelete: 'cascade' }),
  webhookUrl: text('webhook_url'),
  /** HMAC-SHA256 key of the webhook's signature (common/qoe.ts QOE_WEBHOOK_SIGNATURE_HEADER). */
  webhookSecret: text('webhook_secret').notNull(),
  emails: jsonb('emails').$type<string[]>().notNull().default([]),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const qoeAlertDeliveries = pgTable('qoe_alert_deliveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  incidentId: uuid('incident_id').notNull().references(() => qoeIncidents.id, { onDelete: 'cascade' }),
  /** email | webhook */
  channel: text('channel').notNull(),
  /** opened | resolved */
  event: text('event').notNull(),
  /** The address or the webhook URL at the time of the event. */
  target: text('target').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  /** pending | sent | failed */
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('qoe_alert_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  index('qoe_alert_deliveries_incident_idx').on(t.incidentId),
]);

export const qoeSavedViews = pgTable('qoe_saved_views', {
  id: uuid('id').primaryKey().defaultRandom(),
  siteId: uuid('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  ownerId: uuid('owner_id').notNull().references(() => staffUsers.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  path: text('path').notNull(),
  search: jsonb('search').$type<Record<string, string>>().notNull().default({}),
  shared: boolean('shared').notNull().default(false),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('qoe_saved_views_owner_name_idx').on(t.siteId, t.ownerId, sql`lower(${t.name})`),
  index('qoe_saved_views_site_shared_idx').on(t.siteId, t.shared),
]);

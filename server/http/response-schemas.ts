/**
 * Response schemas of the REST routes (issue 26): what each route answers, errors included. Fastify
 * serialises an answer with its status's schema (fast-json-stringify), which drops any property the
 * schema does not name: so every schema here is written from what the handler returns (the types in
 * common/) and what the client reads (src/api, src/adapters). Open-ended parts (report rows, setting
 * values, roles, audit details, a network's stored data) say `additionalProperties: true`.
 * Tests build the app with `checkSerialization` (server/http/serialization-check.ts): an answer the
 * schema changed is a 500 there. server/route-schemas.test.ts fails on a route without a schema.
 */
const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const strings = { type: 'array', items: str } as const;
const numbers = { type: 'array', items: num } as const;
/** An object whose keys are data (roles, setting values, audit details, report rows). */
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

function object<P extends Record<string, unknown>>(properties: P) {
  return { type: 'object', properties } as const;
}

/**
 * Every refusal: `{ success: false, message }` from the error handler (server/http/errors.ts), with
 * `retryAfterSeconds` or `fields` when the domain error has them; a few routes add their own details
 * (the ingest's per-event `errors`, the sign-in answers' flags), so the rest passes through.
 */
const FAILURE = {
  type: 'object',
  properties: {
    success: bool,
    message: str,
    retryAfterSeconds: num,
    fields: { type: 'object', additionalProperties: str },
  },
  additionalProperties: true,
} as const;

/** A route's answers: its successes as given, and FAILURE for every 4xx and 5xx. */
export function answers<S extends Record<string, unknown>>(success: S) {
  return { ...success, '4xx': FAILURE, '5xx': FAILURE } as const;
}

/** A body that is not JSON (a stored file, index.html): the bytes are sent as they are, never serialised. */
export const RAW_BODY = { description: 'Bytes sent as they are (not JSON); the Content-Type header says what they are.' } as const;

/* ------------------------------- Admin and account (common/admin-contract.ts) ------------------------------- */

const staffMember = object({
  id: str, username: str, email: str, displayName: str, phoneNumber: str, twoFactorOnLogin: bool,
  roles: OPEN_OBJECT, disabled: bool, createdAt: str, lastSeenAt: strOrNull, activeSessions: num, version: num,
});

const staffSession = object({ id: str, deviceId: str, ipAddress: str, userAgent: str, createdAt: str, lastSeenAt: str, current: bool });

/** The site's second-factor rule and its counts (issue 30, common/second-factor-rule.ts). */
const secondFactor = object({ rule: str, accounts: num, withSms: num, withAuthenticator: num, withNeither: num, ownAuthenticator: bool });

/** One audit log row in words (common/audit-actions.ts AuditLogEntry). */
const auditEntry = object({
  id: str, at: str, action: str, label: str, area: strOrNull,
  actor: { type: ['object', 'null'], properties: { id: str, username: str } },
  object: { type: ['object', 'null'], properties: { kind: str, id: str, name: strOrNull, words: str, link: strOrNull } },
  changes: { type: 'array', items: object({ field: str, before: str, after: str }) },
  note: str, detail: OPEN_OBJECT,
});

export const ADMIN_RESPONSES = {
  staffList: object({
    success: bool, items: { type: 'array', items: staffMember }, total: num, page: num, pageSize: num,
    canEdit: bool, selfId: str, secondFactor, grantable: OPEN_OBJECT,
  }),
  staff: object({ success: bool, staff: staffMember }),
  staffChange: object({ success: bool, message: str, staff: staffMember, link: object({ url: str, expiresAt: str }) }),
  sessions: object({ success: bool, sessions: { type: 'array', items: staffSession } }),
  endSessions: object({ success: bool, message: str, ended: num }),
  secondFactorRule: object({ success: bool, message: str, secondFactor }),
  audit: object({ success: bool, items: { type: 'array', items: auditEntry }, total: num, page: num, pageSize: num }),
  auditExport: object({ success: bool, items: { type: 'array', items: auditEntry }, total: num }),
  setPasswordCheck: object({ success: bool, username: str, displayName: str }),
  setPassword: object({ success: bool, message: str }),
} as const;

/* ------------------------------- Content (common/content.ts) ------------------------------- */

const contentSummary = {
  id: str, kind: str, title: str, status: str, durationSeconds: num, plays30d: num, updatedAt: str, version: num, artworkUrl: str,
} as const;

const contentItem = object({
  ...contentSummary,
  description: str, genre: str, tags: strings, scheduledAt: strOrNull, publishedAt: strOrNull,
  posterUrl: str, rating: str, originalLanguage: str, releaseDate: strOrNull, startsAt: strOrNull,
  seasons: { type: 'array', items: object({ number: num, title: str }) },
  seriesId: strOrNull, seasonNumber: numOrNull, episodeNumber: numOrNull, createdAt: str,
});

export const CONTENT_RESPONSES = {
  list: object({ success: bool, items: { type: 'array', items: object({ ...contentSummary, seasonNumbers: numbers }) }, total: num, start: num, limit: num }),
  detail: object({
    success: bool,
    item: contentItem,
    playsByDay: { type: 'array', items: object({ day: str, plays: num }) },
    qos: object({
      sessions: num, avgStartupMs: numOrNull, rebufferRatio: numOrNull, errorRate: numOrNull, avgBitrateKbps: numOrNull,
      startupHistogram: numbers, rebufferHistogram: numbers,
    }),
  }),
  update: object({ success: bool, item: contentItem, message: str }),
  bulkStatus: object({ success: bool, updated: num, message: str }),
  /** Issue 29: an uploaded artwork's stored URL, and an item's family (a series' seasons and episodes, an episode's series). */
  artworkUpload: object({ success: bool, url: str, width: num, height: num }),
  family: object({
    success: bool,
    series: { type: ['object', 'null'], properties: { id: str, title: str } },
    seasons: { type: 'array', items: object({ number: num, title: str }) },
    episodes: {
      type: 'array',
      items: object({ id: str, title: str, status: str, seasonNumber: numOrNull, episodeNumber: numOrNull, artworkUrl: str }),
    },
  }),
} as const;

/* ------------------------------- AppCMS (common/appcms.ts) ------------------------------- */

const themeColors = object({ primaryColor: str, secondaryColor: str, backgroundColor: str, textColor: str, fontFamily: str });
const diffEntry = object({ field: str, label: str, from: str, to: str });

export const APPCMS_RESPONSES = {
  /** GET /v4.0/appcms/{site}/{kind}/{network}: the stored settings, brand or device data, as stored. */
  networkData: OPEN_OBJECT,
  brand: object({ network: str, logoUrl: str, iconUrl: str, theme: themeColors, themeOtt: themeColors, themeApps: themeColors, version: num }),
  settings: object({ network: str, values: OPEN_OBJECT, version: num }),
  settingsVersions: object({
    network: str,
    current: num,
    versions: {
      type: 'array',
      items: object({ version: num, createdBy: strOrNull, createdAt: str, changed: strings, restoredFrom: numOrNull, values: OPEN_OBJECT }),
    },
  }),
  devices: object({
    network: str,
    devices: { type: 'array', items: object({ platform: str, name: str, enabled: bool, minAppVersion: str }) },
    version: num,
  }),
  copyPreview: object({ brand: { type: 'array', items: diffEntry }, settings: { type: 'array', items: diffEntry } }),
  service: object({
    serviceName: str, serviceType: str, serviceTypes: strings, templateName: str, languageCode: str, forceLogin: bool,
    isMonetizationModelEnabled: bool, domainName: str, siteInternalName: str, version: num, signingKeyMasked: str,
    signingKeyRotatedAt: strOrNull, templates: { type: 'array', items: object({ name: str, description: str, layout: str }) },
  }),
  upload: object({ url: str, contentType: str, width: num, height: num }),
} as const;

/* ------------------------------- Reports (common/reports.ts ReportAnswer) ------------------------------- */

/** Rows, totals and options are keyed by the report's own columns: open-ended, passed through as they are. */
export const REPORT_RESPONSE = object({
  success: bool, report: str, params: OPEN_OBJECT, generatedAt: str,
  columns: { type: 'array', items: OPEN_OBJECT }, rows: { type: 'array', items: OPEN_OBJECT },
  totals: OPEN_OBJECT, previousTotals: OPEN_OBJECT, currency: str, currencies: strings, currencyTotals: OPEN_OBJECT, options: OPEN_OBJECT,
});

/* ------------------------------- Player events (common/ingest-contract.ts) ------------------------------- */

export const INGEST_RESPONSES = {
  /** 400 adds `errors` (one per refused event): FAILURE passes it through. */
  accepted: object({ success: bool, accepted: num }),
  roster: object({
    subscribers: { type: 'array', items: object({ id: str, country: str, networkId: str, deviceTypes: strings }) },
    content: { type: 'array', items: object({ id: str, kind: str, durationSeconds: num, networkId: strOrNull }) },
  }),
  /** IngestDeadLetterCounts (issue 37). */
  deadLetters: object({
    success: bool, total: num,
    reasons: { type: 'array', items: object({ reason: str, events: num, lastAt: strOrNull }) },
  }),
} as const;

/** An answer without a body (204, 304). */
export const NO_BODY = { type: 'null', description: 'No body.' } as const;

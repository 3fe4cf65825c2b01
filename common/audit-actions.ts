/**
 * Every audit action of the system (audit_events.action) in ONE list (issue 28): its area and a
 * label in words. The audit log's Area and Action filters read this list, and
 * server/audit-actions.test.ts fails when the server writes an action that is not in it.
 *
 * Adding an audit action: add its row here (in its area, with a label a reader understands).
 */
import { ROUTES } from './constants';
import { REVISION_KINDS, isRevisionKind } from './revisions';
import { keysOf } from './one-of';

/** The areas of the audit log's Area filter, in the order the filter shows them. */
export const AUDIT_AREAS = {
  signIn: 'Sign-in',
  account: 'Account',
  admin: 'Admin',
  content: 'Content',
  support: 'Customer Support',
  monetization: 'Monetization',
  appcms: 'AppCMS',
  dashboard360: 'Dashboard 360',
} as const;

export type AuditArea = keyof typeof AUDIT_AREAS;

export const AUDIT_AREA_KEYS = keysOf(AUDIT_AREAS);

export interface AuditActionInfo {
  action: string;
  area: AuditArea;
  label: string;
}

const row = (area: AuditArea) => (action: string, label: string): AuditActionInfo => ({ action, area, label });
const signIn = row('signIn');
const account = row('account');
const admin = row('admin');
const content = row('content');
const support = row('support');
const monetization = row('monetization');
const appcms = row('appcms');
const dashboard360 = row('dashboard360');

/** Every action kind the server records, grouped by area. */
export const AUDIT_ACTION_LIST: readonly AuditActionInfo[] = [
  // Sign-in and credential flows (server/domain/auth-flows.ts, social-login.ts).
  signIn('login.success', 'Signed in'),
  signIn('login.failure', 'Sign-in failed'),
  signIn('login.otp_required', 'Sign-in asked for a second factor'),
  signIn('login.throttled', 'Sign-in throttled'),
  signIn('otp.issued', 'One-time code sent'),
  signIn('otp.verify_failed', 'One-time code refused'),
  signIn('otp.verified', 'One-time code accepted'),
  signIn('logout', 'Signed out'),
  signIn('password.reset_token_issued', 'Password reset link issued'),
  signIn('password.reset', 'Password reset'),
  signIn('password.reset_failed', 'Password reset failed'),
  signIn('password.change_refused', 'Password change refused'),
  signIn('identity.linked', 'Sign-in provider linked'),
  signIn('account.failure_cap_reached', 'Account locked after failed attempts'),
  signIn('totp.verify_failed', 'Authenticator code refused at sign-in'),
  signIn('totp.recovery_code_used', 'Recovery code used at sign-in'),
  // The account's own pages (sessions, authenticator).
  account('account.session_ended', 'Own session ended'),
  account('totp.enrolment_started', 'Authenticator set-up started'),
  account('totp.enrolled', 'Authenticator set up'),
  account('totp.confirm_failed', 'Authenticator set-up code refused'),
  account('totp.disabled', 'Authenticator removed'),
  account('totp.disable_refused', 'Authenticator removal refused'),
  account('totp.recovery_regenerated', 'Recovery codes regenerated'),
  account('totp.recovery_refused', 'Recovery codes refused'),
  // Admin: staff accounts and the site's rules.
  admin('staff.created', 'Staff account created'),
  admin('staff.updated', 'Staff account updated'),
  admin('staff.disabled', 'Staff account disabled'),
  admin('staff.enabled', 'Staff account enabled'),
  admin('staff.sessions_ended', 'Staff sessions ended'),
  admin('staff.session_ended', 'Staff session ended'),
  admin('staff.password_link_issued', 'Set-password link issued'),
  admin('staff.password_set', 'Password set from a link'),
  admin('staff.second_factor_reset', 'Second factor reset'),
  admin('staff.grant_refused', 'Role grant refused'),
  admin('staff.create_elsewhere_hidden', 'Account creation on another site refused'),
  admin('site.second_factor_rule', 'Second-factor rule changed'),
  // Before issue 30 the rule was two switches; their rows stay in the log with these labels.
  admin('site.two_factor_required', 'Two-factor rule changed'),
  admin('site.authenticator_required', 'Authenticator rule changed'),
  // Content.
  content('content.update', 'Content item saved'),
  content('content.bulk_status', 'Content items published or unpublished'),
  content('content.create', 'Content item created'),
  content('content.artwork_upload', 'Artwork uploaded'),
  content('content.video_attached', 'Video attached'),
  content('content.video_removed', 'Video removed'),
  // Issue 40: a video's own writes (server/domain/media.ts MEDIA_AUDIT).
  content('media.upload_created', 'Video upload started'),
  content('media.cancelled', 'Video upload or encoding cancelled'),
  content('media.retried', 'Video encoding retried'),
  content('media.captions_saved', 'Video captions saved'),
  content('media.captions_removed', 'Video captions removed'),
  content('media.external_attached', 'Video added from an HLS address'),
  content('media.external_changed', 'Video HLS address changed'),
  content('media.poster_time_set', 'Video poster time changed'),
  content('content.availability', 'Availability saved'),
  content('content.scheduled_unpublish', 'Content item unpublished on schedule'),
  content('content.scheduled_publish', 'Content item published on schedule'),
  content('content.scheduled_publish_refused', 'Scheduled publication refused'),
  content('content.restore', 'Content item restored'),
  content('content.country_group.create', 'Country group created'),
  content('content.country_group.update', 'Country group saved'),
  content('content.country_group.delete', 'Country group deleted'),
  content('content.licence.create', 'Licence created'),
  content('content.licence.update', 'Licence saved'),
  content('content.licence.delete', 'Licence deleted'),
  // Customer Support.
  support('support.subscription.cancel', 'Subscription cancelled'),
  support('support.subscription.grantDays', 'Complimentary days granted'),
  support('support.subscription.resume', 'Subscription resumed'),
  support('support.subscription.changePlan', 'Subscription plan changed'),
  support('support.payment.refund', 'Payment refunded'),
  support('support.devices.signOut', 'Devices signed out'),
  support('support.note.add', 'Note added'),
  support('support.contact.reveal', 'Contact details revealed'),
  support('support.subscriber.search', 'Subscribers searched'),
  // Monetization.
  monetization('monetization.settings.update', 'Monetization settings saved'),
  monetization('monetization.plan.create', 'Plan created'),
  monetization('monetization.plan.update', 'Plan saved'),
  monetization('monetization.plan.archive', 'Plan archived'),
  monetization('monetization.plan.delete', 'Plan deleted'),
  monetization('monetization.plan.duplicate', 'Plan duplicated'),
  monetization('monetization.planGroup.create', 'Plan group created'),
  monetization('monetization.planGroup.update', 'Plan group saved'),
  monetization('monetization.planGroup.reorder', 'Plan groups reordered'),
  monetization('monetization.offer.create', 'Offer created'),
  monetization('monetization.offer.update', 'Offer saved'),
  monetization('monetization.coupon.create', 'Coupon created'),
  monetization('monetization.coupon.update', 'Coupon saved'),
  monetization('monetization.coupon.batch', 'Coupon batch created'),
  monetization('monetization.plan.moveAtRenewal', 'Subscribers moved to the current price at their next renewal'),
  monetization('monetization.coupon.disable', 'Coupon disabled'),
  monetization('monetization.coupon.enable', 'Coupon enabled'),
  monetization('monetization.plan.restore', 'Plan restored'),
  monetization('monetization.planGroup.restore', 'Plan group restored'),
  monetization('monetization.offer.restore', 'Offer restored'),
  monetization('monetization.coupon.restore', 'Coupon restored'),
  // AppCMS: networks and their apps.
  appcms('network.publish', 'Network launched'),
  appcms('network.withdraw', 'Network launch withdrawn'),
  appcms('network.copyFromDefault', 'Network copied from the default'),
  appcms('appcms.brand.save', 'Brand saved'),
  appcms('appcms.settings.save', 'Settings saved'),
  appcms('appcms.settings.restore', 'Settings restored'),
  appcms('appcms.brand.restore', 'Brand restored'),
  appcms('appcms.devices.save', 'Devices saved'),
  appcms('appcms.devices.restore', 'Devices restored'),
  appcms('appcms.service.save', 'Service saved'),
  appcms('appcms.service.restore', 'Service restored'),
  appcms('appcms.signingKey.rotate', 'Signing key rotated'),
  appcms('appcms.upload', 'File uploaded'),
  // Dashboard 360 (issue 41): alert rules, where alerts are sent, saved views (server/domain/qoe-alerts.ts QOE_ALERT_AUDIT).
  dashboard360('qoe.alert_rule.create', 'Alert rule created'),
  dashboard360('qoe.alert_rule.update', 'Alert rule saved'),
  dashboard360('qoe.alert_rule.delete', 'Alert rule deleted'),
  dashboard360('qoe.alert_settings.save', 'Alert delivery saved'),
  dashboard360('qoe.alert_settings.rotate_secret', 'Alert webhook signing secret rotated'),
  dashboard360('qoe.saved_view.create', 'Saved view created'),
  dashboard360('qoe.saved_view.update', 'Saved view changed'),
  dashboard360('qoe.saved_view.delete', 'Saved view deleted'),
];

const BY_ACTION = new Map(AUDIT_ACTION_LIST.map((info) => [info.action, info]));

/** Every action kind, in the list's order. */
export const AUDIT_ACTION_KINDS: readonly string[] = AUDIT_ACTION_LIST.map((info) => info.action);

export function auditActionInfo(action: string): AuditActionInfo | undefined {
  return BY_ACTION.get(action);
}

/**
 * A save's action as a restore from a History records it (issue 38: a restore is audited as a
 * restore, "Settings restored from #23", never as "Settings saved"). The restore's audit row carries
 * the revision it wrote back as `detail.restoredRevision` (server/db/audit-repository.ts).
 */
export const RESTORE_ACTION_OF: Readonly<Record<string, string>> = {
  'content.update': 'content.restore',
  'appcms.brand.save': 'appcms.brand.restore',
  'appcms.settings.save': 'appcms.settings.restore',
  'appcms.devices.save': 'appcms.devices.restore',
  'appcms.service.save': 'appcms.service.restore',
  'monetization.plan.update': 'monetization.plan.restore',
  'monetization.planGroup.update': 'monetization.planGroup.restore',
  'monetization.offer.update': 'monetization.offer.restore',
  'monetization.coupon.update': 'monetization.coupon.restore',
};

/** The detail key naming the revision a restore wrote back (its number in the History, "#23"). */
export const RESTORED_REVISION_KEY = 'restoredRevision';

/** A row's label: the action's words, a restore's with the revision it wrote back ("Settings restored from #23"). */
export function auditRowLabel(action: string, detail: Readonly<Record<string, unknown>>): string {
  const label = auditActionLabel(action);
  const seq = detail[RESTORED_REVISION_KEY];
  return Object.values(RESTORE_ACTION_OF).includes(action) && typeof seq === 'number' ? `${label} from #${seq}` : label;
}

/** The action in words ("Brand saved"); an action missing from the list shows as itself. */
export function auditActionLabel(action: string): string {
  return BY_ACTION.get(action)?.label ?? action;
}

/** The actions of one area (all of them when no area is given). */
export function auditActionsOfArea(area: AuditArea | null | undefined): readonly AuditActionInfo[] {
  return area ? AUDIT_ACTION_LIST.filter((info) => info.area === area) : AUDIT_ACTION_LIST;
}

export function isAuditArea(value: unknown): value is AuditArea {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(AUDIT_AREAS, value);
}

/* ------------------------------- The audit log page (Admin › Audit) ------------------------------- */

/**
 * How long the audit log keeps a row: the server's housekeeping (server/db/housekeeping.ts) deletes
 * audit rows older than this, every 10 minutes. Stated on the page and in the README.
 */
export const AUDIT_RETENTION_DAYS = 400;

/** The most rows one CSV export carries (the filter narrows a larger log). */
export const AUDIT_EXPORT_MAX = 10_000;

/** One change of an audit row, in words: the field's label and its values before and after. */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

/** One row of the audit log as the page shows it (GET /v3.0/user/admin/audit). */
export interface AuditLogEntry {
  id: string;
  at: string;
  action: string;
  /** The action in words ("Brand saved"). */
  label: string;
  area: AuditArea | null;
  actor: { id: string; username: string } | null;
  /** The object in words ("brand of network Kids Zone", "plan Basic Monthly") and its page in the console. */
  object: { kind: string; id: string; name: string | null; words: string; link: string | null } | null;
  changes: AuditChange[];
  /** What else the row says, in words (an address, a count), when it has no changes. */
  note: string;
  /** The row's recorded detail as stored (secrets scrubbed), for tools reading the API; the page shows the words above. */
  detail: Record<string, unknown>;
}

export const AUDIT_LOG_MESSAGES = {
  retention: `Entries are kept for ${AUDIT_RETENTION_DAYS} days, then deleted.`,
  exportTooLarge: (total: number) => `The filter matches ${total} entries; the export carries at most ${AUDIT_EXPORT_MAX}. Narrow the filter (a shorter date range, one area or action).`,
  exported: (count: number) => `Exported ${count} ${count === 1 ? 'entry' : 'entries'} to audit-log.csv.`,
  exportFailed: 'The audit log could not be exported.',
  badArea: `area must be one of ${Object.keys(AUDIT_AREAS).join(', ')}.`,
  objectKinds: 'Any object',
} as const;

/** A change in one line: "Field: before → after". */
export function auditChangeText(change: AuditChange): string {
  return `${change.field}: ${change.before} → ${change.after}`;
}

/** What a row changed or says, in one line (the table's What column and the CSV's). */
export function auditEntryWhat(entry: Pick<AuditLogEntry, 'changes' | 'note'>): string {
  const parts = entry.changes.map(auditChangeText);
  if (entry.note) parts.push(entry.note);
  return parts.join('; ');
}

export const AUDIT_CSV_HEADERS = ['When (ISO 8601 UTC)', 'Who', 'Area', 'Action', 'Object', 'Changes'] as const;

/** The cells of one row in the CSV, in AUDIT_CSV_HEADERS' order (the page's table shows the same). */
export function auditCsvCells(entry: AuditLogEntry): string[] {
  return [
    entry.at,
    entry.actor?.username ?? 'System',
    entry.area ? AUDIT_AREAS[entry.area] : '',
    entry.label,
    entry.object?.words ?? '',
    auditEntryWhat(entry),
  ];
}

function csvField(text: string): string {
  // A leading =, +, - or @ would be read as a formula by a spreadsheet: quote it with an apostrophe.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV text of audit rows (in the order given: the log's, newest first). */
export function auditCsv(entries: readonly AuditLogEntry[]): string {
  return [[...AUDIT_CSV_HEADERS], ...entries.map(auditCsvCells)].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const NETWORK_DATA_KINDS = new Set(['brand', 'settings', 'devices']);

/** An audit row's object in words: "network Kids Zone", "brand of network Kids Zone", "plan Basic Monthly". */
export function auditObjectWords(kind: string, name: string | null): string {
  const label = isRevisionKind(kind) ? REVISION_KINDS[kind].label : kind;
  if (NETWORK_DATA_KINDS.has(kind)) return name ? `${label} of network ${name}` : label;
  return name ? `${label} ${name}` : label;
}

/**
 * The console page of an audit row's object, or null when it has none: a network's brand, settings
 * and devices open for that network (`?network=<identifier>`), a plan, offer, coupon or group opens
 * its editor (`?edit=<id>`), a subscriber their page. Issue 38: a staff account opens the staff list
 * searched for its username (`/admin?search=<username>`), a coupon the coupon list searched for its
 * code (`?search=<code>`), when the row's `name` is known.
 */
export function auditObjectLink(kind: string, id: string, networkIdentifier: string | null, contentKind?: string | null, name?: string | null): string | null {
  const search = name ? `?search=${encodeURIComponent(name)}` : '';
  const network = networkIdentifier ? `?network=${encodeURIComponent(networkIdentifier)}` : '';
  const edit = `?edit=${encodeURIComponent(id)}`;
  switch (kind) {
    case 'brand': case 'settings': case 'devices': return `${ROUTES.appcms}/${kind}${network}`;
    case 'network': return `${ROUTES.appcms}${network}`;
    case 'service': return `${ROUTES.appcms}/service`;
    case 'models': return '/monetization/models';
    case 'plan': return `/monetization/plans${edit}`;
    case 'planGroup': return `/monetization/planGroups${edit}`;
    case 'planGroupOrder': return '/monetization/planGroups';
    case 'offer': return `/monetization/offers${edit}`;
    case 'coupon': return `/monetization/coupon${search}`;
    case 'couponBatch': return '/monetization/coupon';
    case 'media': return `${ROUTES.content}/media/${encodeURIComponent(id)}`;
    case 'content': return contentKind ? `${ROUTES.content}/${encodeURIComponent(contentKind)}/${encodeURIComponent(id)}` : ROUTES.content;
    case 'subscriber': return `${ROUTES.users}/${encodeURIComponent(id)}`;
    case 'staff': return `${ROUTES.admin}${search}`;
    case 'siteSecurity': return ROUTES.admin;
    case 'qoeAlertRule': case 'qoeAlertSettings': return `${ROUTES.analytics}/alerts`;
    default: return null;
  }
}

/** YYYY-MM-DD, inclusive: the SITE's day (its zone), decided by the server (server/domain/audit-log.ts). */
const auditDateSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

/** The audit log's query (GET /v3.0/user/admin/audit and /audit/export): every filter is optional. */
export const AUDIT_LOG_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    area: { type: 'string', maxLength: 40 },
    action: { type: 'string', maxLength: 100 },
    who: { type: 'string', maxLength: 200 },
    objectKind: { type: 'string', maxLength: 40 },
    object: { type: 'string', maxLength: 200 },
    from: auditDateSchema,
    to: auditDateSchema,
    page: { type: 'integer', minimum: 1, maximum: 100000 },
    pageSize: { type: 'integer', minimum: 1, maximum: 100 },
  },
} as const;

/** The export's path, beside the list's (`${API_PATHS.admin}/audit`). */
export const AUDIT_EXPORT_PATH = '/audit/export';

/**
 * Every audit action of the system (audit_events.action) in ONE list (issue 28): its area and a
 * label in words. The audit log's Area and Action filters read this list, and
 * server/audit-actions.test.ts fails when the server writes an action that is not in it.
 *
 * Adding an audit action: add its row here (in its area, with a label a reader understands).
 */

/** The areas of the audit log's Area filter, in the order the filter shows them. */
export const AUDIT_AREAS = {
  signIn: 'Sign-in',
  account: 'Account',
  admin: 'Admin',
  content: 'Content',
  support: 'Customer Support',
  monetization: 'Monetization',
  appcms: 'AppCMS',
} as const;

export type AuditArea = keyof typeof AUDIT_AREAS;

export const AUDIT_AREA_KEYS = Object.keys(AUDIT_AREAS) as AuditArea[];

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
  admin('site.two_factor_required', 'Two-factor rule changed'),
  admin('site.authenticator_required', 'Authenticator rule changed'),
  // Content.
  content('content.update', 'Content item saved'),
  content('content.bulk_status', 'Content items published or unpublished'),
  // Customer Support.
  support('support.subscription.cancel', 'Subscription cancelled'),
  support('support.subscription.grantDays', 'Complimentary days granted'),
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
  // AppCMS: networks and their apps.
  appcms('network.publish', 'Network launched'),
  appcms('network.copyFromDefault', 'Network copied from the default'),
  appcms('appcms.brand.save', 'Brand saved'),
  appcms('appcms.settings.save', 'Settings saved'),
  appcms('appcms.settings.restore', 'Settings version restored'),
  appcms('appcms.devices.save', 'Devices saved'),
  appcms('appcms.service.save', 'Service saved'),
  appcms('appcms.signingKey.rotate', 'Signing key rotated'),
  appcms('appcms.upload', 'File uploaded'),
];

const BY_ACTION = new Map(AUDIT_ACTION_LIST.map((info) => [info.action, info]));

/** Every action kind, in the list's order. */
export const AUDIT_ACTION_KINDS: readonly string[] = AUDIT_ACTION_LIST.map((info) => info.action);

export function auditActionInfo(action: string): AuditActionInfo | undefined {
  return BY_ACTION.get(action);
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

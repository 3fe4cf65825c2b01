/**
 * The authenticator-app second factor (issue 19; TOTP per RFC 6238, SECURITY.md C-TOTP-*): its
 * constants, paths, wire shapes and every message, spoken by browser, machines and server alike.
 * The SMS code step of the spec is unchanged; this factor sits beside it.
 */
import type { FromSchema } from './json-schema';

/** RFC 6238 parameters: HMAC-SHA1, 6 digits, 30-second steps; a code of the step before or after is accepted too. */
export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
/** 20 random bytes (160 bits, RFC 4226's recommendation), base32 without padding: 32 characters. */
export const TOTP_SECRET_BYTES = 20;
export const TOTP_ISSUER = 'CMS Tools';
/** Recovery codes per enrolment (and per regeneration), each single use: `xxxxx-xxxxx` of [a-z0-9]. */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/;

/** Which second factor a login answer asks for (added to the spec's login response; absent = the spec's SMS). */
export type SecondFactorKind = 'sms' | 'totp';

export const TOTP_PATHS = {
  /** The signed-in user's own authenticator: GET status; POST start, confirm, disable, recovery-codes. */
  account: '/v3.0/user/account/totp',
} as const;

export const TOTP_ROUTES = {
  /** The account page of the authenticator (beside /account/sessions). */
  accountSecurity: '/account/security',
} as const;

export const TOTP_AUDIT_ACTIONS = {
  enrolmentStarted: 'totp.enrolment_started',
  enrolled: 'totp.enrolled',
  confirmFailed: 'totp.confirm_failed',
  disabled: 'totp.disabled',
  disableRefused: 'totp.disable_refused',
  recoveryRegenerated: 'totp.recovery_regenerated',
  recoveryRefused: 'totp.recovery_refused',
  recoveryUsed: 'totp.recovery_code_used',
  loginCodeFailed: 'totp.verify_failed',
} as const;

export const TOTP_MESSAGES = {
  // Server answers.
  statusLoaded: 'Authenticator status loaded.',
  enrolmentStarted: 'Scan the code with your authenticator app, then enter the 6-digit code it shows.',
  alreadyEnrolled: 'An authenticator app is already set up. Disable it first to set up another.',
  noPendingEnrolment: 'Start the set-up again: no authenticator is waiting for confirmation.',
  codeWrong: 'The code is not correct or has already been used. Enter the current code from your app.',
  codeFormat: 'Enter the 6-digit code from your authenticator app.',
  enrolled: 'Your authenticator app is set up. Keep your recovery codes somewhere safe.',
  notEnrolled: 'No authenticator app is set up for this account.',
  disabled: 'The authenticator app was removed from your account.',
  disableNeedsCode: 'Enter a current code from your authenticator app or one of your recovery codes.',
  recoveryRegenerated: 'New recovery codes were made; the old ones no longer work.',
  loginCodeRequired: 'Enter the code from your authenticator app.',
  enrolmentRequired: 'This site requires an authenticator app. Set one up on your account\'s two-factor page to continue.',
  // The account page.
  pageTitle: 'Two-factor authentication',
  menuItem: 'Two-factor authentication',
  intro: 'An authenticator app gives a new code every 30 seconds. It is stronger than a code by SMS: once set up, sign-in asks for it instead.',
  statusOn: 'Authenticator app: on',
  statusOff: 'Authenticator app: off',
  statusPending: 'Authenticator app: waiting for the first code',
  statusLoadFailed: 'The two-factor status could not be loaded.',
  smsNote: 'SMS codes to your mobile phone stay as they are for accounts without an authenticator app.',
  requiredNote: 'This site requires an authenticator app: set one up to continue.',
  setUp: 'Set up an authenticator app',
  scanTitle: 'Scan this QR code with your authenticator app',
  manualEntry: 'Or enter this key by hand',
  qrLabel: 'QR code of the authenticator set-up link',
  confirmLabel: 'Code from the app',
  confirm: 'Confirm',
  cancel: 'Cancel',
  recoveryTitle: 'Your recovery codes',
  recoveryNote: 'Each code signs you in once if you lose your phone. They are shown only now: copy them and keep them somewhere safe.',
  copyCodes: 'Copy codes',
  copied: 'Copied',
  done: 'Done',
  disable: 'Disable the authenticator app',
  disableTitle: 'Disable the authenticator app',
  disableConfirm: 'Disable',
  passwordLabel: 'Current Password',
  codeOrRecoveryLabel: 'Authenticator code or recovery code',
  regenerate: 'New recovery codes',
  regenerateTitle: 'Make new recovery codes',
  regenerateConfirm: 'Make new codes',
  codeLabel: 'Authenticator code',
  requestFailed: 'The request failed. Try again.',
  // The sign-in step.
  signInTitle: 'Authenticator code',
  signInText: 'Enter the 6-digit code from your authenticator app.',
  recoveryLabel: 'Recovery code',
  recoveryText: 'Enter one of the recovery codes you saved when you set up the app.',
  useRecovery: 'Use a recovery code',
  useAuthenticator: 'Use the authenticator app',
  recoveryFormat: 'Enter a recovery code like abcde-12345.',
} as const;

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const text = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;

export const TOTP_SCHEMAS = {
  confirm: { type: 'object', required: ['code'], properties: { code: text(20, 1) } },
  disable: { type: 'object', required: ['password', 'code'], properties: { password: text(500, 1), code: text(20, 1) } },
  regenerate: { type: 'object', required: ['code'], properties: { code: text(20, 1) } },
  status: {
    type: 'object',
    required: ['success', 'message', 'enabled', 'pending', 'recoveryCodesLeft', 'required'],
    properties: { success: bool, message: str, enabled: bool, pending: bool, recoveryCodesLeft: { type: 'integer' }, required: bool },
  },
  start: {
    type: 'object',
    required: ['success', 'message', 'secret', 'otpauthUri'],
    properties: { success: bool, message: str, secret: str, otpauthUri: str },
  },
  recoveryCodes: {
    type: 'object',
    required: ['success', 'message', 'recoveryCodes'],
    properties: { success: bool, message: str, recoveryCodes: { type: 'array', items: str } },
  },
  plain: { type: 'object', required: ['success', 'message'], properties: { success: bool, message: str } },
} as const;

export type TotpConfirmRequest = FromSchema<typeof TOTP_SCHEMAS.confirm>;
export type TotpDisableRequest = FromSchema<typeof TOTP_SCHEMAS.disable>;
export type TotpRegenerateRequest = FromSchema<typeof TOTP_SCHEMAS.regenerate>;
export type TotpStatusResponse = FromSchema<typeof TOTP_SCHEMAS.status>;
export type TotpStartResponse = FromSchema<typeof TOTP_SCHEMAS.start>;
export type TotpRecoveryCodesResponse = FromSchema<typeof TOTP_SCHEMAS.recoveryCodes>;
export type TotpPlainResponse = FromSchema<typeof TOTP_SCHEMAS.plain>;

/** A six-digit authenticator code (spaces dropped). */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
}

/** A recovery code as typed (case and surrounding spaces ignored). */
export function isRecoveryCode(code: string): boolean {
  return RECOVERY_CODE_PATTERN.test(code.trim().toLowerCase());
}

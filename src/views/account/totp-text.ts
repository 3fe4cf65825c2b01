/**
 * The texts of the authenticator-app views (issue 19): the account's "Two-factor authentication"
 * page, the sign-in step, the user-menu entry and the Admin switch, in English (from common/totp.ts,
 * which the server and machines speak too), looked up like the shell catalogue
 * (src/views/shared/shell-text.ts) by the user's language (English only; issue 38). Messages that come from the
 * server or a machine (errors, notes) stay as they arrive.
 */
import { TOTP_MESSAGES as M } from '../../../common/totp';
import { usePreferences, type Language } from '../shared/preferences';

export interface TotpText {
  pageTitle: string;
  menuItem: string;
  intro: string;
  statusOn: string;
  statusOff: string;
  statusPending: string;
  recoveryLeft: (count: number) => string;
  smsNote: string;
  requiredNote: string;
  setUp: string;
  scanTitle: string;
  manualEntry: string;
  qrLabel: string;
  confirmLabel: string;
  confirm: string;
  confirming: string;
  cancel: string;
  recoveryTitle: string;
  recoveryNote: string;
  copyCodes: string;
  copied: string;
  done: string;
  disable: string;
  disableTitle: string;
  disableConfirm: string;
  passwordLabel: string;
  codeOrRecoveryLabel: string;
  regenerate: string;
  regenerateTitle: string;
  regenerateConfirm: string;
  codeLabel: string;
  working: string;
  loading: string;
  retry: string;
  signInTitle: string;
  signInText: string;
  recoveryLabel: string;
  recoveryText: string;
  useRecovery: string;
  useAuthenticator: string;
  verify: string;
  verifying: string;
  signingIn: string;
  backToSignIn: string;
}

const EN: TotpText = {
  pageTitle: M.pageTitle,
  menuItem: M.menuItem,
  intro: M.intro,
  statusOn: M.statusOn,
  statusOff: M.statusOff,
  statusPending: M.statusPending,
  recoveryLeft: (count) => `Recovery codes left: ${count}`,
  smsNote: M.smsNote,
  requiredNote: M.requiredNote,
  setUp: M.setUp,
  scanTitle: M.scanTitle,
  manualEntry: M.manualEntry,
  qrLabel: M.qrLabel,
  confirmLabel: M.confirmLabel,
  confirm: M.confirm,
  confirming: 'Confirming…',
  cancel: M.cancel,
  recoveryTitle: M.recoveryTitle,
  recoveryNote: M.recoveryNote,
  copyCodes: M.copyCodes,
  copied: M.copied,
  done: M.done,
  disable: M.disable,
  disableTitle: M.disableTitle,
  disableConfirm: M.disableConfirm,
  passwordLabel: M.passwordLabel,
  codeOrRecoveryLabel: M.codeOrRecoveryLabel,
  regenerate: M.regenerate,
  regenerateTitle: M.regenerateTitle,
  regenerateConfirm: M.regenerateConfirm,
  codeLabel: M.codeLabel,
  working: 'Working…',
  loading: 'Loading…',
  retry: 'Retry',
  signInTitle: M.signInTitle,
  signInText: M.signInText,
  recoveryLabel: M.recoveryLabel,
  recoveryText: M.recoveryText,
  useRecovery: M.useRecovery,
  useAuthenticator: M.useAuthenticator,
  verify: 'Verify',
  verifying: 'Verifying…',
  signingIn: 'Signing you in…',
  backToSignIn: 'Back to sign in',
};

export const TOTP_TEXT: Record<Language, TotpText> = { en: EN };

/** The authenticator texts in the user's language. */
export function useTotpText(): TotpText {
  return TOTP_TEXT[usePreferences().language];
}

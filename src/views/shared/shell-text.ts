/**
 * The shell's message catalogue (issue 20): sign-in, header, menus and dialogs, in English (the spec's
 * texts verbatim, from common/messages.ts where the spec gives them). A second language was offered
 * while it translated only the shell; it is no longer offered until every page is translated (issue 38).
 * Also the network switcher (its marks, and the Launch / Copy dialogs' titles, bodies, comparison and
 * buttons), /forbidden, and the inactivity and OTP dialogs' titles and buttons.
 */
import { APP_TITLE } from '../../../common/constants';
import { SIGN_IN_MESSAGES as MESSAGES } from '../../../common/messages/sign-in';
import { SHELL_OWN_MESSAGES as OWN_MESSAGES } from '../../../common/messages/shell';
import { NETWORK_STATE_WORDS } from '../../../common/messages/network-states';
import { usePreferences, type Language } from './preferences';

export interface ShellText {
  signInTitle: string;
  username: string;
  password: string;
  signIn: string;
  signingIn: string;
  forgotPassword: string;
  or: string;
  signInGoogle: string;
  signInMicrosoft: string;
  skipLink: string;
  areas: string;
  menu: string;
  userMenu: string;
  admin: string;
  changePassword: string;
  mySessions: string;
  logout: string;
  theme: string;
  systemTheme: string;
  lightTheme: string;
  darkTheme: string;
  logoutTitle: string;
  logoutConfirm: string;
  logoutCancel: string;
  logoutConfirmButton: string;
  cancel: string;
  networkCurrent: string;
  networkList: string;
  networkLoading: string;
  networkNone: string;
  networkLaunch: string;
  networkCopyBrand: string;
  networkCopySettings: string;
  networkCopy: string;
  networkLaunchTitle: string;
  networkCopyTitle: (what: 'brand' | 'settings') => string;
  networkDefault: string;
  networkLaunched: string;
  networkNotLaunched: string;
  networkLaunchConfirm: (name: string) => string;
  networkCopyConfirm: (what: 'brand' | 'settings', from: string, to: string) => string;
  networkCopyComparing: string;
  networkCopyChanges: (count: number) => string;
  networkCopyNoChanges: string;
  networkCopyCompareFailed: string;
  networkChangesTable: string;
  networkChangeField: string;
  networkChangeNow: string;
  networkChangeAfter: string;
  forbiddenTitle: string;
  forbidden: string;
  forbiddenArea: (area: string) => string;
  forbiddenNoRole: string;
  forbiddenAskAdmin: string;
  forbiddenGoTo: (page: string) => string;
  forbiddenSignOut: string;
  /** Issue 38: the header is hidden here (spec §2.9), so the page says whose session this is beside the way out. */
  forbiddenSignedInAs: (username: string) => string;
  inactivityTitle: string;
  inactivityWarning: string;
  staySignedIn: string;
  signingOutIn: (seconds: number) => string;
  otpTitle: string;
  otpConfirm: string;
  otpVerifying: string;
  otpSending: string;
  otpInstruction: string;
  otpCodeLabel: string;
  otpResend: string;
  otpResendSending: string;
  otpResendIn: (seconds: number) => string;
  otpWrongNumber: string;
  otpRates: string;
  /** The user menu's name when the session has no username (never expected). */
  accountFallback: string;
}

const EN: ShellText = {
  signInTitle: `Sign in to ${APP_TITLE}`,
  username: 'Username',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing in…',
  forgotPassword: 'Forgot password?',
  or: 'or',
  signInGoogle: 'Sign in with Google',
  signInMicrosoft: 'Sign in with Microsoft',
  skipLink: 'Skip to main content',
  areas: 'Areas',
  menu: 'Menu',
  userMenu: 'User menu',
  admin: 'Admin',
  changePassword: 'Change Password',
  mySessions: 'My sessions',
  logout: 'Logout',
  theme: 'Theme',
  systemTheme: 'System theme',
  lightTheme: 'Light theme',
  darkTheme: 'Dark theme',
  logoutTitle: 'Logout',
  logoutConfirm: MESSAGES.logoutConfirm,
  logoutCancel: MESSAGES.logoutCancel,
  logoutConfirmButton: MESSAGES.logoutConfirmButton,
  cancel: 'Cancel',
  networkCurrent: 'Current network: ',
  networkList: 'Networks',
  networkLoading: OWN_MESSAGES.networkLoading,
  networkNone: OWN_MESSAGES.networkNone,
  networkLaunch: 'Launch',
  networkCopyBrand: 'Copy brand from default',
  networkCopySettings: 'Copy settings from default',
  networkCopy: 'Copy',
  networkLaunchTitle: OWN_MESSAGES.networkLaunchTitle,
  networkCopyTitle: OWN_MESSAGES.networkCopyTitle,
  networkDefault: 'Default',
  networkLaunched: NETWORK_STATE_WORDS.launched,
  networkNotLaunched: NETWORK_STATE_WORDS.not_launched,
  networkLaunchConfirm: OWN_MESSAGES.networkLaunchConfirm,
  networkCopyConfirm: OWN_MESSAGES.networkCopyConfirm,
  networkCopyComparing: OWN_MESSAGES.networkCopyComparing,
  networkCopyChanges: OWN_MESSAGES.networkCopyChanges,
  networkCopyNoChanges: OWN_MESSAGES.networkCopyNoChanges,
  networkCopyCompareFailed: OWN_MESSAGES.networkCopyCompareFailed,
  networkChangesTable: 'What will change',
  networkChangeField: 'Field',
  networkChangeNow: 'Now',
  networkChangeAfter: 'After the copy',
  forbiddenTitle: 'No access',
  forbidden: OWN_MESSAGES.forbidden,
  forbiddenArea: OWN_MESSAGES.forbiddenArea,
  forbiddenNoRole: OWN_MESSAGES.forbiddenNoRole,
  forbiddenAskAdmin: OWN_MESSAGES.forbiddenAskAdmin,
  forbiddenGoTo: OWN_MESSAGES.forbiddenGoTo,
  forbiddenSignOut: OWN_MESSAGES.forbiddenSignOut,
  forbiddenSignedInAs: (username) => `Signed in as ${username}.`,
  inactivityTitle: 'Are you still there?',
  inactivityWarning: OWN_MESSAGES.inactivityWarning,
  staySignedIn: OWN_MESSAGES.staySignedIn,
  signingOutIn: (seconds) => `Signing out in ${seconds} s.`,
  otpTitle: MESSAGES.otpTitle,
  otpConfirm: MESSAGES.otpConfirm,
  otpVerifying: 'Verifying…',
  otpSending: 'Sending a code to your mobile phone…',
  otpInstruction: MESSAGES.otpInstruction,
  otpCodeLabel: 'Verification code',
  otpResend: MESSAGES.otpResend,
  otpResendSending: 'Sending…',
  otpResendIn: (seconds) => `Resend in ${seconds}s`,
  otpWrongNumber: MESSAGES.otpWrongNumber,
  otpRates: MESSAGES.otpRates,
  accountFallback: 'Account',
};

export const SHELL_TEXT: Record<Language, ShellText> = { en: EN };

/** The shell's texts in the chosen language. */
export function useShellText(): ShellText {
  return SHELL_TEXT[usePreferences().language];
}

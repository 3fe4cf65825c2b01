/**
 * Every user-facing message of the product spec, verbatim (spec §2, §5, §8), in one place: defined
 * here or in the per-area modules of common/messages/ that this file spreads in (each message is
 * written once). The sign-in page's first load imports only those modules (issue 39); any other
 * code may import from here.
 * Messages with a value are functions; the words around the value are the spec's.
 */
import { API_MESSAGES, API_OWN_MESSAGES } from './messages/api';
import { SHELL_OWN_MESSAGES } from './messages/shell';
import { SIGN_IN_MESSAGES, SIGN_IN_OWN_MESSAGES } from './messages/sign-in';

export { ACCOUNT_MESSAGES } from './messages/account';
export { IDP_ERROR_MESSAGES } from './messages/sign-in';

export const MESSAGES = {
  // §2.9, §2.10, §5, §8 identity provider: the sign-in page, its second factor, the password flows.
  ...SIGN_IN_MESSAGES,
  // §8: about a request itself.
  ...API_MESSAGES,

  // §8
  failedToFetchNetworks: 'Failed to fetch networks',
  siteNotFound: 'Site not found',
  networkNotFound: (id: string) => `Network with identifier ${id} not found`,
  failedToLaunch: (name: string) => `Failed to launch ${name}`,
  launched: (name: string) => `Successfully launched ${name}`,
  copied: (what: string, from: string, to: string) => `Successfully copied ${what} from ${from} to ${to}`,
  noNetworkSelected: 'No network selected',
  failedToGet: (what: string, network: string) => `${network}: Failed to get ${what} for ${network}`,
  isDefaultNetwork: (name: string) => `${name} is the default network.`,
} as const;

/**
 * Messages of our own (where the spec says "not shown"): kept here, or in the modules spread in, so a
 * reader finds all words from this one file.
 */
export const OWN_MESSAGES = {
  ...SIGN_IN_OWN_MESSAGES,
  ...API_OWN_MESSAGES,
  // The console shell (issue 20): the inactivity dialog, the network switcher, /forbidden, not found.
  ...SHELL_OWN_MESSAGES,
  // Networks (issue 6): the AppCMS pages' notes, withdraw and the last change.
  /** Issue 28: the default network's pages edit it like any other; what that means for the others. */
  networkDefaultEditing: (name: string) => `${name} is the default network: what you save here is what "Copy from default" copies to the other networks.`,
  networkDefaultData: (name: string) =>
    `${name} is the default network: its brand and settings are the source that "Copy from default" copies onto the other networks. Choose another network in the header to see its own data here.`,
  networkLoadingData: 'Loading…',
  networkAlreadyLaunched: (name: string) => `${name} is already launched.`,
  networkIsNotLaunched: (name: string) => `${name} is not launched.`,
  /** The withdraw dialog (issue 28): what withdrawing does, before the operator confirms. */
  networkWithdrawConfirm: (name: string) => `Withdraw ${name}? It stops being launched: its apps and site are no longer offered to viewers until it is launched again. Its brand, settings and devices are kept.`,
  networkWithdrawn: (name: string) => `${name} withdrawn.`,
  /** Issue 38: the last change, offered to undo beside the networks (its message goes after 3 seconds, spec §4.6). */
  networkLastChange: {
    launch: (name: string) => `${name} was launched.`,
    withdraw: (name: string) => `${name} was withdrawn.`,
    copy: (what: string, from: string, to: string) => `The ${what} of ${from} was copied to ${to}.`,
  },
  networkUndoLast: { launch: 'Undo launch', withdraw: 'Undo withdrawal', copy: 'Undo copy' },
  networkUndoingLast: 'Undoing…',
  networkUndoLastHint: 'You can undo it here for 10 minutes.',
  networkWithdraw: 'Withdraw',
  networkWithdrawTitle: 'Withdraw network',
  networkWithdrawFailed: (name: string) => `${name} could not be withdrawn.`,
  networkReadOnly: 'Your role in App CMS is read only: you cannot launch or copy.',
  // Content library (issue 13).
  contentLoadFailed: 'The content library could not be loaded.',
  contentEmpty: 'No content matches these filters.',
  contentNotFound: 'This content item does not exist on your site, or it was removed.',
  contentConflict: 'Someone else changed this item since you opened it. Reload to see their version; your unsaved changes will be discarded.',
  contentBulkConflict: 'Some of the selected items were changed by someone else since the list was loaded. The list has been reloaded; select them again.',
  contentSaved: 'Changes saved.',
  contentNoEditRole: 'Your role in Content is read only: you cannot change content.',
  contentScheduleNeedsDate: 'A scheduled item needs a date and time to go live.',
  contentScheduleOnlyWhenScheduled: 'Only a scheduled item has a go-live date.',
  contentScheduleInvalidDate: 'The go-live date is not a valid date and time.',
  contentBulkDone: (count: number, status: string) => `${count} ${count === 1 ? 'item' : 'items'} ${status}.`,
  fieldRequired: (field: string) => `${field} is required.`,
  editorLeaveConfirm: 'You have unsaved changes. Leave this page and discard them?',
  editorLoadFailed: 'This item could not be loaded.',
  editorSaveFailed: 'The changes could not be saved.',
  contentNoPlays: 'No plays in the last 30 days.',
  listLoadFailed: 'The list could not be loaded.',
  actionFailed: 'The action could not be completed.',
  // Player event ingestion (POST /v1/events, issue 12).
  ingestKeyMissing: 'The x-ingestion-key header is required.',
  ingestKeyInvalid: 'The ingestion key is not valid.',
  ingestBatchRefused: (refused: number, total: number) => `${refused} of ${total} ${total === 1 ? 'event' : 'events'} ${refused === 1 ? 'was' : 'were'} refused; nothing of this batch was written.`,
  ingestRateLimited: 'Too many event batches for this site. Please wait a moment and send again.',
  ingestEventDateTime: (field: string) => `${field} must be an ISO 8601 date-time with Z or an offset within ±14:00 (e.g. 2026-11-26T10:07:07Z).`,
  ingestKeyFailuresLimited: 'Too many wrong ingestion keys from this address. Please wait a moment and send again with a valid key.',
  ingestBusy: 'The events could not be saved right now. Please send this batch again in a moment.',
} as const;

/** The Admin area (issue 18): staff accounts, roles, sessions, the site's second-factor rule, the audit log. */
export const ADMIN_MESSAGES = {
  noEditRole: 'Your role in Admin is read only: you can see staff and the audit log but not change them.',
  lastAdmin: 'A site needs at least one enabled account with Admin write or contributor: this change would remove the last one.',
  cannotDisableSelf: 'You cannot disable your own account. Ask another admin to do it.',
  staffNotFound: 'This staff account does not exist on your site.',
  usernameTaken: 'An account with this e-mail already exists.',
  conflict: 'Someone else changed this account since you opened it. Reload to see the current values.',
  /** Whether the link also went by SMS is said beside the link (linkSentBySms / linkNotSent; issue 38). */
  created: (name: string) => `Account created for ${name}. Give them the set-password link below.`,
  updated: (name: string) => `Changes to ${name} saved. Any open session of theirs has ended.`,
  updatedNoSessions: (name: string) => `Changes to ${name} saved.`,
  disabled: (name: string) => `${name} is disabled and signed out everywhere.`,
  enabled: (name: string) => `${name} is enabled again.`,
  sessionsEnded: (name: string, count: number) => `${count} ${count === 1 ? 'session' : 'sessions'} of ${name} ended.`,
  sessionEnded: 'Session ended.',
  passwordLinkIssued: (name: string) => `A new set-password link for ${name} was sent by SMS. It is shown below once.`,
  passwordLinkIssuedNoSms: (name: string) => `A new set-password link for ${name} is shown below once.`,
  noSmsSecondFactor: (name: string) => `${name} does not sign in with a code sent by SMS: there is no second factor to reset.`,
  secondFactorReset: (name: string) => `Second factor of ${name} reset: codes now go to the new number, and their sessions ended.`,
  setPasswordSms: (url: string) => `CMS Tools: set your password at ${url} (valid 24 hours, single use).`,
  setPasswordInvalid: 'This set-password link is not valid: it was already used, has expired, or was replaced by a newer one. Ask your admin for a new link.',
  setPasswordDone: 'Your password is set. Sign in with your username and the new password.',
  listFailed: 'The staff list could not be loaded.',
  auditFailed: 'The audit log could not be loaded.',
  sessionsFailed: 'The sessions could not be loaded.',
  loadFailed: 'This account could not be loaded.',
  saveFailed: 'The changes could not be saved.',
  noStaff: 'No staff account matches this search.',
  noAudit: 'No audit entry matches these filters.',
  noSessions: 'No active sessions.',
  invalidDateRange: 'The "from" date must be on or before the "to" date.',
  leaveConfirm: 'You have unsaved changes. Close the form and discard them?',
  emailRequired: 'E-mail is required.',
  emailInvalid: 'Enter a valid e-mail address.',
  displayNameRequired: 'Display name is required.',
  phoneInvalid: 'Enter a mobile number with 7 to 20 digits, optionally starting with +.',
  /** Issue 30: the mobile number is needed only where the SMS second factor applies. */
  phoneRequiredForSms: 'A mobile number is required: this account signs in with a code sent by SMS.',
  phoneHintRequired: 'Required: this account signs in with a code sent by SMS (its own two-factor setting or the site\'s rule).',
  phoneHintOptional: 'Optional: needed only when the account signs in with a code sent by SMS.',
  linkSentBySms: 'It was also sent by SMS.',
  linkNotSent: 'The account has no mobile number: hand it over yourself.',
  copyLink: 'Copy link',
  linkCopied: 'Link copied.',
  linkCopyFailed: 'Could not copy: select the link and copy it.',
  /** Issue 25: an Admin editor grants roles only up to its own, area by area. */
  grantAboveOwn: (areas: readonly string[]) => `You can only give roles up to your own: you may not change ${areas.join(', ')} on this account. Nothing was changed.`,
  grantLocked: 'Areas you do not hold at this level are locked: they stay as they are.',
  targetAboveOwn: (areas: readonly string[]) => `This account holds roles above yours (${areas.join(', ')}): only someone who holds them can change it, reset its password or second factor, or end its sessions. Nothing was changed.`,
} as const;

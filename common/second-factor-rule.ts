/**
 * The site's second-factor rule (issue 30): ONE setting of the Admin area with three values, like a
 * mature product's "2-step verification enforcement". It replaced two controls that could contradict
 * each other (the toolbar's "Require 2FA for everyone" and the "authenticator app for everyone" switch):
 *
 * - `optional`: each account's own setting decides (its SMS code on or off, its authenticator app if
 *   it set one up).
 * - `required`: every account signs in with a second factor, a code by SMS or its authenticator app.
 *   Choosing it switches the SMS code on for every account that had it off; an account's SMS code
 *   cannot be switched off while it holds, and every account (new ones too) needs a mobile number.
 * - `authenticator`: every account signs in with an authenticator app; an account without one is sent
 *   to set it up right after its password and can do nothing else until it has (SECURITY.md C-TOTP-4).
 *
 * Stored as one column (`sites.second_factor_rule`, migration 0026); written by
 * `PUT ${API_PATHS.admin}${SECOND_FACTOR_RULE_PATH}` (Admin write or contributor) with one revision
 * (kind `siteSecurity`) and one audit row (`site.second_factor_rule`) in the same transaction.
 * Every word the browser, the machines and the server say about it is here.
 */
import type { FromSchema } from './json-schema';
import { isOneOf } from './one-of';

export const SECOND_FACTOR_RULES = ['optional', 'required', 'authenticator'] as const;
export type SecondFactorRule = (typeof SECOND_FACTOR_RULES)[number];

export function isSecondFactorRule(value: unknown): value is SecondFactorRule {
  return isOneOf(SECOND_FACTOR_RULES, value);
}

/** Under the `/v3.0/user/admin` prefix (API_PATHS.admin). */
export const SECOND_FACTOR_RULE_PATH = '/site/second-factor';

/** The audit action of a change of the rule (listed in common/audit-actions.ts). */
export const SECOND_FACTOR_AUDIT_ACTION = 'site.second_factor_rule';

/** The SMS code applies to an account: its own setting, or the site's `required` rule (the mobile number rule). */
export function smsCodeApplies(ownSetting: boolean, rule: SecondFactorRule): boolean {
  return ownSetting || rule === 'required';
}

/** The rule asks every account for an authenticator app. */
export function authenticatorRequired(rule: SecondFactorRule): boolean {
  return rule === 'authenticator';
}

/**
 * The two booleans the rule replaced, read as the rule (migration 0026 converts the same way): the
 * authenticator rule is the stricter one, so a site that had both keeps it (its accounts keep the SMS
 * code that the other rule switched on).
 */
export function ruleOfFlags(requireTwoFactor: boolean, requireAuthenticator: boolean): SecondFactorRule {
  if (requireAuthenticator) return 'authenticator';
  return requireTwoFactor ? 'required' : 'optional';
}

/** The site's accounts as the confirmation counts them (every account of the staff list, disabled ones too). */
export interface SecondFactorCounts {
  /** Every account of the site. */
  accounts: number;
  /** Accounts whose SMS code is on. */
  withSms: number;
  /** Accounts with an authenticator app set up. */
  withAuthenticator: number;
  /**
   * Accounts with neither a mobile number nor an authenticator app: under `required` they cannot get a
   * second factor, so they cannot sign in until one is added (the confirmation names them).
   */
  withNeither: number;
}

/** The rule and the counts: in the staff list's answer and in the answer of a change. */
export interface SecondFactorState extends SecondFactorCounts {
  rule: SecondFactorRule;
  /**
   * The caller has an authenticator app set up. Without one the caller may not choose `authenticator`
   * (like GitHub's "enable 2FA on your own account first"): the rule would lock them out at once.
   */
  ownAuthenticator: boolean;
}

export const SECOND_FACTOR_TEXT = {
  legend: 'Second factor at sign-in',
  help: 'One rule for every account of this site.',
  options: {
    optional: { label: 'Not required', hint: 'Each account\'s own setting decides.' },
    required: { label: 'Required — a code by SMS or an authenticator app', hint: 'Every account signs in with a second factor; each needs a mobile number.' },
    authenticator: { label: 'Required — an authenticator app', hint: 'Accounts without an app set it up right after signing in, and can do nothing else until they have.' },
  },
  /** What a reader (Admin read) sees: the rule, no control. */
  current: (rule: SecondFactorRule) => `Second factor at sign-in: ${SECOND_FACTOR_TEXT.options[rule].label}.`,
  confirmTitle: 'Change the second-factor rule',
  confirmButton: 'Change the rule',
  /** The staff form's note on the SMS code while the rule requires it. */
  smsLocked: 'The site requires a second factor: the SMS code stays on for every account.',
  /** Why `authenticator` is not offered to an editor without an app (the server refuses it too). */
  enrolFirst: 'Set up an authenticator app on your own account first: this rule would otherwise lock you out at once.',
  enrolLink: 'Set up your authenticator app',
} as const;

function accounts(n: number): string {
  return `${n} ${n === 1 ? 'account' : 'accounts'}`;
}

/** "the 5 accounts that have", "the 1 account that has". */
function theAccountsThatHave(n: number): string {
  return `the ${accounts(n)} that ${n === 1 ? 'has' : 'have'}`;
}

function everyOne(n: number): string {
  return n === 1 ? 'The one account' : `Every one of the ${n} accounts`;
}

/**
 * What a change will do, said before it is made (the confirmation): who will need what at next sign-in.
 * The counts are those of the staff list's last answer.
 */
export function secondFactorEffect(from: SecondFactorRule, to: SecondFactorRule, counts: SecondFactorCounts): string {
  const n = counts.accounts;
  const parts: string[] = [];
  if (to === 'required') {
    parts.push(`${everyOne(n)} will need a second factor at next sign-in: a code by SMS, or their authenticator app if they have set one up.`);
    const off = Math.max(0, n - counts.withSms);
    parts.push(off === 0 ? 'Every account already has the SMS code on.' : `The SMS code will be switched on for ${theAccountsThatHave(off)} it off.`);
    parts.push('Every account, new ones too, needs a mobile number.');
    if (counts.withNeither > 0) {
      parts.push(`${counts.withNeither === 1 ? 'The 1 account that has' : `The ${counts.withNeither} accounts that have`} neither a mobile number nor an authenticator app will not be able to sign in until one is added.`);
    }
    if (from === 'authenticator') parts.push('Nobody will have to set up an authenticator app any more.');
  } else if (to === 'authenticator') {
    parts.push(`${everyOne(n)} will need an authenticator app at next sign-in.`);
    const without = Math.max(0, n - counts.withAuthenticator);
    parts.push(without === 0
      ? 'Every account already has one set up.'
      : `The ${accounts(without)} without one will have to set it up right after signing in, and can do nothing else until they have.`);
  } else {
    parts.push('Each account\'s own setting will decide again.');
    parts.push(`The SMS code stays on for ${theAccountsThatHave(counts.withSms)} it on; you can switch it off per account.`);
    if (from === 'authenticator') parts.push('Nobody will have to set up an authenticator app any more.');
  }
  return parts.join(' ');
}

/** The server's answer to a change. */
export const SECOND_FACTOR_DONE: Readonly<Record<SecondFactorRule, string>> = {
  optional: 'The second factor is now each account\'s own setting.',
  required: 'Every account now signs in with a second factor: a code by SMS or an authenticator app.',
  authenticator: 'Every account now signs in with an authenticator app.',
};

export const SECOND_FACTOR_RULE_SCHEMA = {
  type: 'object',
  required: ['rule'],
  additionalProperties: false,
  properties: { rule: { type: 'string', enum: SECOND_FACTOR_RULES } },
} as const;

export type SetSecondFactorRuleRequest = FromSchema<typeof SECOND_FACTOR_RULE_SCHEMA>;

export interface SetSecondFactorRuleResponse {
  success: true;
  message: string;
  secondFactor: SecondFactorState;
}

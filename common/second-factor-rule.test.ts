import { describe, expect, it } from 'vitest';
import {
  authenticatorRequired, isSecondFactorRule, ruleOfFlags, SECOND_FACTOR_DONE, SECOND_FACTOR_RULE_PATH, SECOND_FACTOR_RULES, SECOND_FACTOR_TEXT,
  secondFactorEffect, smsCodeApplies,
} from './second-factor-rule';

const COUNTS = { accounts: 7, withSms: 2, withAuthenticator: 1, withNeither: 0 };

describe('the site second-factor rule (issue 30)', () => {
  it('reads the two former booleans as one rule, the authenticator winning (migration 0026 does the same)', () => {
    expect(ruleOfFlags(false, false)).toBe('optional');
    expect(ruleOfFlags(true, false)).toBe('required');
    expect(ruleOfFlags(false, true)).toBe('authenticator');
    expect(ruleOfFlags(true, true)).toBe('authenticator');
  });

  it('asks a mobile number only where the SMS code applies: the account chose it, or the rule is `required`', () => {
    expect(SECOND_FACTOR_RULES.map((rule) => [smsCodeApplies(false, rule), smsCodeApplies(true, rule)])).toEqual([[false, true], [true, true], [false, true]]);
    expect(SECOND_FACTOR_RULES.map(authenticatorRequired)).toEqual([false, false, true]);
    expect(SECOND_FACTOR_RULES.every(isSecondFactorRule)).toBe(true);
    expect(isSecondFactorRule('always')).toBe(false);
  });

  it('says what each change will do, with the counts', () => {
    expect(secondFactorEffect('optional', 'required', COUNTS)).toBe(
      'Every one of the 7 accounts will need a second factor at next sign-in: a code by SMS, or their authenticator app if they have set one up. '
      + 'The SMS code will be switched on for the 5 accounts that have it off. Every account, new ones too, needs a mobile number.');
    expect(secondFactorEffect('authenticator', 'required', { ...COUNTS, withSms: 7 })).toBe(
      'Every one of the 7 accounts will need a second factor at next sign-in: a code by SMS, or their authenticator app if they have set one up. '
      + 'Every account already has the SMS code on. Every account, new ones too, needs a mobile number. Nobody will have to set up an authenticator app any more.');
    expect(secondFactorEffect('optional', 'authenticator', COUNTS)).toBe(
      'Every one of the 7 accounts will need an authenticator app at next sign-in. '
      + 'The 6 accounts without one will have to set it up right after signing in, and can do nothing else until they have.');
    expect(secondFactorEffect('required', 'authenticator', { accounts: 1, withSms: 1, withAuthenticator: 1, withNeither: 0 })).toBe(
      'The one account will need an authenticator app at next sign-in. Every account already has one set up.');
    expect(secondFactorEffect('authenticator', 'optional', { accounts: 3, withSms: 1, withAuthenticator: 3, withNeither: 0 })).toBe(
      'Each account\'s own setting will decide again. The SMS code stays on for the 1 account that has it on; you can switch it off per account. '
      + 'Nobody will have to set up an authenticator app any more.');
  });

  it("names, before 'required', the accounts it would lock out: neither a mobile number nor an authenticator app", () => {
    const tail = ' Every account, new ones too, needs a mobile number.';
    expect(secondFactorEffect('optional', 'required', { ...COUNTS, withNeither: 1 })).toContain(
      `${tail} The 1 account that has neither a mobile number nor an authenticator app will not be able to sign in until one is added.`);
    expect(secondFactorEffect('optional', 'required', { ...COUNTS, withNeither: 3 })).toMatch(
      / needs a mobile number\. The 3 accounts that have neither a mobile number nor an authenticator app will not be able to sign in until one is added\.$/);
    expect(secondFactorEffect('optional', 'authenticator', { ...COUNTS, withNeither: 3 })).not.toContain('neither');
    expect(secondFactorEffect('required', 'optional', { ...COUNTS, withNeither: 3 })).not.toContain('neither');
  });

  it('says a move back to optional drops the app only when leaving the authenticator rule', () => {
    expect(secondFactorEffect('required', 'optional', COUNTS)).not.toContain('authenticator app any more');
    expect(secondFactorEffect('authenticator', 'optional', COUNTS)).toContain('Nobody will have to set up an authenticator app any more.');
  });

  it('answers a change with the rule now in force, under one route', () => {
    expect(SECOND_FACTOR_RULE_PATH).toBe('/site/second-factor');
    expect(SECOND_FACTOR_DONE).toEqual({
      optional: 'The second factor is now each account\'s own setting.',
      required: 'Every account now signs in with a second factor: a code by SMS or an authenticator app.',
      authenticator: 'Every account now signs in with an authenticator app.',
    });
  });

  it('names the rule in force in words for a reader', () => {
    expect(SECOND_FACTOR_TEXT.current('required')).toBe('Second factor at sign-in: Required — a code by SMS or an authenticator app.');
  });
});

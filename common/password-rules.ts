/**
 * Password rules of spec §5: at least 8 characters with a lowercase letter, an uppercase letter,
 * a digit and a special character. Shared by the reset form (live hints) and the server.
 */
import { MIN_PASSWORD_LENGTH } from './constants';
import { keysOf } from './one-of';

export type PasswordRule = 'length' | 'lowercase' | 'uppercase' | 'digit' | 'special';

export const PASSWORD_RULE_LABELS: Readonly<Record<PasswordRule, string>> = {
  length: `At least ${MIN_PASSWORD_LENGTH} characters`,
  lowercase: 'One lowercase letter',
  uppercase: 'One uppercase letter',
  digit: 'One number',
  special: 'One special character',
};

const RULE_TESTS: Readonly<Record<PasswordRule, (password: string) => boolean>> = {
  length: (p) => p.length >= MIN_PASSWORD_LENGTH,
  lowercase: (p) => /[a-z]/.test(p),
  uppercase: (p) => /[A-Z]/.test(p),
  digit: (p) => /[0-9]/.test(p),
  special: (p) => /[^A-Za-z0-9]/.test(p),
};

/** The rules a password still misses, in display order. */
export function passwordRuleFailures(password: string): PasswordRule[] {
  return keysOf(RULE_TESTS).filter((rule) => !RULE_TESTS[rule](password));
}

export function isPasswordComplex(password: string): boolean {
  return passwordRuleFailures(password).length === 0;
}

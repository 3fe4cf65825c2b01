import { describe, expect, it } from 'vitest';
import { isPasswordComplex, passwordRuleFailures } from './password-rules';

describe('password rules (spec §5)', () => {
  it('accepts 8+ characters with lower, upper, digit and special', () => {
    expect(isPasswordComplex('Demo!Pass123')).toBe(true);
  });
  it.each([
    ['Ab1!', ['length']],
    ['ABCDEFG1!', ['lowercase']],
    ['abcdefg1!', ['uppercase']],
    ['Abcdefgh!', ['digit']],
    ['Abcdefgh1', ['special']],
    ['', ['length', 'lowercase', 'uppercase', 'digit', 'special']],
  ])('%s misses %j', (password, missing) => {
    expect(passwordRuleFailures(password)).toEqual(missing);
    expect(isPasswordComplex(password)).toBe(false);
  });
});

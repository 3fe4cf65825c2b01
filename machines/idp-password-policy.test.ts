import { describe, expect, it } from 'vitest';
import { checkIdpPassword, IDP_DEFAULT_MIN_PASSWORD_LENGTH, idpPasswordPolicy } from './idp-password-policy';

describe('identity-provider password policy (spec §5)', () => {
  it('defaults to a minimum of 6 characters and nothing else', () => {
    expect(IDP_DEFAULT_MIN_PASSWORD_LENGTH).toBe(6);
    expect(idpPasswordPolicy()).toEqual({ minPasswordLength: 6 });
    expect(checkIdpPassword('abcde')).toEqual({ isValid: false, unmet: ['minLength'] });
    expect(checkIdpPassword('abcdef')).toEqual({ isValid: true, unmet: [] });
  });

  it("reads Firebase's customStrengthOptions, or a flat policy", () => {
    const policy = idpPasswordPolicy({
      customStrengthOptions: {
        minPasswordLength: 8, maxPasswordLength: 12, containsLowercaseLetter: true, containsUppercaseLetter: true,
        containsNumericCharacter: true, containsNonAlphanumericCharacter: true,
      },
    });
    expect(policy).toEqual({
      minPasswordLength: 8, maxPasswordLength: 12, containsLowercaseLetter: true, containsUppercaseLetter: true,
      containsNumericCharacter: true, containsNonAlphanumericCharacter: true,
    });
    expect(idpPasswordPolicy({ minPasswordLength: 10 })).toEqual({ minPasswordLength: 10 });
  });

  it('ignores malformed values rather than getting stricter', () => {
    expect(idpPasswordPolicy({ minPasswordLength: -1, maxPasswordLength: 3, containsLowercaseLetter: 'yes' })).toEqual({ minPasswordLength: 6 });
    expect(idpPasswordPolicy(null)).toEqual({ minPasswordLength: 6 });
    expect(idpPasswordPolicy('x')).toEqual({ minPasswordLength: 6 });
  });

  it('checks each optional requirement only when the server asks for it', () => {
    const policy = idpPasswordPolicy({
      minPasswordLength: 6, maxPasswordLength: 10, containsLowercaseLetter: true, containsUppercaseLetter: true,
      containsNumericCharacter: true, containsNonAlphanumericCharacter: true,
    });
    expect(checkIdpPassword('Abc12!', policy)).toEqual({ isValid: true, unmet: [] });
    expect(checkIdpPassword('ABC12!', policy).unmet).toEqual(['lowercase']);
    expect(checkIdpPassword('abc12!', policy).unmet).toEqual(['uppercase']);
    expect(checkIdpPassword('Abcde!', policy).unmet).toEqual(['numeric']);
    expect(checkIdpPassword('Abc123', policy).unmet).toEqual(['nonAlphanumeric']);
    expect(checkIdpPassword('Abc12!Abc12!', policy).unmet).toEqual(['maxLength']);
    expect(checkIdpPassword('', policy).unmet).toEqual(['minLength', 'lowercase', 'uppercase', 'numeric', 'nonAlphanumeric']);
    expect(checkIdpPassword('abcdefghijklmnop').isValid).toBe(true);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkIdpPassword('😀😀😀😀😀').unmet).toEqual(['minLength']);
    expect(checkIdpPassword('😀😀😀😀😀😀').isValid).toBe(true);
  });
});

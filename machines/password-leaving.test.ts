import { describe, expect, it } from 'vitest';
import { codeTyped, passwordGuardsLeaving, passwordTyped } from './password-leaving';

const EMPTY = { draft: { newPassword: '', confirmPassword: '' }, currentPassword: '' };

describe('password form leaving (issue 38)', () => {
  it('counts any one typed field, the current password included', () => {
    expect(passwordTyped(EMPTY)).toBe(false);
    expect(passwordTyped({ ...EMPTY, draft: { newPassword: 'a', confirmPassword: '' } })).toBe(true);
    expect(passwordTyped({ ...EMPTY, draft: { newPassword: '', confirmPassword: 'a' } })).toBe(true);
    expect(passwordTyped({ ...EMPTY, currentPassword: 'a' })).toBe(true);
  });

  it('asks only while the new-password form is open (any of its steps) with something typed', () => {
    const typed = { ...EMPTY, currentPassword: 'a' };
    expect(passwordGuardsLeaving({ value: 'newPassword', context: typed })).toBe(true);
    expect(passwordGuardsLeaving({ value: { newPassword: 'editing' }, context: typed })).toBe(true);
    expect(passwordGuardsLeaving({ value: { newPassword: 'editing' }, context: EMPTY })).toBe(false);
    expect(passwordGuardsLeaving({ value: 'idle', context: typed })).toBe(false);
    expect(passwordGuardsLeaving({ value: { code: 'entering' }, context: typed })).toBe(false);
    expect(passwordGuardsLeaving({ value: null, context: typed })).toBe(false);
  });

  it('counts any digit of a code typed (the Verify OTP modal asks before closing)', () => {
    expect(codeTyped('')).toBe(false);
    expect(codeTyped('1')).toBe(true);
    expect(codeTyped('123456')).toBe(true);
  });
});

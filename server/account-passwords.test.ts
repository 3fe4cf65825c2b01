/**
 * Issue 19, stronger than the anchors: the 10,000 most common passwords are refused (ASVS 6.2.4) on
 * reset, on the header's change and on an admin's set-password link; the list ships as a file.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { StaffChangeResponse } from '../common/admin-contract';
import type { VerifyOtpResponse } from '../common/contract';
import { ACCOUNT_MESSAGES, MESSAGES } from '../common/messages';
import { COMMON_PASSWORDS_FILE, isCommonPassword, loadCommonPasswords, newPasswordProblem } from './domain/passwords';
import { createTestApp, type Session, type TestApp, type TestUser } from './test/kit';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.login('admin@demo.test');
});
afterAll(async () => {
  await t?.close();
});

describe('the common-password list', () => {
  it('ships exactly 10,000 distinct lowercase passwords, most common first, with its source and licence', () => {
    const text = readFileSync(COMMON_PASSWORDS_FILE, 'utf8');
    expect(text).toMatch(/^# .*@zxcvbn-ts\/language-common 4\.1\.3/m);
    expect(text).toMatch(/^# Licence: MIT/m);
    const list = loadCommonPasswords();
    expect(list.size).toBe(10_000);
    expect([...list].slice(0, 3)).toEqual(['123456', 'password', '12345678']);
    expect([...list].every((p) => p === p.toLowerCase() && p.trim() === p && p !== '')).toBe(true);
  });

  it('refuses listed passwords ignoring case, and listed words decorated only with digits and symbols', () => {
    for (const common of ['P@ssw0rd', 'PASSW0RD', 'Password1!', 'Dragon2024!', '!!Monkey123', '123Qwerty!', 'Sasha_007']) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    for (const fine of ['Fresh!Pass123', 'Demo!Pass123', 'Abcdef1!', 'Tr0ub4dor&3x', 'Nina!Pass2026']) {
      expect(isCommonPassword(fine), fine).toBe(false);
    }
  });

  it('complexity is reported first, then the blocklist', () => {
    expect(newPasswordProblem('password')).toBe(MESSAGES.passwordComplexity);
    expect(newPasswordProblem('Password1!')).toBe(ACCOUNT_MESSAGES.passwordCommon);
    expect(newPasswordProblem('Fresh!Pass123')).toBeNull();
  });
});

async function forgotResetToken(user: TestUser): Promise<string> {
  expect((await t.post(API_PATHS.forgotPassword, { username: user.username })).statusCode).toBe(200);
  const code = await t.latestCode(user.phoneNumber);
  const verified = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: false });
  expect(verified.statusCode).toBe(200);
  return verified.json<VerifyOtpResponse>().accessToken;
}

describe('a common password is refused wherever a password is set', () => {
  it('forgot-password reset: 400 with the message, the token survives and a good password then works', async () => {
    const user = await t.createUser({ prefix: 'common-reset' });
    const token = await forgotResetToken(user);
    const refused = await t.post(API_PATHS.resetPassword, { token, newPassword: 'Password1!', confirmPassword: 'Password1!' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, message: ACCOUNT_MESSAGES.passwordCommon });
    await t.login(user.username, user.password);
    const ok = await t.post(API_PATHS.resetPassword, { token, newPassword: 'Fresh!Pass123', confirmPassword: 'Fresh!Pass123' });
    expect(ok.statusCode).toBe(200);
    await t.login(user.username, 'Fresh!Pass123');
  });

  it("an admin's set-password link: 400 naming the field, the link still works afterwards", async () => {
    const email = `common-${randomUUID().slice(0, 8)}@test.local`;
    const created = await t.inject({
      method: 'POST', url: `${API_PATHS.admin}/staff`, headers: admin.headers,
      payload: { email, displayName: 'Common Test', phoneNumber: `+1555${String(Date.now()).slice(-7)}`, twoFactorOnLogin: false, roles: { Content: 'read' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = new URL(created.json<StaffChangeResponse>().link!.url).searchParams.get('token');
    const refused = await t.post(`${API_PATHS.admin}/set-password`, { token, newPassword: 'Qwerty123!', confirmPassword: 'Qwerty123!' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(ACCOUNT_MESSAGES.passwordCommon);
    const ok = await t.post(`${API_PATHS.admin}/set-password`, { token, newPassword: 'Fresh!Pass123', confirmPassword: 'Fresh!Pass123' });
    expect(ok.statusCode).toBe(200);
  });
});

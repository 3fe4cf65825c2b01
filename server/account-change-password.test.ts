/**
 * Issue 19, stronger than the anchors: the header's Change Password asks for the current password
 * as well as the SMS code (ASVS 6.2.3). The forgot-password reset does not (the user has forgotten it).
 * Wrong current passwords count toward the account's reset-password limit.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { VerifyOtpResponse } from '../common/contract';
import { ACCOUNT_MESSAGES } from '../common/messages';
import { auditEvents, resetTokens } from './db/schema';
import { hashResetToken } from './domain/auth-flows';
import { createTestApp, RELAXED_RATE_LIMITS, type Session, type TestApp, type TestUser } from './test/kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    demo: true,
    config: {
      rateLimits: { ...RELAXED_RATE_LIMITS, resetPassword: { perUsername: { limit: 3, windowSeconds: 900 }, perIp: { limit: 1_000_000, windowSeconds: 900 } } },
    },
  });
});
afterAll(async () => {
  await t?.close();
});

/** The signed-in change flow up to the reset token: a code to the signed-in user, verified with the session. */
async function changeToken(s: Session, user: TestUser): Promise<string> {
  expect((await t.post(API_PATHS.generateOtp, { isLogin: false }, s.headers)).statusCode).toBe(200);
  const code = await t.latestCode(user.phoneNumber);
  const verified = await t.post(API_PATHS.verifyOtp, { otp: code, isLogin: false }, s.headers);
  expect(verified.statusCode).toBe(200);
  return verified.json<VerifyOtpResponse>().accessToken;
}

const reset = (token: string, body: Record<string, string>) =>
  t.post(API_PATHS.resetPassword, { newPassword: 'Changed!Pw77', confirmPassword: 'Changed!Pw77', ...body }, { authorization: `Bearer ${token}` });

describe('change password needs the current password', () => {
  it('missing or wrong current password is refused with its message and audited; the right one changes the password', async () => {
    const user = await t.createUser({ prefix: 'chg-current' });
    const s = await t.login(user.username, user.password);
    const token = await changeToken(s, user);

    const missing = await reset(token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, message: ACCOUNT_MESSAGES.currentPasswordRequired });

    const wrong = await reset(token, { currentPassword: 'Not!ThePass1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ success: false, message: ACCOUNT_MESSAGES.currentPasswordWrong });
    const audited = await t.db.select().from(auditEvents)
      .where(and(eq(auditEvents.action, 'password.change_refused'), eq(auditEvents.actorUserId, user.id)));
    expect(audited).toHaveLength(1);
    expect(audited[0]?.detail).toMatchObject({ reason: 'current-password' });
    // Nothing changed: the session lives and the old password still signs in.
    expect((await t.get(API_PATHS.verify, s.headers)).statusCode).toBe(200);

    const ok = await reset(token, { currentPassword: user.password });
    expect(ok.statusCode).toBe(200);
    expect((await t.get(API_PATHS.verify, s.headers)).statusCode).toBe(401);
    await t.login(user.username, 'Changed!Pw77');
  });

  it('the forgot-password reset needs no current password', async () => {
    const user = await t.createUser({ prefix: 'chg-forgot' });
    expect((await t.post(API_PATHS.forgotPassword, { username: user.username })).statusCode).toBe(200);
    const code = await t.latestCode(user.phoneNumber);
    const verified = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: false });
    const res = await reset(verified.json<VerifyOtpResponse>().accessToken, {});
    expect(res.statusCode).toBe(200);
  });

  it('wrong current passwords count per account across tokens: past the limit even the right one gets 429', async () => {
    const user = await t.createUser({ prefix: 'chg-limit' });
    const s = await t.login(user.username, user.password);
    const first = await changeToken(s, user);
    expect((await reset(first, { currentPassword: 'Guess!One111' })).statusCode).toBe(400);
    expect((await reset(first, { currentPassword: 'Guess!Two222' })).statusCode).toBe(400);
    // A second change token (a new code would wait out the 30 s resend cooldown): as verify/otp stores one.
    const second = randomBytes(32).toString('base64url');
    await t.db.insert(resetTokens).values({ userId: user.id, purpose: 'change', tokenHash: hashResetToken(second), expiresAt: new Date(Date.now() + 600_000) });
    expect((await reset(second, { currentPassword: 'Guess!Three3' })).statusCode).toBe(400);
    const limited = await reset(second, { currentPassword: user.password });
    expect(limited.statusCode).toBe(429);
    expect((await t.get(API_PATHS.verify, s.headers)).statusCode).toBe(200);
  });
});

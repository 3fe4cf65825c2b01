import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../common/constants';
import type { LoginResponse, VerifyOtpResponse } from '../../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../../common/messages';
import { otpCodes, resetTokens, staffUsers } from '../db/schema';
import { createTestApp, outboxHeaders, type TestApp, type TestUser } from '../test/kit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
});
afterAll(async () => {
  await t?.close();
});

/** Signs in a 2FA user up to the OTP step; returns the code from the outbox. */
async function startTwoFactor(user: TestUser, deviceId = randomUUID()) {
  const res = await t.post(API_PATHS.login, { username: user.username, password: user.password, deviceId });
  expect(res.statusCode).toBe(200);
  const body = res.json<LoginResponse>();
  expect(body).toMatchObject({ success: true, isTwoFactorOnLogin: true, username: user.username, accessToken: '' });
  expect(body.obscureMobileNumber).toBe(`******${user.phoneNumber.slice(-4)}`);
  const code = await t.latestCode(user.phoneNumber);
  expect(code).toMatch(/^\d{6}$/);
  expect(body.loginAttemptToken).toMatch(/^\d+\.[\w-]{43}$/);
  return { code: code!, deviceId, proof: body.loginAttemptToken! };
}

const verify = (user: TestUser, otp: string, deviceId: string, isLogin = true) =>
  t.post(API_PATHS.verifyOtp, { username: user.username, otp, isLogin, deviceId });

/** A different 6-digit code. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('two-factor login', () => {
  it('the demo 2FA account gets a masked number and an SMS', async () => {
    const res = await t.post(API_PATHS.login, { username: 'twofa@demo.test', password: t.config.seedPassword, deviceId: 'dev-1' });
    expect(res.json()).toMatchObject({ success: true, isTwoFactorOnLogin: true, obscureMobileNumber: '******4321', accessToken: '' });
    const sms = await t.latestSms('+15555554321');
    expect(sms?.body).toMatch(/^Your CMS Tools verification code is \d{6}\. It expires in 5 minutes\.$/);
  });

  it('the right code signs in; the code is single use', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa' });
    const { code, deviceId } = await startTwoFactor(user);
    const ok = await verify(user, code, deviceId);
    expect(ok.statusCode).toBe(200);
    const body = ok.json<VerifyOtpResponse>();
    expect(body.success).toBe(true);
    const session = await t.sessionFor(body.accessToken);
    expect((await t.get(API_PATHS.verify, session.headers)).json()).toEqual({ valid: true });
    expect(session.profile.otpDetails).toEqual({ isTwoFactorOnLogin: true, obscureMobileNumber: `******${user.phoneNumber.slice(-4)}` });

    const again = await verify(user, code, deviceId);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ success: false, message: MESSAGES.otpVerifyFailed, accessToken: '' });
  });

  it('five wrong codes kill the code: the right one is refused afterwards', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-dead' });
    const { code, deviceId } = await startTwoFactor(user);
    for (let i = 0; i < 5; i++) {
      const res = await verify(user, wrongCode(code), deviceId);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.otpVerifyFailed);
    }
    const late = await verify(user, code, deviceId);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(MESSAGES.otpVerifyFailed);
  });

  it('the code is bound to the device of the login attempt', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-dev' });
    const { code, deviceId } = await startTwoFactor(user);
    expect((await verify(user, code, 'another-device')).statusCode).toBe(400);
    expect((await verify(user, code, deviceId)).statusCode).toBe(200);
  });

  it('an expired code is refused', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-exp' });
    const { code, deviceId } = await startTwoFactor(user);
    await t.db.update(otpCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(otpCodes.userId, user.id));
    const res = await verify(user, code, deviceId);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.otpVerifyFailed);
  });

  it('resend within 30 s is refused with retryAfterSeconds; after it a new code replaces the old', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-resend' });
    const { code: first, deviceId, proof } = await startTwoFactor(user);
    const early = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, loginAttemptToken: proof });
    expect(early.statusCode).toBe(429);
    expect(early.json()).toMatchObject({ success: false, message: MESSAGES.otpNotSent });
    expect(early.json().retryAfterSeconds).toBeGreaterThan(0);
    expect(early.json().retryAfterSeconds).toBeLessThanOrEqual(30);

    // Pretend the cooldown has passed.
    const { rateLimits } = await import('../db/schema');
    await t.db.update(rateLimits).set({ windowStart: new Date(Date.now() - 31_000) }).where(eq(rateLimits.key, `otp-cooldown:login:${user.username}`));
    const resent = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, loginAttemptToken: proof });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ success: true, message: MESSAGES.otpSent });
    const second = await t.latestCode(user.phoneNumber);
    expect((await verify(user, first, deviceId)).statusCode).toBe(first === second ? 200 : 400);
    if (first !== second) expect((await verify(user, second!, deviceId)).statusCode).toBe(200);
  });

  it('a second sign-in within the cooldown reuses a live code for the same device, else sends a new one', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-again' });
    const { deviceId } = await startTwoFactor(user);
    const smsCount = async () => (await t.get(`${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`, outboxHeaders(t.config))).json<unknown[]>().length;
    // Same device, code still live: no second SMS.
    await t.post(API_PATHS.login, { username: user.username, password: user.password, deviceId });
    expect(await smsCount()).toBe(1);
    // Another device within the cooldown: the first code is bound elsewhere, so a new one goes out for this device.
    const other = await startTwoFactor(user, randomUUID());
    expect(await smsCount()).toBe(2);
    expect((await verify(user, other.code, other.deviceId)).statusCode).toBe(200);
    // Signing in again at once after the code was used: a fresh code, not a dead end.
    const again = await startTwoFactor(user, other.deviceId);
    expect(await smsCount()).toBe(3);
    expect((await verify(user, again.code, other.deviceId)).statusCode).toBe(200);
  });

  it('an anonymous login resend needs the proof handed out by the login answer (C-OTP-3)', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-proof' });
    const { deviceId, proof } = await startTwoFactor(user);
    const { rateLimits } = await import('../db/schema');
    const pastCooldown = () => t.db.update(rateLimits).set({ windowStart: new Date(Date.now() - 31_000) }).where(eq(rateLimits.key, `otp-cooldown:login:${user.username}`));
    await pastCooldown();
    const noAttempt = await t.post(API_PATHS.generateOtp, { username: `ghost-${randomUUID()}@x.test`, isLogin: true });
    const [expires, mac] = proof.split('.');
    const forged = [
      undefined,
      '',
      `${Number(expires) + 60}.${mac}`,
      `${expires}.${'A'.repeat(43)}`,
      // A proof of this account for another device (another login attempt) does not fit the pending one.
      (t.app.services.otp.loginProof({ userId: user.id, deviceId: `${deviceId}-other` })),
    ];
    for (const loginAttemptToken of forged) {
      const res = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, ...(loginAttemptToken === undefined ? {} : { loginAttemptToken }) });
      expect(res.statusCode, String(loginAttemptToken)).toBe(400);
      expect(res.body).toBe(noAttempt.body);
    }
    expect((await t.get(`${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`, outboxHeaders(t.config))).json<unknown[]>()).toHaveLength(1);
    const expired = t.app.services.otp.loginProof({ userId: user.id, deviceId, now: new Date(Date.now() - 11 * 60_000) });
    expect((await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, loginAttemptToken: expired })).statusCode).toBe(400);
    const ok = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, loginAttemptToken: proof });
    expect(ok.statusCode).toBe(200);
    expect((await t.get(`${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`, outboxHeaders(t.config))).json<unknown[]>()).toHaveLength(2);
  });

  it('a login resend needs a password-verified attempt first', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-noattempt' });
    const res = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: MESSAGES.otpNotSent });
    expect(await t.latestSms(user.phoneNumber)).toBeUndefined();
    const unknown = await t.post(API_PATHS.generateOtp, { username: `ghost-${randomUUID()}@x.test`, isLogin: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toBe(res.body);
  });

  it('a wrong password never sends a code', async () => {
    const user = await t.createUser({ twoFactorOnLogin: true, prefix: '2fa-wrongpw' });
    const res = await t.post(API_PATHS.login, { username: user.username, password: 'Nope!Nope123' });
    expect(res.statusCode).toBe(400);
    expect(await t.latestSms(user.phoneNumber)).toBeUndefined();
  });
});

describe('forgot and reset password', () => {
  /** Runs forgot-password + OTP verify for a user and returns the reset token. */
  async function resetTokenFor(user: TestUser): Promise<string> {
    const res = await t.post(API_PATHS.forgotPassword, { username: user.username });
    expect(res.statusCode).toBe(200);
    const code = await t.latestCode(user.phoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: false });
    expect(verified.statusCode).toBe(200);
    const token = verified.json<VerifyOtpResponse>().accessToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return token;
  }

  it('known and unknown usernames get the identical status and body', async () => {
    const user = await t.createUser({ prefix: 'forgot' });
    const known = await t.post(API_PATHS.forgotPassword, { username: user.username });
    const unknown = await t.post(API_PATHS.forgotPassword, { username: `ghost-${randomUUID()}@demo.test` });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ success: true, message: OWN_MESSAGES.forgotPasswordAccepted, errorMessage: '' });
    expect(await t.latestSms(user.phoneNumber)).toBeDefined();
    // Within the cooldown: still the same answer, and no second SMS.
    const before = await t.latestSms(user.phoneNumber);
    const again = await t.post(API_PATHS.forgotPassword, { username: user.username });
    expect(again.body).toBe(known.body);
    expect((await t.latestSms(user.phoneNumber))?.id).toBe(before?.id);
  });

  it('generate/otp without a session answers the same for known and unknown users', async () => {
    const user = await t.createUser({ prefix: 'forgot-gen' });
    const known = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: false });
    const unknown = await t.post(API_PATHS.generateOtp, { username: `ghost-${randomUUID()}@demo.test`, isLogin: false });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ success: true, message: MESSAGES.otpSent });
    const knownAgain = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: false });
    const unknownAgain = await t.post(API_PATHS.generateOtp, { username: `ghost-${randomUUID()}@demo.test`, isLogin: false });
    expect(knownAgain.statusCode).toBe(429);
    expect(knownAgain.json().message).toBe(MESSAGES.otpNotSent);
    expect(unknownAgain.statusCode).toBe(200); // a different unknown name has no cooldown yet
  });

  it('verify with an unknown user fails like a wrong code', async () => {
    const res = await t.post(API_PATHS.verifyOtp, { username: `ghost-${randomUUID()}@demo.test`, otp: '123456', isLogin: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.otpVerifyFailed);
  });

  it('reset succeeds, revokes every session, and only the new password works', async () => {
    const user = await t.createUser({ prefix: 'reset-ok' });
    const s1 = await t.login(user.username, user.password);
    const s2 = await t.login(user.username, user.password);
    const token = await resetTokenFor(user);
    const newPassword = 'Brand!New456';
    const res = await t.post(API_PATHS.resetPassword, { newPassword, confirmPassword: newPassword, token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: OWN_MESSAGES.passwordResetSuccess });
    expect((await t.get(API_PATHS.verify, s1.headers)).statusCode).toBe(401);
    expect((await t.get(API_PATHS.verify, s2.headers)).statusCode).toBe(401);
    const old = await t.post(API_PATHS.login, { username: user.username, password: user.password });
    expect(old.statusCode).toBe(400);
    await t.login(user.username, newPassword);
    const [row] = await t.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
    expect(row!.passwordHash.startsWith('$argon2id$')).toBe(true);
  });

  it('a used token fails and changes nothing', async () => {
    const user = await t.createUser({ prefix: 'reset-used' });
    const token = await resetTokenFor(user);
    expect((await t.post(API_PATHS.resetPassword, { newPassword: 'First!Change1', confirmPassword: 'First!Change1', token })).statusCode).toBe(200);
    const [before] = await t.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
    const reuse = await t.post(API_PATHS.resetPassword, { newPassword: 'Second!Change2', confirmPassword: 'Second!Change2', token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ success: false, message: MESSAGES.passwordResetFailed });
    const [after] = await t.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    await t.login(user.username, 'First!Change1');
  });

  it('an expired token fails and changes nothing; sessions stay', async () => {
    const user = await t.createUser({ prefix: 'reset-exp' });
    const s = await t.login(user.username, user.password);
    const token = await resetTokenFor(user);
    await t.db.update(resetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(resetTokens.userId, user.id));
    const res = await t.post(API_PATHS.resetPassword, { newPassword: 'Never!Set123', confirmPassword: 'Never!Set123', token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MESSAGES.passwordResetFailed);
    await t.login(user.username, user.password);
    expect((await t.get(API_PATHS.verify, s.headers)).statusCode).toBe(200);
  });

  it('mismatch, complexity, same password and a bogus token are refused with the spec messages', async () => {
    const user = await t.createUser({ prefix: 'reset-rules' });
    const token = await resetTokenFor(user);
    const mismatch = await t.post(API_PATHS.resetPassword, { newPassword: 'Abcdef1!x', confirmPassword: 'Abcdef1!y', token });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe('New Password and Confirm Password must match.');
    const weak = await t.post(API_PATHS.resetPassword, { newPassword: 'abcdefgh', confirmPassword: 'abcdefgh', token });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(MESSAGES.passwordComplexity);
    const same = await t.post(API_PATHS.resetPassword, { newPassword: user.password, confirmPassword: user.password, token });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(OWN_MESSAGES.passwordMustDiffer);
    const bogus = await t.post(API_PATHS.resetPassword, { newPassword: 'Valid!Pass99', confirmPassword: 'Valid!Pass99', token: 'x'.repeat(43) });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().message).toBe(MESSAGES.passwordResetFailed);
    const none = await t.post(API_PATHS.resetPassword, { newPassword: 'Valid!Pass99', confirmPassword: 'Valid!Pass99' });
    expect(none.json().message).toBe(MESSAGES.passwordResetFailed);
    // The token survived the refusals and still works, via the Authorization header this time.
    const ok = await t.post(API_PATHS.resetPassword, { newPassword: 'Valid!Pass99', confirmPassword: 'Valid!Pass99' }, { authorization: token, xapikey: 'ignored' });
    expect(ok.statusCode).toBe(200);
  });

  it('header "Change Password" flow: signed-in user gets a code, verifies it, resets with the token in Authorization', async () => {
    const user = await t.createUser({ prefix: 'change' });
    const s = await t.login(user.username, user.password);
    const sent = await t.post(API_PATHS.generateOtp, { isLogin: false }, s.headers);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ success: true, message: MESSAGES.otpSent });
    const code = await t.latestCode(user.phoneNumber);
    const verified = await t.post(API_PATHS.verifyOtp, { otp: code, isLogin: false }, s.headers);
    expect(verified.statusCode).toBe(200);
    const resetToken = verified.json<VerifyOtpResponse>().accessToken;
    const res = await t.post(API_PATHS.resetPassword, { newPassword: 'Changed!Pw77', confirmPassword: 'Changed!Pw77', currentPassword: user.password }, { authorization: `Bearer ${resetToken}`, xapikey: s.apiKey });
    expect(res.statusCode).toBe(200);
    expect((await t.get(API_PATHS.verify, s.headers)).statusCode).toBe(401);
    await t.login(user.username, 'Changed!Pw77');
  });

  it('a change-password code request with a bad session is 401', async () => {
    const res = await t.post(API_PATHS.generateOtp, { isLogin: false }, { authorization: 'Bearer nope', xapikey: 'nope' });
    expect(res.statusCode).toBe(401);
  });

  it('a password code does not sign anybody in and a login code does not reset passwords', async () => {
    const user = await t.createUser({ prefix: 'purpose' });
    await t.post(API_PATHS.forgotPassword, { username: user.username });
    const code = await t.latestCode(user.phoneNumber);
    const asLogin = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: true });
    expect(asLogin.statusCode).toBe(400);
    const rows = await t.db.select().from(otpCodes).where(and(eq(otpCodes.userId, user.id), eq(otpCodes.purpose, 'password')));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).not.toContain(code!);
  });
});

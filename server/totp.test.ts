/**
 * Issue 19, stronger than the anchors: the authenticator-app second factor (TOTP, RFC 6238) beside
 * the SMS code (ASVS 6.6.1; SECURITY.md C-TOTP-1..4). RFC vectors, enrolment, login with the app's
 * code or a recovery code, replay, disable, regeneration, the site requirement, roles, limits, audit.
 *
 * Time: only Date is faked (vi.setSystemTime), so each step of a test can move to the next 30-second
 * window; PGlite and Fastify keep their real timers.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffListResponse } from '../common/admin-contract';
import { API_PATHS } from '../common/constants';
import type { LoginResponse, SiteProfile, VerifyOtpResponse } from '../common/contract';
import { ACCOUNT_MESSAGES, ADMIN_MESSAGES, MESSAGES, OWN_MESSAGES } from '../common/messages';
import { SECOND_FACTOR_AUDIT_ACTION, SECOND_FACTOR_DONE, SECOND_FACTOR_RULE_PATH, SECOND_FACTOR_TEXT } from '../common/second-factor-rule';
import {
  RECOVERY_CODE_COUNT, TOTP_AUDIT_ACTIONS, TOTP_MESSAGES, TOTP_PATHS,
  type TotpRecoveryCodesResponse, type TotpStartResponse, type TotpStatusResponse,
} from '../common/totp';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, sites, totpFactors, totpRecoveryCodes } from './db/schema';
import { DEFAULT_RATE_LIMITS } from './domain/rate-limit';
import {
  base32Decode, base32Encode, decryptSecret, encryptSecret, hotp, matchTotp, otpauthUri, totpCode, totpStep,
} from './domain/totp';
import { createTestApp, type Session, type TestApp, type TestUser } from './test/kit';

const T = TOTP_PATHS.account;
let t: TestApp;
let clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({ demo: true });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  // The start of a 30-second step, so "this step" and "the next" are unambiguous.
  clock = (totpStep(new Date()) + 1) * 30_000 + 1_000;
  vi.setSystemTime(clock);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves Date to the next 30-second step: a new code. */
function nextStep(): void {
  clock += 30_000;
  vi.setSystemTime(clock);
}

const now = () => new Date(clock);

async function enrol(session: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await t.post(`${T}/start`, {}, session.headers);
  expect(started.statusCode).toBe(200);
  const { secret } = started.json<TotpStartResponse>();
  const confirmed = await t.post(`${T}/confirm`, { code: totpCode(secret, now()) }, session.headers);
  expect(confirmed.statusCode).toBe(200);
  nextStep();
  return { secret, recoveryCodes: confirmed.json<TotpRecoveryCodesResponse>().recoveryCodes };
}

async function passwordStep(user: TestUser, deviceId: string): Promise<LoginResponse> {
  const res = await t.post(API_PATHS.login, { username: user.username, password: user.password, deviceId });
  expect(res.statusCode).toBe(200);
  return res.json<LoginResponse>();
}

function verify(user: TestUser, otp: string, deviceId: string, loginAttemptToken?: string) {
  return t.post(API_PATHS.verifyOtp, { username: user.username, otp, isLogin: true, deviceId, ...(loginAttemptToken ? { loginAttemptToken } : {}) });
}

/** A user's audit entries of one action, oldest first (insertion order: without ORDER BY PostgreSQL may answer any order). */
async function auditOf(userId: string, action: string) {
  return t.db.select().from(auditEvents).where(and(eq(auditEvents.action, action), eq(auditEvents.actorUserId, userId))).orderBy(asc(auditEvents.seq));
}

async function siteOfItsOwn(prefix: string): Promise<string> {
  const base = await t.siteByName(DEMO_SITES.northwind);
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  const { id: _id, ...rest } = base;
  void _id;
  await t.db.insert(sites).values({ ...rest, siteInternalName: name, managementApiKey: randomUUID(), secondFactorRule: 'optional' });
  return name;
}

describe('RFC 4226 / RFC 6238 test vectors', () => {
  const rfcKey = Buffer.from('12345678901234567890');

  it('HOTP gives the RFC 4226 appendix D values for counters 0-9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(rfcKey, counter))).toEqual(expected);
  });

  it('TOTP gives the RFC 6238 appendix B values (SHA-1, 8 digits) and SHA-256/512 with their keys', () => {
    const sha256Key = Buffer.from('12345678901234567890123456789012');
    const sha512Key = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');
    const rows: [number, string, string, string][] = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ];
    for (const [seconds, sha1, sha256, sha512] of rows) {
      const step = totpStep(new Date(seconds * 1000));
      expect(hotp(rfcKey, step, 8, 'sha1')).toBe(sha1);
      expect(hotp(sha256Key, step, 8, 'sha256')).toBe(sha256);
      expect(hotp(sha512Key, step, 8, 'sha512')).toBe(sha512);
    }
  });

  it('base32 round-trips (RFC 4648 vectors) and the 6-digit code is the vector\'s last six digits', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    const secret = base32Encode(rfcKey);
    expect(totpCode(secret, new Date(59_000))).toBe('287082');
    expect(totpCode(secret, new Date(1111111109_000))).toBe('081804');
  });

  it('accepts the step before and after, not two away, and never a step at or before the last used one', () => {
    const secret = base32Encode(rfcKey);
    const at = new Date(1234567890_000);
    const step = totpStep(at);
    expect(matchTotp(secret, hotp(rfcKey, step), at, null)).toBe(step);
    expect(matchTotp(secret, hotp(rfcKey, step - 1), at, null)).toBe(step - 1);
    expect(matchTotp(secret, hotp(rfcKey, step + 1), at, null)).toBe(step + 1);
    expect(matchTotp(secret, hotp(rfcKey, step + 2), at, null)).toBeNull();
    expect(matchTotp(secret, hotp(rfcKey, step - 2), at, null)).toBeNull();
    expect(matchTotp(secret, hotp(rfcKey, step), at, step)).toBeNull();
    expect(matchTotp(secret, hotp(rfcKey, step + 1), at, step)).toBe(step + 1);
    expect(matchTotp(secret, 'abcdef', at, null)).toBeNull();
  });

  it('encrypts the secret with AES-256-GCM bound to the user: another user or a changed byte reads nothing', () => {
    const key = Buffer.alloc(32, 7);
    const stored = encryptSecret(key, 'user-a', 'JBSWY3DPEHPK3PXP');
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(key, 'user-a', stored)).toBe('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(key, 'user-b', stored)).toBeNull();
    expect(decryptSecret(Buffer.alloc(32, 8), 'user-a', stored)).toBeNull();
    const [v, iv, tag, body] = stored.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(decryptSecret(key, 'user-a', [v, iv, tag, flipped.toString('base64url')].join('.'))).toBeNull();
  });

  it('builds the otpauth:// URI authenticator apps read', () => {
    expect(otpauthUri('JBSWY3DPEHPK3PXP', 'ada@example.com')).toBe(
      'otpauth://totp/CMS%20Tools%3Aada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=CMS+Tools&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('enrolment', () => {
  it('start answers a 32-character base32 secret and its otpauth URI; the secret is stored encrypted and pending; audited', async () => {
    const user = await t.createUser({ prefix: 'totp-start' });
    const session = await t.login(user.username, user.password);
    const res = await t.post(`${T}/start`, {}, session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<TotpStartResponse>();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUri).toBe(otpauthUri(body.secret, user.username));
    const [row] = await t.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row?.confirmedAt).toBeNull();
    expect(row?.secretEncrypted).not.toContain(body.secret);
    expect((await t.get(T, session.headers)).json<TotpStatusResponse>()).toMatchObject({ enabled: false, pending: true, recoveryCodesLeft: 0 });
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.enrolmentStarted)).toHaveLength(1);
  });

  it('confirm with a wrong code is 400 and audited; with the current code answers 10 recovery codes once, stored as hashes', async () => {
    const user = await t.createUser({ prefix: 'totp-confirm' });
    const session = await t.login(user.username, user.password);
    const { secret } = (await t.post(`${T}/start`, {}, session.headers)).json<TotpStartResponse>();
    const right = totpCode(secret, now());
    const wrong = right === '000000' ? '111111' : '000000';
    const bad = await t.post(`${T}/confirm`, { code: wrong }, session.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: TOTP_MESSAGES.codeWrong });
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.confirmFailed)).toHaveLength(1);
    const format = await t.post(`${T}/confirm`, { code: '12ab' }, session.headers);
    expect(format.statusCode).toBe(400);
    expect(format.json()).toEqual({ success: false, message: TOTP_MESSAGES.codeFormat });

    const ok = await t.post(`${T}/confirm`, { code: right }, session.headers);
    expect(ok.statusCode).toBe(200);
    const { recoveryCodes, message } = ok.json<TotpRecoveryCodesResponse>();
    expect(message).toBe(TOTP_MESSAGES.enrolled);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.db.select().from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const row of stored) expect(recoveryCodes.join()).not.toContain(row.codeHash.slice(0, 10));
    expect((await t.get(T, session.headers)).json<TotpStatusResponse>()).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.enrolled)).toHaveLength(1);

    // Confirmed: a second confirm or start is refused (disable first).
    nextStep();
    const again = await t.post(`${T}/start`, {}, session.headers);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: TOTP_MESSAGES.alreadyEnrolled });
  });

  it('needs a session: 401 without one', async () => {
    expect((await t.post(`${T}/start`, {})).statusCode).toBe(401);
    expect((await t.get(T)).statusCode).toBe(401);
  });
});

describe('sign-in with the authenticator app', () => {
  it('the login answer asks for the app\'s code (secondFactor totp) and sends no SMS, even for an SMS account', async () => {
    const user = await t.createUser({ prefix: 'totp-login', twoFactorOnLogin: true });
    // The SMS account signs in once with its SMS code (the spec's flow), enrols, then the SMS step is gone.
    const deviceId = randomUUID();
    const first = await passwordStep(user, deviceId);
    expect(first).toMatchObject({ isTwoFactorOnLogin: true, message: OWN_MESSAGES.otpRequired });
    expect(first.secondFactor).toBeUndefined();
    const smsCode = await t.latestCode(user.phoneNumber);
    const signedIn = (await verify(user, smsCode!, deviceId)).json<VerifyOtpResponse>();
    const session = await t.sessionFor(signedIn.accessToken);
    const { secret } = await enrol(session);
    const smsBefore = await t.latestSms(user.phoneNumber);

    const answer = await passwordStep(user, deviceId);
    expect(answer).toMatchObject({
      success: true, isTwoFactorOnLogin: true, secondFactor: 'totp', accessToken: '', obscureMobileNumber: '', message: TOTP_MESSAGES.loginCodeRequired,
    });
    expect(answer.loginAttemptToken).toMatch(/^\d+\./);
    expect((await t.latestSms(user.phoneNumber))?.id).toBe(smsBefore?.id);
    // A resend of an SMS code is refused: there is none to resend.
    const resend = await t.post(API_PATHS.generateOtp, { username: user.username, isLogin: true, loginAttemptToken: answer.loginAttemptToken });
    expect(resend.statusCode).toBe(400);

    const res = await verify(user, totpCode(secret, now()), deviceId, answer.loginAttemptToken);
    expect(res.statusCode).toBe(200);
    const body = res.json<VerifyOtpResponse>();
    expect(body).toMatchObject({ success: true, message: OWN_MESSAGES.otpVerified });
    expect((await t.sessionFor(body.accessToken)).profile.username).toBe(user.username);
    const success = await auditOf(user.id, 'login.success');
    expect(success.at(-1)?.detail).toMatchObject({ secondFactor: true, factor: 'totp' });
  });

  it('refuses a code that was already used (replay), a code without the password step\'s proof, and one from another device', async () => {
    const user = await t.createUser({ prefix: 'totp-replay' });
    const session = await t.login(user.username, user.password);
    const { secret } = await enrol(session);
    const deviceId = randomUUID();
    const answer = await passwordStep(user, deviceId);
    const code = totpCode(secret, now());

    // The code alone (no proof that the password was given) signs nobody in.
    const noProof = await verify(user, code, deviceId);
    expect(noProof.statusCode).toBe(400);
    expect(noProof.json()).toMatchObject({ success: false, message: MESSAGES.otpVerifyFailed, accessToken: '' });
    const otherDevice = await verify(user, code, randomUUID(), answer.loginAttemptToken);
    expect(otherDevice.statusCode).toBe(400);

    expect((await verify(user, code, deviceId, answer.loginAttemptToken)).statusCode).toBe(200);
    const replay = await verify(user, code, deviceId, (await passwordStep(user, deviceId)).loginAttemptToken);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ success: false, message: MESSAGES.otpVerifyFailed });
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.loginCodeFailed)).toHaveLength(1);
    // The next step's code works.
    nextStep();
    expect((await verify(user, totpCode(secret, now()), deviceId, (await passwordStep(user, deviceId)).loginAttemptToken)).statusCode).toBe(200);
  });

  it('a recovery code signs in once, is used up, and is audited; the count goes down', async () => {
    const user = await t.createUser({ prefix: 'totp-recovery' });
    const session = await t.login(user.username, user.password);
    const { recoveryCodes } = await enrol(session);
    const deviceId = randomUUID();
    const answer = await passwordStep(user, deviceId);
    const res = await verify(user, `  ${recoveryCodes[3]!.toUpperCase()} `, deviceId, answer.loginAttemptToken);
    expect(res.statusCode).toBe(200);
    expect(res.json<VerifyOtpResponse>().accessToken).not.toBe('');
    const used = await auditOf(user.id, TOTP_AUDIT_ACTIONS.recoveryUsed);
    expect(used).toHaveLength(1);
    expect(used[0]?.detail).toMatchObject({ recoveryLeft: 9 });
    expect((await auditOf(user.id, 'login.success')).at(-1)?.detail).toMatchObject({ factor: 'recovery' });

    const again = await verify(user, recoveryCodes[3]!, deviceId, (await passwordStep(user, deviceId)).loginAttemptToken);
    expect(again.statusCode).toBe(400);
    expect((await t.get(T, session.headers)).json<TotpStatusResponse>().recoveryCodesLeft).toBe(9);
  });

  it('wrong codes count against the same login throttle and failure cap as the SMS code', async () => {
    const capped = await createTestApp({ demo: true, config: { loginThrottle: { pair: { freeAttempts: 1_000, baseSeconds: 1, maxSeconds: 1 }, accountFailureCap: 3 } } });
    try {
      const user = await capped.createUser({ prefix: 'totp-cap' });
      const session = await capped.login(user.username, user.password);
      const started = (await capped.post(`${T}/start`, {}, session.headers)).json<TotpStartResponse>();
      expect((await capped.post(`${T}/confirm`, { code: totpCode(started.secret, now()) }, session.headers)).statusCode).toBe(200);
      nextStep();
      // From an address and device that never signed in to the account (a known one passes the cap, C-LOCK-2).
      const deviceId = randomUUID();
      const from = (url: string, payload: Record<string, unknown>) => capped.inject({ method: 'POST', url, payload, remoteAddress: '203.0.113.9' });
      const login = await from(API_PATHS.login, { username: user.username, password: user.password, deviceId });
      const proof = login.json<LoginResponse>().loginAttemptToken;
      const right = totpCode(started.secret, now());
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 3; i += 1) {
        expect((await from(API_PATHS.verifyOtp, { username: user.username, otp: wrong, isLogin: true, deviceId, loginAttemptToken: proof })).statusCode).toBe(400);
      }
      // At the cap even the right code is refused, as for the SMS code.
      const refused = await from(API_PATHS.verifyOtp, { username: user.username, otp: right, isLogin: true, deviceId, loginAttemptToken: proof });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ success: false, message: MESSAGES.otpVerifyFailed });
      const capAudit = await capped.db.select().from(auditEvents)
        .where(and(eq(auditEvents.action, 'account.failure_cap_reached'), eq(auditEvents.actorUserId, user.id)));
      expect(capAudit[0]?.detail).toMatchObject({ via: 'login-code' });
    } finally {
      await capped.close();
    }
  });
});

describe('disable and regenerate', () => {
  it('disable needs the current password and a current code (or a recovery code); then sign-in is back to the password only', async () => {
    const user = await t.createUser({ prefix: 'totp-disable' });
    const session = await t.login(user.username, user.password);
    const { secret, recoveryCodes } = await enrol(session);

    const noPassword = await t.post(`${T}/disable`, { password: 'Wrong!Pass123', code: totpCode(secret, now()) }, session.headers);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({ success: false, message: ACCOUNT_MESSAGES.currentPasswordWrong });
    const noCode = await t.post(`${T}/disable`, { password: user.password, code: '000000' === totpCode(secret, now()) ? '111111' : '000000' }, session.headers);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toEqual({ success: false, message: TOTP_MESSAGES.disableNeedsCode });
    const bad = await t.post(`${T}/disable`, { password: user.password }, session.headers);
    expect(bad.statusCode).toBe(400);
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.disableRefused)).toHaveLength(2);

    const ok = await t.post(`${T}/disable`, { password: user.password, code: recoveryCodes[0] }, session.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: TOTP_MESSAGES.disabled });
    expect(await t.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id))).toHaveLength(0);
    expect(await t.db.select().from(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, user.id))).toHaveLength(0);
    expect((await auditOf(user.id, TOTP_AUDIT_ACTIONS.disabled))[0]?.detail).toMatchObject({ via: 'recovery' });
    const answer = await passwordStep(user, randomUUID());
    expect(answer.isTwoFactorOnLogin).toBe(false);
    expect(answer.accessToken).not.toBe('');
  });

  it('regenerate needs an authenticator code (not a recovery code); the old recovery codes stop working', async () => {
    const user = await t.createUser({ prefix: 'totp-regen' });
    const session = await t.login(user.username, user.password);
    const { secret, recoveryCodes } = await enrol(session);
    const withRecovery = await t.post(`${T}/recovery-codes`, { code: recoveryCodes[0] }, session.headers);
    expect(withRecovery.statusCode).toBe(400);
    expect(withRecovery.json()).toEqual({ success: false, message: TOTP_MESSAGES.codeFormat });

    const res = await t.post(`${T}/recovery-codes`, { code: totpCode(secret, now()) }, session.headers);
    expect(res.statusCode).toBe(200);
    const fresh = res.json<TotpRecoveryCodesResponse>();
    expect(fresh.message).toBe(TOTP_MESSAGES.recoveryRegenerated);
    expect(fresh.recoveryCodes).toHaveLength(10);
    expect(fresh.recoveryCodes).not.toContain(recoveryCodes[0]);
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.recoveryRegenerated)).toHaveLength(1);
    // The same code again is a replay.
    const replay = await t.post(`${T}/recovery-codes`, { code: totpCode(secret, now()) }, session.headers);
    expect(replay.statusCode).toBe(400);
    expect(await auditOf(user.id, TOTP_AUDIT_ACTIONS.recoveryRefused)).toHaveLength(1);

    const deviceId = randomUUID();
    const old = await verify(user, recoveryCodes[1]!, deviceId, (await passwordStep(user, deviceId)).loginAttemptToken);
    expect(old.statusCode).toBe(400);
    const renewed = await verify(user, fresh.recoveryCodes[1]!, deviceId, (await passwordStep(user, deviceId)).loginAttemptToken);
    expect(renewed.statusCode).toBe(200);
  });
});

describe('the site requirement', () => {
  it("the site's rule 'authenticator' (issue 30, one rule with the SMS one): an Admin editor sets it (audited); Admin read sees it but is refused; no Admin role is refused", async () => {
    const siteName = await siteOfItsOwn('totp-admin');
    const editor = await t.createUser({ site: siteName, roles: { Admin: 'write' }, prefix: 'totp-admin-w' });
    const reader = await t.createUser({ site: siteName, roles: { Admin: 'read' }, prefix: 'totp-admin-r' });
    const outsider = await t.createUser({ site: siteName, roles: { Content: 'write' }, prefix: 'totp-admin-x' });
    const editorSession = await t.login(editor.username, editor.password);
    const readerSession = await t.login(reader.username, reader.password);
    const outsiderSession = await t.login(outsider.username, outsider.password);
    const P = `${API_PATHS.admin}${SECOND_FACTOR_RULE_PATH}`;

    expect((await t.get(`${API_PATHS.admin}/staff`, readerSession.headers)).json<StaffListResponse>()).toMatchObject({
      canEdit: false, secondFactor: { rule: 'optional', accounts: 3, withSms: 0, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false },
    });
    const readerPut = await t.inject({ method: 'PUT', url: P, payload: { rule: 'authenticator' }, headers: readerSession.headers });
    expect(readerPut.statusCode).toBe(403);
    expect(readerPut.json()).toEqual({ success: false, message: ADMIN_MESSAGES.noEditRole });
    expect((await t.inject({ method: 'PUT', url: P, payload: { rule: 'authenticator' }, headers: outsiderSession.headers })).statusCode).toBe(403);
    const badBody = await t.inject({ method: 'PUT', url: P, payload: { rule: 'yes' }, headers: editorSession.headers });
    expect(badBody.statusCode).toBe(400);
    expect((await t.siteByName(siteName)).secondFactorRule).toBe('optional');

    // The editor's own app first: without one the rule would lock them out at once.
    const early = await t.inject({ method: 'PUT', url: P, payload: { rule: 'authenticator' }, headers: editorSession.headers });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(SECOND_FACTOR_TEXT.enrolFirst);
    await enrol(editorSession);

    const on = await t.inject({ method: 'PUT', url: P, payload: { rule: 'authenticator' }, headers: editorSession.headers });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({
      success: true, message: SECOND_FACTOR_DONE.authenticator,
      secondFactor: { rule: 'authenticator', accounts: 3, withSms: 0, withAuthenticator: 1, withNeither: 0, ownAuthenticator: true },
    });
    expect((await t.siteByName(siteName)).secondFactorRule).toBe('authenticator');
    const audit = await auditOf(editor.id, SECOND_FACTOR_AUDIT_ACTION);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({ before: { secondFactorRule: 'optional' }, after: { secondFactorRule: 'authenticator' }, accountsSwitchedOn: 0 });
    // Admin read has no app: its session (opened before the change) is refused from the Admin area until enrolled.
    const blocked = await t.get(`${API_PATHS.admin}/staff`, readerSession.headers);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ success: false, message: TOTP_MESSAGES.enrolmentRequired });
    const off = await t.inject({ method: 'PUT', url: P, payload: { rule: 'optional' }, headers: editorSession.headers });
    expect(off.json()).toMatchObject({ success: true, message: SECOND_FACTOR_DONE.optional, secondFactor: { rule: 'optional', withAuthenticator: 1, withNeither: 0 } });
    expect(await auditOf(editor.id, SECOND_FACTOR_AUDIT_ACTION)).toHaveLength(2);
  });

  it('a user without the app is signed in but refused area APIs (403) until enrolled; enrolment, profile, session check and logout answer', async () => {
    const siteName = await siteOfItsOwn('totp-req');
    await t.db.update(sites).set({ secondFactorRule: 'authenticator' }).where(eq(sites.siteInternalName, siteName));
    const user = await t.createUser({ site: siteName, roles: { Admin: 'write', Content: 'write' }, prefix: 'totp-req' });
    const answer = await passwordStep(user, randomUUID());
    expect(answer).toMatchObject({ success: true, isTwoFactorOnLogin: false, authenticatorEnrolmentDue: true });
    const session = await t.sessionFor(answer.accessToken);
    expect(session.profile.authenticatorEnrolmentDue).toBe(true);

    const area = await t.get(`${API_PATHS.admin}/staff`, session.headers);
    expect(area.statusCode).toBe(403);
    expect(area.json()).toEqual({ success: false, message: TOTP_MESSAGES.enrolmentRequired });
    const sessions = await t.get(API_PATHS.accountSessions, session.headers);
    expect(sessions.statusCode).toBe(403);
    expect((await t.get(API_PATHS.verify, session.headers)).json()).toEqual({ valid: true });
    expect((await t.get(API_PATHS.verifySite, session.headers)).statusCode).toBe(200);
    expect((await t.get(T, session.headers)).json<TotpStatusResponse>()).toMatchObject({ enabled: false, required: true });

    await enrol(session);
    expect((await t.get(`${API_PATHS.admin}/staff`, session.headers)).statusCode).toBe(200);
    const profile = (await t.get(API_PATHS.loginInfo, { authorization: `Bearer ${session.token}` })).json<SiteProfile>();
    expect(profile.authenticatorEnrolmentDue).toBeUndefined();
    const out = await t.post(API_PATHS.logout, {}, session.headers);
    expect(out.statusCode).toBe(200);
  });

  it('with the SMS code too: the verify answer says enrolment is due; logout answers during it', async () => {
    const siteName = await siteOfItsOwn('totp-req-sms');
    await t.db.update(sites).set({ secondFactorRule: 'authenticator' }).where(eq(sites.siteInternalName, siteName));
    const user = await t.createUser({ site: siteName, twoFactorOnLogin: true, prefix: 'totp-req-sms' });
    const deviceId = randomUUID();
    await passwordStep(user, deviceId);
    const res = await verify(user, (await t.latestCode(user.phoneNumber))!, deviceId);
    const body = res.json<VerifyOtpResponse>();
    expect(body).toMatchObject({ success: true, authenticatorEnrolmentDue: true });
    const session = await t.sessionFor(body.accessToken);
    expect((await t.post(API_PATHS.logout, {}, session.headers)).statusCode).toBe(200);
  });
});

describe('limits', () => {
  it('the account code endpoints are rate-limited like the code endpoints: 429 with Retry-After, never 500', async () => {
    // The per-account limits as shipped; the per-address ones out of the way, because on PostgreSQL every
    // test file shares the database and so the counters of 127.0.0.1 (this test failed there by order).
    const perAccountOnly = Object.fromEntries(Object.entries(DEFAULT_RATE_LIMITS).map(([action, rule]) =>
      [action, { ...rule, perIp: { limit: 1_000_000, windowSeconds: rule.perIp.windowSeconds } }])) as typeof DEFAULT_RATE_LIMITS;
    const limited = await createTestApp({ demo: true, config: { rateLimits: perAccountOnly } });
    try {
      const user = await limited.createUser({ prefix: 'totp-rate' });
      const session = await limited.login(user.username, user.password);
      await limited.post(`${T}/start`, {}, session.headers);
      const statuses: number[] = [];
      for (let i = 0; i < DEFAULT_RATE_LIMITS.verifyOtp.perUsername.limit + 1; i += 1) {
        statuses.push((await limited.post(`${T}/confirm`, { code: '000000' }, session.headers)).statusCode);
      }
      // start took one of the account's 10 tries: 9 wrong codes answer 400, then 429.
      expect(statuses).toEqual([...Array<number>(9).fill(400), 429, 429]);
      const last = await limited.post(`${T}/confirm`, { code: '000000' }, session.headers);
      expect(last.statusCode).toBe(429);
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
      expect(last.json()).toMatchObject({ success: false, message: OWN_MESSAGES.tooManyAttempts });
      expect(statuses).not.toContain(500);
    } finally {
      await limited.close();
    }
  });

  it('oversized or malformed bodies are 400 with a message', async () => {
    const user = await t.createUser({ prefix: 'totp-bad' });
    const session = await t.login(user.username, user.password);
    const long = await t.post(`${T}/confirm`, { code: 'x'.repeat(50) }, session.headers);
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).not.toBe('');
    const missing = await t.post(`${T}/disable`, { code: '123456' }, session.headers);
    expect(missing.statusCode).toBe(400);
  });
});

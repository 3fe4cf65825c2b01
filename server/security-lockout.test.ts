/**
 * SECURITY.md C-LOCK-1 and C-LOCK-2: guessing throttled per account+address with back-off, no
 * lockout of the owner from a device or address that signed in before, successes never counted, a
 * throttled attempt answered exactly like a wrong password, and a cap of 100 consecutive failures
 * per account (password and SMS codes together) with the owner told by SMS. Runs the default numbers.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { OutboxMessage } from '../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { auditEvents, rateLimits } from './db/schema';
import { pairKey } from './domain/login-throttle';
import { DEFAULT_LOGIN_THROTTLE, DEFAULT_RATE_LIMITS } from './domain/rate-limit';
import { loadConfig } from './env';
import { createTestApp, outboxHeaders, RELAXED_RATE_LIMITS, testConfig, type TestApp, type TestUser } from './test/kit';

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  app = await buildApp({ db: t.dbHandle, config: { ...testConfig(), rateLimits: DEFAULT_RATE_LIMITS, loginThrottle: DEFAULT_LOGIN_THROTTLE, seed: false } });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

/** A fresh /16 per test, so tests sharing the database never share addresses. */
function addresses(): (n: number) => string {
  const a = 11 + Math.floor(Math.random() * 200);
  const b = Math.floor(Math.random() * 250);
  return (n) => `10.${a}.${b}.${n}`;
}

const login = (on: FastifyInstance, username: string, password: string, ip: string, deviceId = '') =>
  on.inject({ method: 'POST', url: API_PATHS.login, payload: { username, password, ...(deviceId ? { deviceId } : {}) }, remoteAddress: ip });

async function auditCount(action: string, username: string): Promise<number> {
  const rows = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, action), sql`${auditEvents.detail}->>'username' = ${username}`));
  return rows.length;
}

const WRONG = 'Wrong!Guess123';

describe('per account+address throttle (C-LOCK-1)', () => {
  it('ten wrong passwords from ten addresses do not lock the owner out: the right password from the address that signed in before gets through', async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'lock-owner' });
    expect((await login(app, user.username, user.password, ip(1))).statusCode).toBe(200);
    for (let i = 0; i < 12; i++) expect((await login(app, user.username, WRONG, ip(100 + i))).statusCode).toBe(400);
    const owner = await login(app, user.username, user.password, ip(1));
    expect(owner.statusCode).toBe(200);
    expect(owner.json().accessToken).not.toBe('');
  });

  it('after five failures from one new address its next attempt is throttled and answered exactly like a wrong password, even with the right password', async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'lock-pair' });
    const wrong: string[] = [];
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.pair.freeAttempts; i++) {
      const res = await login(app, user.username, WRONG, ip(7));
      expect(res.statusCode).toBe(400);
      wrong.push(res.body);
    }
    const throttledWrong = await login(app, user.username, WRONG, ip(7));
    const throttledRight = await login(app, user.username, user.password, ip(7));
    expect(throttledWrong.statusCode).toBe(400);
    expect(throttledRight.statusCode).toBe(400);
    expect(throttledRight.body).toBe(wrong[0]);
    expect(throttledWrong.body).toBe(wrong[0]);
    expect(throttledRight.json()).toMatchObject({ success: false, message: OWN_MESSAGES.invalidCredentials, accessToken: '' });
    expect(await auditCount('login.throttled', user.username)).toBe(2);
    // Another address has its own free attempts; the right password works from there.
    expect((await login(app, user.username, user.password, ip(8))).statusCode).toBe(200);
    // A device that signed in before passes the back-off from the throttled address too.
    const device = randomUUID();
    expect((await login(app, user.username, user.password, ip(9), device)).statusCode).toBe(200);
    expect((await login(app, user.username, user.password, ip(7), device)).statusCode).toBe(200);
  });

  it('the back-off ends: once its wait has passed the address may try again, and a success clears it', async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'lock-wait' });
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.pair.freeAttempts + 1; i++) await login(app, user.username, WRONG, ip(3));
    expect((await login(app, user.username, user.password, ip(3))).statusCode).toBe(400);
    // Five failures counted (the throttled attempts count nothing): the wait is 2 s * 2^(5-5) = 2 s
    // after the last counted one. Move it into the past.
    const key = pairKey(user.username, ip(3));
    const [row] = await t.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    expect(row?.count).toBe(DEFAULT_LOGIN_THROTTLE.pair.freeAttempts);
    await t.db.update(rateLimits).set({ windowStart: new Date(Date.now() - 5_000) }).where(eq(rateLimits.key, key));
    expect((await login(app, user.username, user.password, ip(3))).statusCode).toBe(200);
    expect(await t.db.select().from(rateLimits).where(eq(rateLimits.key, key))).toHaveLength(0);
  });

  it('parallel guesses from one new address: only the free attempts reach the password check', async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'lock-parallel' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(app, user.username, WRONG, ip(5))));
    expect(new Set(answers.map((a) => `${a.statusCode} ${a.body}`)).size).toBe(1);
    expect(await auditCount('login.failure', user.username)).toBe(DEFAULT_LOGIN_THROTTLE.pair.freeAttempts);
    expect(await auditCount('login.throttled', user.username)).toBe(20 - DEFAULT_LOGIN_THROTTLE.pair.freeAttempts);
  });

  it('successes never count: 35 right passwords in a row from one address all sign in', async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'lock-success' });
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await login(app, user.username, user.password, ip(2))).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('unknown usernames are throttled identically (no enumeration through the throttle)', async () => {
    const ip = addresses();
    const ghost = `ghost-${randomUUID()}@demo.test`;
    const user = await t.createUser({ prefix: 'lock-same' });
    const answer = async (username: string) => {
      const bodies: string[] = [];
      for (let i = 0; i < 7; i++) bodies.push((await login(app, username, WRONG, ip(4))).body);
      return bodies;
    };
    expect(await answer(ghost)).toEqual(await answer(user.username));
    expect(await auditCount('login.throttled', ghost)).toBe(2);
  });
});

describe('cumulative cap of consecutive failures per account (C-LOCK-2)', () => {
  async function outboxFor(on: FastifyInstance, phone: string): Promise<OutboxMessage[]> {
    return (await on.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?to=${encodeURIComponent(phone)}`, headers: outboxHeaders(on.services.config) })).json<OutboxMessage[]>();
  }

  it('100 failures from 100 addresses: then even the right password from a new address is refused like a wrong one, the owner gets one SMS, the known address still signs in and resets the count', { timeout: 120_000 }, async () => {
    const ip = addresses();
    const user = await t.createUser({ prefix: 'cap' });
    expect((await login(app, user.username, user.password, ip(250))).statusCode).toBe(200);
    const cap = DEFAULT_LOGIN_THROTTLE.accountFailureCap;
    expect(cap).toBe(100);
    const first = await login(app, user.username, WRONG, ip(0));
    for (let i = 1; i < cap; i++) expect((await login(app, user.username, WRONG, ip(i))).statusCode).toBe(400);
    expect(await auditCount('login.failure', user.username)).toBe(cap);

    const refused = await login(app, user.username, user.password, ip(200));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe(first.body);
    const reached = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'account.failure_cap_reached'), eq(auditEvents.actorUserId, user.id)));
    expect(reached).toHaveLength(1);
    expect(reached[0]!.detail).toMatchObject({ via: 'password' });
    const notices = (await outboxFor(app, user.phoneNumber)).filter((m) => m.body === OWN_MESSAGES.failureCapSms);
    expect(notices).toHaveLength(1);

    // The owner's address that signed in before: the right password gets through and resets the count.
    expect((await login(app, user.username, user.password, ip(250))).statusCode).toBe(200);
    expect((await login(app, user.username, user.password, ip(201))).statusCode).toBe(200);
  });

  it('SMS reset codes count toward the cap: past it, even the right reset code is refused', async () => {
    // Relaxed windows, cap 3, so the cap is the only limit in play.
    const capped = await buildApp({ db: t.dbHandle, config: { ...testConfig(), rateLimits: RELAXED_RATE_LIMITS, loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, accountFailureCap: 3 }, seed: false } });
    try {
      const ip = addresses();
      const user: TestUser = await t.createUser({ prefix: 'cap-reset' });
      const verify = (otp: string, n: number) => capped.inject({ method: 'POST', url: API_PATHS.verifyOtp, payload: { username: user.username, otp, isLogin: false }, remoteAddress: ip(n) });
      expect((await capped.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username: user.username }, remoteAddress: ip(1) })).statusCode).toBe(200);
      const code = /\b(\d{6})\b/.exec((await outboxFor(capped, user.phoneNumber))[0]!.body)![1]!;
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 3; i++) expect((await verify(wrong, 10 + i)).statusCode).toBe(400);
      const right = await verify(code, 20);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toMatchObject({ success: false, message: MESSAGES.otpVerifyFailed, accessToken: '' });
      const reached = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'account.failure_cap_reached'), eq(auditEvents.actorUserId, user.id)));
      expect(reached.map((r) => r.detail.via)).toEqual(['reset-code']);
      expect((await outboxFor(capped, user.phoneNumber)).some((m) => m.body === OWN_MESSAGES.failureCapSms)).toBe(true);
    } finally {
      await capped.close();
    }
  });

  it('LOGIN_FAILURE_CAP can lower the cap but never raise it above 100', () => {
    expect(loadConfig({ LOGIN_FAILURE_CAP: '20' }).loginThrottle.accountFailureCap).toBe(20);
    expect(loadConfig({ LOGIN_FAILURE_CAP: '500' }).loginThrottle.accountFailureCap).toBe(100);
    expect(loadConfig({}).loginThrottle.accountFailureCap).toBe(100);
  });
});

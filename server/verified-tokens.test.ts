/**
 * The cache of verified access tokens (server/domain/verified-tokens.ts): a token's signature is
 * checked once per instance, its expiry on every call; a changed, forged or failed token is never
 * answered from the cache; and every check after the token (revocation) still runs on each request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { createTokenService, type AccessClaims } from './domain/tokens';
import { withVerifiedTokenCache } from './domain/verified-tokens';
import { createTestApp, type TestApp } from './test/kit';

const SECRET = 'verified-tokens-test-secret-0123456789abcdef';

function counted(secret = SECRET) {
  const inner = createTokenService(secret);
  let calls = 0;
  return {
    inner,
    calls: () => calls,
    service: { ...inner, verify: async (token: string) => { calls++; return inner.verify(token); } },
  };
}

/** The token with one character of its signature changed (not the last one, whose low bits are padding). */
function tamper(token: string): string {
  const i = token.length - 10;
  return token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
}

async function sign(now: Date, expiresInMs = 60 * 60_000) {
  return createTokenService(SECRET).sign({ userId: 'u1', sessionId: 's1', site: 'site-a', sessionExpiresAt: new Date(now.getTime() + expiresInMs), now });
}

describe('withVerifiedTokenCache', () => {
  it('verifies a token once and answers the same claims after that', async () => {
    const { service, calls } = counted();
    const cached = withVerifiedTokenCache(service);
    const token = await sign(new Date());
    const first = await cached.verify(token);
    expect(first).toMatchObject({ sub: 'u1', sid: 's1', site: 'site-a' });
    expect(await cached.verify(token)).toEqual(first);
    expect(calls()).toBe(1);
  });

  it('never answers a changed or foreign-key token from the cache, and never caches a failure', async () => {
    const { service, calls } = counted();
    const cached = withVerifiedTokenCache(service);
    const token = await sign(new Date());
    await cached.verify(token);
    const tampered = tamper(token);
    expect(await cached.verify(tampered)).toBeNull();
    expect(await cached.verify(tampered)).toBeNull();
    const foreign = await createTokenService('another-secret-another-secret-0123456789').sign({ userId: 'u1', sessionId: 's1', site: 'site-a', sessionExpiresAt: new Date(Date.now() + 60_000) });
    expect(await cached.verify(foreign)).toBeNull();
    expect(calls()).toBe(4);
  });

  it('refuses a cached token once it has expired', async () => {
    let now = Date.now();
    const { service } = counted();
    const cached = withVerifiedTokenCache(service, { now: () => now });
    const token = await sign(new Date(now), 5_000);
    const claims = await cached.verify(token) as AccessClaims;
    expect(claims).not.toBeNull();
    now = claims.exp * 1000 - 1;
    expect(await cached.verify(token)).not.toBeNull();
    now = claims.exp * 1000;
    expect(await cached.verify(token)).toBeNull();
  });

  it('holds at most `max` tokens', async () => {
    const { service, calls } = counted();
    const cached = withVerifiedTokenCache(service, { max: 2 });
    const now = new Date();
    const tokens = await Promise.all([1, 2, 3].map((i) => createTokenService(SECRET).sign({ userId: `u${i}`, sessionId: `s${i}`, site: 'a', sessionExpiresAt: new Date(now.getTime() + 60_000), now })));
    for (const token of tokens) await cached.verify(token);
    expect(calls()).toBe(3);
    await cached.verify(tokens[0]!);
    expect(calls()).toBe(4);
    await cached.verify(tokens[2]!);
    expect(calls()).toBe(4);
  });
});

describe('GET /api/auth/verify with the cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ demo: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('still answers 401 once the session is revoked, and for a tampered token', async () => {
    const session = await t.login('admin@demo.test');
    expect((await t.get(API_PATHS.verify, session.headers)).json()).toEqual({ valid: true });
    expect((await t.get(API_PATHS.verify, session.headers)).json()).toEqual({ valid: true });
    const tampered = { ...session.headers, authorization: `Bearer ${tamper(session.token)}` };
    expect((await t.get(API_PATHS.verify, tampered)).statusCode).toBe(401);
    const logout = await t.inject({ method: 'POST', url: API_PATHS.logout, headers: session.headers });
    expect(logout.statusCode).toBeLessThan(300);
    const after = await t.get(API_PATHS.verify, session.headers);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ valid: false });
  });
});

/**
 * googleLogin / microsoftLogin over the management GraphQL endpoint, with ID tokens signed by a local
 * key pair (the verifier's JWKS is injected) and, in emulator mode, the Auth emulator's unsigned shape.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { LoginResponse, VerifyOtpResponse } from '../common/contract';
import { OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { identityLinks, staffUsers } from './db/schema';
import { DEFAULT_RATE_LIMITS } from './domain/rate-limit';
import { totpCode } from './domain/totp';
import { TOTP_MESSAGES, TOTP_PATHS, type TotpStartResponse } from '../common/totp';
import { assertNoEmulatorInProduction, loadConfig } from './env';
import { createTestApp, testConfig, type TestApp } from './test/kit';

const PROJECT = 'demo-cms-test';
const ISSUER = `https://securetoken.google.com/${PROJECT}`;
type Provider = 'google' | 'microsoft';
const FIREBASE_ID: Record<Provider, string> = { google: 'google.com', microsoft: 'microsoft.com' };

let signingKey: CryptoKey;
let otherKey: CryptoKey;
let jwks: { keys: JWK[] };
let t: TestApp;
let emulatorApp: TestApp;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  otherKey = other.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }] };
  [t, emulatorApp] = await Promise.all([
    createTestApp({ demo: true, config: { firebaseAuth: { projectId: PROJECT, emulatorHost: undefined, keys: createLocalJWKSet(jwks) } } }),
    createTestApp({ demo: true, config: { firebaseAuth: { projectId: PROJECT, emulatorHost: '127.0.0.1:9099' } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), emulatorApp?.close()]);
});

interface Claims {
  email?: string;
  emailVerified?: boolean;
  provider?: Provider;
  providerUserId?: string;
  sub?: string;
  audience?: string;
  issuer?: string;
  iat?: number;
  exp?: number;
  authTime?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function payloadOf(claims: Claims) {
  const provider = FIREBASE_ID[claims.provider ?? 'google'];
  const providerUserId = claims.providerUserId ?? String(randomInt(1e9, 9e9));
  return {
    email: claims.email, email_verified: claims.emailVerified ?? true, auth_time: claims.authTime ?? nowSeconds() - 5,
    firebase: { sign_in_provider: provider, identities: { [provider]: [providerUserId], ...(claims.email ? { email: [claims.email] } : {}) } },
  };
}

async function signedToken(claims: Claims = {}, options: { key?: CryptoKey; kid?: string } = {}): Promise<string> {
  return new SignJWT(payloadOf(claims))
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1', typ: 'JWT' })
    .setSubject(claims.sub ?? randomUUID().replace(/-/g, '').slice(0, 28))
    .setAudience(claims.audience ?? PROJECT)
    .setIssuer(claims.issuer ?? ISSUER)
    .setIssuedAt(claims.iat ?? nowSeconds() - 5)
    .setExpirationTime(claims.exp ?? nowSeconds() + 3600)
    .sign(options.key ?? signingKey);
}

/** The Auth emulator's shape: `alg: none`, empty signature. */
function unsignedToken(claims: Claims = {}): string {
  return new UnsecuredJWT(payloadOf(claims))
    .setSubject(claims.sub ?? randomUUID().slice(0, 28))
    .setAudience(claims.audience ?? PROJECT)
    .setIssuer(claims.issuer ?? ISSUER)
    .setIssuedAt(claims.iat ?? nowSeconds() - 5)
    .setExpirationTime(claims.exp ?? nowSeconds() + 3600)
    .encode();
}

const FIELDS = 'success message isTwoFactorOnLogin obscureMobileNumber username accessToken refreshToken v2ManagementApiEnabled v2VodManagementApiEnabled secondFactor';

/** POSTs the mutation with no Authorization or API key header, as the sign-in page does. */
async function socialLogin(app: TestApp, provider: Provider, token: string, options: { deviceId?: string; ip?: string } = {}) {
  const field = `${provider}Login`;
  const res = await app.inject({
    method: 'POST',
    url: API_PATHS.graphql,
    remoteAddress: options.ip ?? '127.0.0.1',
    payload: {
      query: `mutation ($token: String!, $deviceId: String) { ${field}(token: $token, deviceId: $deviceId) { ${FIELDS} } }`,
      variables: { token, deviceId: options.deviceId ?? randomUUID() },
    },
  });
  const body = res.json<{ data?: Record<string, LoginResponse>; errors?: { message: string; extensions?: Record<string, unknown> }[] }>();
  return { res, body, result: body.data?.[field] };
}

async function linksOf(userId: string) {
  return t.db.select().from(identityLinks).where(eq(identityLinks.userId, userId));
}

describe('googleLogin / microsoftLogin: signing in', () => {
  it('signs in the staff account with the verified email, without any auth header, and links the identity', async () => {
    const user = await t.createUser({ prefix: 'social', roles: { Content: 'write' } });
    const providerUserId = `g-${randomUUID()}`;
    const { res, result } = await socialLogin(t, 'google', await signedToken({ email: user.username, providerUserId }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(result).toMatchObject({ success: true, isTwoFactorOnLogin: false, username: user.username });
    const session = await t.sessionFor(result!.accessToken);
    expect(session.profile.username).toBe(user.username);
    expect((await t.get(API_PATHS.verify, session.headers)).json()).toEqual({ valid: true });
    expect(await linksOf(user.id)).toEqual([expect.objectContaining({ provider: 'google.com', providerUserId })]);

    // Later sign-ins follow the link, whatever email the provider reports by then.
    const again = await socialLogin(t, 'google', await signedToken({ email: 'renamed@elsewhere.test', emailVerified: false, providerUserId }));
    expect(again.result).toMatchObject({ success: true, username: user.username });
  });

  it("asks an account with an authenticator app for the app's code (secondFactor 'totp', no token, no SMS); an SMS account's answer has no secondFactor", async () => {
    const user = await t.createUser({ prefix: 'social-totp' });
    const session = await t.login(user.username, user.password);
    const started = await t.post(`${TOTP_PATHS.account}/start`, {}, session.headers);
    const { secret } = started.json<TotpStartResponse>();
    expect((await t.post(`${TOTP_PATHS.account}/confirm`, { code: totpCode(secret, new Date()) }, session.headers)).statusCode).toBe(200);
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username }));
    expect(result).toMatchObject({ success: true, isTwoFactorOnLogin: true, secondFactor: 'totp', accessToken: '', message: TOTP_MESSAGES.loginCodeRequired });

    const plain = await t.createUser({ prefix: 'social-plain' });
    expect((await socialLogin(t, 'google', await signedToken({ email: plain.username }))).result).toMatchObject({ success: true, secondFactor: null });
  });

  it('matches the email case-insensitively and works for Microsoft too', async () => {
    const user = await t.createUser({ prefix: 'ms' });
    const { result } = await socialLogin(t, 'microsoft', await signedToken({ provider: 'microsoft', email: user.username.toUpperCase() }));
    expect(result).toMatchObject({ success: true, username: user.username });
    expect(await linksOf(user.id)).toEqual([expect.objectContaining({ provider: 'microsoft.com' })]);
  });

  it('honours the SMS second factor: no token until the code is verified', async () => {
    const user = await t.createUser({ prefix: 'social2fa', twoFactorOnLogin: true });
    const deviceId = randomUUID();
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username }), { deviceId });
    expect(result).toMatchObject({
      success: true, isTwoFactorOnLogin: true, username: user.username, accessToken: '',
      obscureMobileNumber: `******${user.phoneNumber.slice(-4)}`,
    });
    const code = await t.latestCode(user.phoneNumber);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: true, deviceId });
    expect(verified.statusCode).toBe(200);
    const session = await t.sessionFor(verified.json<VerifyOtpResponse>().accessToken);
    expect(session.profile.username).toBe(user.username);
  });
});

describe('googleLogin / microsoftLogin: refusals', () => {
  it('refuses an unknown person and creates nobody', async () => {
    const email = `stranger-${randomUUID()}@nowhere.test`;
    const { res, result } = await socialLogin(t, 'google', await signedToken({ email }));
    expect(res.statusCode).toBe(200);
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialAccountNotLinked, accessToken: '' });
    expect(await t.db.select().from(staffUsers).where(eq(staffUsers.email, email))).toEqual([]);
  });

  it('does not link by an email the provider has not verified', async () => {
    const user = await t.createUser({ prefix: 'unverified' });
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username, emailVerified: false }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialAccountNotLinked });
    expect(await linksOf(user.id)).toEqual([]);
  });

  it('refuses a disabled account', async () => {
    const user = await t.createUser({ prefix: 'disabled' });
    await t.db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, user.id));
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialAccountNotLinked });
  });

  it('refuses a forged token (signed by another key under the known key id)', async () => {
    const user = await t.createUser({ prefix: 'forged' });
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username }, { key: otherKey }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid, accessToken: '' });
    expect(await linksOf(user.id)).toEqual([]);
  });

  it('refuses a token signed with an unknown key', async () => {
    const user = await t.createUser({ prefix: 'unknownkey' });
    const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username }, { key: otherKey, kid: 'not-google' }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
  });

  it('refuses an expired token', async () => {
    const user = await t.createUser({ prefix: 'expired' });
    const token = await signedToken({ email: user.username, iat: nowSeconds() - 7200, authTime: nowSeconds() - 7200, exp: nowSeconds() - 3600 });
    const { result } = await socialLogin(t, 'google', token);
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
  });

  it("refuses another project's token (audience, or issuer)", async () => {
    const user = await t.createUser({ prefix: 'otherproject' });
    for (const claims of [{ audience: 'someone-else' }, { issuer: 'https://securetoken.google.com/someone-else' }]) {
      const { result } = await socialLogin(t, 'google', await signedToken({ email: user.username, ...claims }));
      expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
    }
  });

  it('refuses an auth_time in the future, and an empty sub', async () => {
    const user = await t.createUser({ prefix: 'claims' });
    const future = await socialLogin(t, 'google', await signedToken({ email: user.username, authTime: nowSeconds() + 600 }));
    expect(future.result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
    const emptySub = await socialLogin(t, 'google', await signedToken({ email: user.username, sub: '' }));
    expect(emptySub.result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
  });

  it('refuses alg none outside emulator mode, and garbage', async () => {
    const user = await t.createUser({ prefix: 'algnone' });
    const { result } = await socialLogin(t, 'google', unsignedToken({ email: user.username }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
    for (const token of ['', 'not-a-jwt', 'a.b.c', 'x'.repeat(9000)]) {
      expect((await socialLogin(t, 'google', token)).result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
    }
    expect(await linksOf(user.id)).toEqual([]);
  });

  it("refuses a token of the other provider (a Google sign-in sent to microsoftLogin)", async () => {
    const user = await t.createUser({ prefix: 'mismatch' });
    const { result } = await socialLogin(t, 'microsoft', await signedToken({ provider: 'google', email: user.username }));
    expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
  });

  it('is rate-limited like the password login', async () => {
    const limited = await createTestApp({
      db: t.dbHandle,
      config: {
        firebaseAuth: { projectId: PROJECT, emulatorHost: undefined, keys: createLocalJWKSet(jwks) },
        rateLimits: { ...DEFAULT_RATE_LIMITS, login: { perIp: { limit: 3, windowSeconds: 900 }, perUsername: { limit: 100, windowSeconds: 900 } } },
      },
    });
    try {
      const ip = `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
      for (let i = 0; i < 3; i += 1) {
        expect((await socialLogin(limited, 'google', 'garbage', { ip })).result).toMatchObject({ success: false });
      }
      const { body } = await socialLogin(limited, 'google', await signedToken({ email: 'admin@demo.test' }), { ip });
      expect(body.errors?.[0]).toMatchObject({ message: OWN_MESSAGES.tooManyAttempts, extensions: { code: 'TOO_MANY_REQUESTS' } });
      expect(body.errors?.[0]?.extensions?.retryAfterSeconds).toEqual(expect.any(Number));
    } finally {
      await limited.app.close();
    }
  });
  it('never counts a successful sign-in: the owner signs in again and again, and only refused tokens use up the address window', async () => {
    const limited = await createTestApp({
      db: t.dbHandle,
      config: {
        firebaseAuth: { projectId: PROJECT, emulatorHost: undefined, keys: createLocalJWKSet(jwks) },
        rateLimits: { ...DEFAULT_RATE_LIMITS, login: { perIp: { limit: 3, windowSeconds: 900 }, perUsername: { limit: 3, windowSeconds: 900 } } },
      },
    });
    try {
      const ip = `127.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
      // More successes than either window allows: none of them counts (before, the 4th got 429).
      for (let i = 0; i < 6; i += 1) {
        const { result } = await socialLogin(limited, 'google', await signedToken({ email: 'admin@demo.test' }), { ip });
        expect(result).toMatchObject({ success: true });
      }
      for (let i = 0; i < 3; i += 1) {
        expect((await socialLogin(limited, 'google', 'garbage', { ip })).result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
      }
      const { body } = await socialLogin(limited, 'google', await signedToken({ email: 'admin@demo.test' }), { ip });
      expect(body.errors?.[0]).toMatchObject({ message: OWN_MESSAGES.tooManyAttempts, extensions: { code: 'TOO_MANY_REQUESTS' } });
    } finally {
      await limited.app.close();
    }
  });
});

describe('emulator mode', () => {
  it("accepts the Auth emulator's unsigned tokens, still checking audience, issuer, expiry and subject", async () => {
    const user = await emulatorApp.createUser({ prefix: 'emu' });
    const ok = await socialLogin(emulatorApp, 'microsoft', unsignedToken({ provider: 'microsoft', email: user.username }));
    expect(ok.result).toMatchObject({ success: true, username: user.username });
    for (const claims of [
      { audience: 'someone-else' },
      { issuer: 'https://securetoken.google.com/someone-else' },
      { iat: nowSeconds() - 7200, authTime: nowSeconds() - 7200, exp: nowSeconds() - 60 },
      { sub: '' },
    ]) {
      const { result } = await socialLogin(emulatorApp, 'microsoft', unsignedToken({ provider: 'microsoft', email: user.username, ...claims }));
      expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialTokenInvalid });
    }
  });

  it('the server refuses to start in production with the emulator configured', async () => {
    const env = { NODE_ENV: 'production', FIREBASE_PROJECT_ID: PROJECT, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    expect(() => assertNoEmulatorInProduction(loadConfig(env))).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
    expect(() => assertNoEmulatorInProduction(loadConfig({ ...env, NODE_ENV: 'development' }))).not.toThrow();
    expect(() => assertNoEmulatorInProduction(loadConfig({ ...env, FIREBASE_AUTH_EMULATOR_HOST: '' }))).not.toThrow();
    await expect(buildApp({
      db: t.dbHandle,
      config: testConfig({ nodeEnv: 'production', production: true, seed: false, firebaseAuth: { projectId: PROJECT, emulatorHost: '127.0.0.1:9099' } }),
    })).rejects.toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });

  it('reads the Firebase settings from the environment', () => {
    const config = loadConfig({
      FIREBASE_PROJECT_ID: 'demo-x', FIREBASE_API_KEY: 'key', FIREBASE_MICROSOFT_TENANT: 'tenant-1', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    });
    expect(config.runtime.firebase).toEqual({
      apiKey: 'key', authDomain: 'demo-x.firebaseapp.com', projectId: 'demo-x', microsoftTenant: 'tenant-1', emulatorUrl: 'http://127.0.0.1:9099',
    });
    expect(config.firebaseAuth).toEqual({ projectId: 'demo-x', emulatorHost: '127.0.0.1:9099' });
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'p' }).runtime.firebase).toMatchObject({ apiKey: '', microsoftTenant: '', emulatorUrl: '' });
    expect(loadConfig({}).runtime.firebase).toBeNull();
    expect(loadConfig({}).firebaseAuth).toBeNull();
  });
});

describe('not configured', () => {
  it('answers that social sign-in is not configured when no Firebase project is set', async () => {
    const plain = await createTestApp({ db: t.dbHandle, config: { firebaseAuth: null } });
    try {
      const { result } = await socialLogin(plain, 'google', 'whatever', { ip: '127.9.9.9' });
      expect(result).toMatchObject({ success: false, message: OWN_MESSAGES.socialNotConfigured });
    } finally {
      await plain.app.close();
    }
  });
});

// The link table's key is (provider, provider user id): one identity, one account.
describe('identity links', () => {
  it('keeps an existing link when another account later claims the same email', async () => {
    const first = await t.createUser({ prefix: 'first' });
    const providerUserId = `p-${randomUUID()}`;
    await socialLogin(t, 'google', await signedToken({ email: first.username, providerUserId }));
    const second = await t.createUser({ prefix: 'second' });
    const { result } = await socialLogin(t, 'google', await signedToken({ email: second.username, providerUserId }));
    expect(result).toMatchObject({ success: true, username: first.username });
    const rows = await t.db.select().from(identityLinks)
      .where(and(eq(identityLinks.provider, 'google.com'), eq(identityLinks.providerUserId, providerUserId)));
    expect(rows).toHaveLength(1);
  });
});

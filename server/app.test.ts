import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { RuntimeConfig } from '../common/contract';
import { OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { eq } from 'drizzle-orm';
import { rateLimits } from './db/schema';
import { purgeExpired } from './db/housekeeping';
import { createRateLimitRepository } from './db/rate-limit-repository';
import { createRateLimiter, DEFAULT_RATE_LIMITS } from './domain/rate-limit';
import { resolveJwtSecret } from './domain/tokens';
import { loadConfig } from './env';
import { injectRuntimeConfig } from './http/spa';
import { createTestApp, outboxHeaders, testConfig, type TestApp } from './test/kit';

const boom: FastifyPluginAsync = async (app) => {
  app.get('/api/test/boom', async () => {
    throw new Error('secret internal detail');
  });
};

let t: TestApp;
let distDir: string;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'cms-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><title>CMS Tools</title></head><body><div id="root"></div></body></html>');
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'assets', 'app-123.js'), 'console.log("app")');
  t = await createTestApp({
    demo: true,
    staticDir: distDir,
    plugins: [boom],
    config: {
      runtime: { ...testConfig().runtime, gaMeasurementId: '</script><script>alert(1)</script>', analyticsAllowedSites: ['viewlift-demo'] },
    },
  });
});

afterAll(async () => {
  await t?.close();
  rmSync(distDir, { recursive: true, force: true });
});

function configFrom(html: string): RuntimeConfig {
  const match = /<script>window\.__CMS_CONFIG__=(.*?);<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as RuntimeConfig;
}

describe('SPA serving', () => {
  it('serves index.html with the runtime config for app routes', async () => {
    for (const url of ['/', '/analytics/qos-isp', '/verify-number?forgot=true', '/index.html']) {
      const res = await t.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const config = configFrom(res.body);
      expect(config.inactivityTimeoutMinutes).toBe(120);
      expect(config.inactivityExcludedPaths).toEqual(expect.arrayContaining(['/', '/logout', '/forgot-password', '/verify-number', '/reset-password']));
      expect(config.analyticsAllowedSites).toEqual(['viewlift-demo']);
      expect(config.firebase).toBeNull();
    }
  });

  it('escapes the config so it cannot close the script element', async () => {
    const res = await t.inject({ method: 'GET', url: '/content', headers: { accept: 'text/html' } });
    expect(res.body).not.toContain('</script><script>alert(1)');
    expect(configFrom(res.body).gaMeasurementId).toBe('</script><script>alert(1)</script>');
  });

  it('serves assets and 404s unknown assets', async () => {
    const asset = await t.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
  });

  it('unknown API routes are JSON 404s, even for browsers', async () => {
    for (const url of ['/api/nope', '/v3.0/user/auth/nope', '/v4.0/appcms/x', '/management/nope']) {
      const res = await t.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
    }
    const post = await t.post('/v3.0/user/auth/unknown', {});
    expect(post.statusCode).toBe(404);
  });

  it('sends basic security headers', async () => {
    const res = await t.get(API_PATHS.device);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('injectRuntimeConfig falls back to prepending when there is no </head>', () => {
    expect(injectRuntimeConfig('<p>x</p>', testConfig().runtime)).toMatch(/^<script>window.__CMS_CONFIG__=/);
  });
});

describe('errors', () => {
  it('a bug is a 500 with the generic message and no stack or detail', async () => {
    const res = await t.get('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'Something went wrong!' });
    expect(res.body).not.toContain('secret internal detail');
  });

  it('a wrong content type is a 4xx JSON answer', async () => {
    const res = await t.inject({ method: 'POST', url: API_PATHS.login, payload: 'username=a', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().success).toBe(false);
  });
});

describe('dev outbox', () => {
  it('lists messages newest first and filters by number', async () => {
    await t.post(API_PATHS.login, { username: 'twofa@demo.test', password: t.config.seedPassword, deviceId: 'x' });
    const all = await t.get(API_PATHS.devOutbox, outboxHeaders(t.config));
    expect(all.statusCode).toBe(200);
    const list = all.json<{ id: string; to: string; body: string; createdAt: string }[]>();
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(50);
    expect(Object.keys(list[0]!).sort()).toEqual(['body', 'createdAt', 'id', 'to']);
    const filtered = (await t.get(`${API_PATHS.devOutbox}?to=%2B15555554321`, outboxHeaders(t.config))).json<{ to: string }[]>();
    expect(filtered.every((m) => m.to === '+15555554321')).toBe(true);
  });

  it('is not mounted in production', async () => {
    const prod = await buildApp({
      db: t.dbHandle,
      config: { ...testConfig(), nodeEnv: 'production', production: true, jwtSecret: 'p'.repeat(40), seed: false },
    });
    try {
      const res = await prod.inject({ method: 'GET', url: API_PATHS.devOutbox, headers: outboxHeaders(prod.services.config) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
    } finally {
      await prod.close();
    }
  });
});

describe('configuration', () => {
  it('production refuses to start without JWT_SECRET', () => {
    expect(() => resolveJwtSecret({ jwtSecret: undefined, production: true, dataDir: './data', persistent: true })).toThrow(/JWT_SECRET/);
    expect(() => resolveJwtSecret({ jwtSecret: 'short', production: true, dataDir: './data', persistent: true })).toThrow(/32/);
  });

  it('development keeps a generated secret in the data dir across restarts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-secret-'));
    try {
      const a = resolveJwtSecret({ jwtSecret: undefined, production: false, dataDir: dir, persistent: true });
      const b = resolveJwtSecret({ jwtSecret: undefined, production: false, dataDir: dir, persistent: true });
      expect(a).toBe(b);
      expect(a.length).toBeGreaterThanOrEqual(32);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the environment: defaults and lists', () => {
    const c = loadConfig({ INACTIVITY_EXCLUDED_PATHS: '/content, /appcms', ANALYTICS_ALLOWED_SITES: 'a,b', FIREBASE_API_KEY: 'k', FIREBASE_PROJECT_ID: 'demo-p' });
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.runtime.inactivityTimeoutMinutes).toBe(120);
    expect(c.runtime.inactivityExcludedPaths).toEqual(expect.arrayContaining(['/', '/content', '/appcms']));
    expect(c.runtime.analyticsAllowedSites).toEqual(['a', 'b']);
    expect(c.runtime.firebase).toMatchObject({ apiKey: 'k', projectId: 'demo-p', authDomain: 'demo-p.firebaseapp.com' });
    expect(c.argon2.memoryCost).toBeGreaterThanOrEqual(19456);
    expect(loadConfig({ NODE_ENV: 'production' }).sms.transport).toBe('disabled');
    expect(loadConfig({}).sms.transport).toBe('outbox');
  });
});

describe('rate limiter and housekeeping', () => {
  it('counts per fixed window, restarts in the next window, and old windows are purged', async () => {
    const limiter = createRateLimiter(createRateLimitRepository(t.db));
    const key = `test:${randomUUID()}`;
    const rule = { limit: 2, windowSeconds: 60 };
    const now = new Date();
    expect((await limiter.hit(key, rule, now)).allowed).toBe(true);
    expect((await limiter.hit(key, rule, now)).allowed).toBe(true);
    const third = await limiter.hit(key, rule, now);
    expect(third).toMatchObject({ allowed: false, count: 3 });
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect((await limiter.hit(key, rule, new Date(now.getTime() + 61_000))).count).toBe(1);
    // Housekeeping with the real clock (other test files share the database): only day-old rows go.
    const old = `old:${randomUUID()}`;
    await limiter.hit(old, rule, new Date(now.getTime() - 3 * 24 * 3600_000));
    await purgeExpired(t.db);
    expect(await t.db.select().from(rateLimits).where(eq(rateLimits.key, old))).toHaveLength(0);
    expect(await t.db.select().from(rateLimits).where(eq(rateLimits.key, key))).toHaveLength(1);
  });

  it('a cooldown is acquired once per period', async () => {
    const limiter = createRateLimiter(createRateLimitRepository(t.db));
    const key = `cool:${randomUUID()}`;
    const now = new Date();
    expect(await limiter.cooldown(key, 30, now)).toEqual({ acquired: true });
    const again = await limiter.cooldown(key, 30, new Date(now.getTime() + 10_000));
    expect(again).toEqual({ acquired: false, retryAfterSeconds: 20 });
    expect(await limiter.cooldown(key, 30, new Date(now.getTime() + 31_000))).toEqual({ acquired: true });
  });
});

describe('rate limits (default numbers)', () => {
  // Per username, login is throttled per account+address with back-off and a failure cap, never
  // with a 429 for the whole account (server/security-lockout.test.ts).

  it('login: one IP is limited to 30 attempts in 15 minutes across usernames', async () => {
    const limited = await buildApp({ db: t.dbHandle, config: { ...testConfig(), rateLimits: DEFAULT_RATE_LIMITS, seed: false } });
    try {
      const ip = `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      let last = 0;
      for (let i = 0; i < 31; i++) {
        const res = await limited.inject({ method: 'POST', url: API_PATHS.login, payload: { username: `u${i}-${randomUUID()}@x.test`, password: 'x' }, remoteAddress: ip });
        last = res.statusCode;
        if (i < 30) expect(res.statusCode).toBe(400);
      }
      expect(last).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('forgot-password is limited per username too, identically for unknown names', async () => {
    const limited = await buildApp({ db: t.dbHandle, config: { ...testConfig(), rateLimits: DEFAULT_RATE_LIMITS, seed: false } });
    try {
      const username = `ghost-${randomUUID()}@demo.test`;
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        codes.push((await limited.inject({ method: 'POST', url: API_PATHS.forgotPassword, payload: { username }, remoteAddress: `10.3.${i}.9` })).statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

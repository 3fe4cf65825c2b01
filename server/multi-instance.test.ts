/**
 * Issue 31: several server instances on one PostgreSQL give the same answers as one. Two apps are
 * built in this process, each with its own connection pool, its own LISTEN connection (the cache bus,
 * server/db/pg-cache-bus.ts), its own session-lookup cache and service cache, and (with REDIS_URL) its
 * own Redis client: nothing is shared between them but PostgreSQL and Redis, as between two `npm
 * start` processes. Both caches are set to 60 s, so an answer that changes "at once" on the other
 * instance can only be explained by the notification; a control in each test shows the cache really
 * does hold the old row when nothing is announced.
 *
 * Needs PostgreSQL (DATABASE_URL: the PostgreSQL stage of scripts/test.sh) and Redis (REDIS_URL, else
 * redis://127.0.0.1:6379). Without DATABASE_URL (the PGlite stage) it checks what the embedded default
 * keeps instead: one process, a local bus, the budget in memory.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPCMS_PATHS, type AppcmsBrand } from '../common/appcms';
import { API_PATHS } from '../common/constants';
import type { LoginResponse, ThemeColors } from '../common/contract';
import { buildApp } from './app';
import type { DbHandle } from './db/client';
import { createCacheBus } from './db/pg-cache-bus';
import { DEMO_SITES } from './db/demo-accounts';
import { networkBrands, networkDevices, networkSettings, networks, sessions, sites } from './db/schema';
import { serviceCacheOf } from './db/service-cache';
import { connectRedis, redisAddress, tokenBudgetStore } from './http/token-rate-limit';
import { createTestApp, openTestDb, TEST_SEED_PASSWORD, type Session, type TestApp } from './test/kit';

const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const CACHE_MS = 60_000;
const BUDGET = 25;

if (!databaseUrl) {
  describe('several instances: the embedded PGlite default is one process (the two-instance tests need PostgreSQL: they run in the PostgreSQL stage)', () => {
    it('keeps the in-process invalidation (a local bus, always listening) and the per-token budget in memory, with no Redis', async () => {
      const bus = await createCacheBus({ driver: 'pglite' } as DbHandle);
      expect(bus.kind).toBe('local');
      expect(bus.listening).toBe(true);
      await bus.close();
      expect(tokenBudgetStore({ redisUrl: undefined }, 'pglite')).toBe('memory');
      expect(tokenBudgetStore({ redisUrl: undefined }, 'postgres')).toBe('database');
      expect(tokenBudgetStore({ redisUrl }, 'postgres')).toBe('redis');
    });
  });
} else {
  describe(`two server instances on one PostgreSQL (needs PostgreSQL at DATABASE_URL and Redis at ${redisAddress(redisUrl)})`, () => {
    let a: TestApp;
    let b: TestApp;

    // One JWT secret for both, as every instance of one deployment has.
    const config = { jwtSecret: `multi-${randomUUID()}`, authCacheMs: CACHE_MS, serviceCacheMs: CACHE_MS, apiRateLimit: { max: BUDGET, windowSeconds: 60 }, redisUrl };

    beforeAll(async () => {
      // Fail fast and say which service is missing, rather than hang.
      const probe = await connectRedis(redisUrl).catch((error: unknown) => {
        throw new Error(`This test needs Redis (REDIS_URL, default redis://127.0.0.1:6379): ${error instanceof Error ? error.message : String(error)}`);
      });
      await probe.quit();
      const handle = await openTestDb().catch((error: unknown) => {
        throw new Error(`This test needs PostgreSQL at DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
      });
      a = await createTestApp({ demo: true, config, db: handle });
      b = await createTestApp({ config });
      expect(a.dbHandle).not.toBe(b.dbHandle);
      expect(a.app.services.cacheBus.kind).toBe('postgres');
      expect(a.app.services.cacheBus.listening).toBe(true);
      expect(b.app.services.cacheBus.listening).toBe(true);
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
      await a?.dbHandle.close();
    });

    const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

    it('a logout on one instance is refused by the other at once (its lookup was cached for 60 s)', async () => {
      const user = await a.createUser();
      const session = await a.login(user.username, user.password);
      const control = await a.login(user.username, user.password);
      expect((await b.get(API_PATHS.verify, session.headers)).statusCode).toBe(200);
      expect((await b.get(API_PATHS.verify, control.headers)).statusCode).toBe(200);

      // Control: a revocation nobody announces (a direct write) is not seen by B within its cache time.
      await a.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sidOf(control.token)));
      expect((await b.get(API_PATHS.verify, control.headers)).statusCode).toBe(200);

      expect((await a.post(API_PATHS.logout, {}, session.headers)).statusCode).toBe(200);
      await delivered(() => refusedOn(b, session));
      expect((await b.get(API_PATHS.verify, session.headers)).statusCode).toBe(401);
    });

    it('ending a user\'s sessions in the Admin area of one instance is refused by the other at once', async () => {
      const admin = await a.createUser({ roles: { Admin: 'write', Content: 'write' }, prefix: 'mi-admin' });
      const target = await a.createUser({ prefix: 'mi-target' });
      const adminSession = await a.login(admin.username, admin.password);
      const targetSession = await b.login(target.username, target.password);
      expect((await b.get(API_PATHS.verify, targetSession.headers)).statusCode).toBe(200);
      const ended = await a.post(`${API_PATHS.admin}/staff/${target.id}/sessions/end`, {}, adminSession.headers);
      expect(ended.statusCode).toBe(200);
      await delivered(() => refusedOn(b, targetSession));
      expect((await b.get(API_PATHS.verify, targetSession.headers)).statusCode).toBe(401);
    });

    it('a brand save on one instance shows on the other at once (its service cache holds 60 s)', async () => {
      const { site, siteId, identifier, writer, reader } = await ownSite();
      const read = async () => {
        const res = await b.get(`${API_PATHS.appcmsNetworkData}/${site}/brand/${identifier}`, reader.headers);
        expect(res.statusCode).toBe(200);
        return res.json<{ logoUrl: string }>().logoUrl;
      };
      expect(await read()).toBe(`/${identifier}-logo.png`);

      // Control: a write nobody announces (SQL) is not seen by B within its cache time.
      const [network] = await a.db.select({ id: networks.id }).from(networks).where(eq(networks.identifier, identifier));
      await a.db.update(networkBrands).set({ iconUrl: '/sql-icon.png' }).where(eq(networkBrands.networkId, network!.id));
      const before = await b.get(`${API_PATHS.appcmsNetworkData}/${site}/brand/${identifier}`, reader.headers);
      expect(before.json<{ iconUrl: string }>().iconUrl).toBe('/icon.png');

      const url = `${APPCMS_PATHS.brand}/${site}/${identifier}`;
      const brand = (await a.get(url, writer.headers)).json<AppcmsBrand>();
      const saved = await a.inject({ method: 'PUT', url, payload: { ...brand, logoUrl: '/saved-on-a.png' }, headers: writer.headers });
      expect(saved.statusCode).toBe(200);
      await delivered(async () => (await serviceCacheOf(b.db).snapshot(siteId, async () => undefined)) === undefined);
      expect(await read()).toBe('/saved-on-a.png');
    });

    it('while an instance\'s listener is cut off it answers from the database (no cache); once it has reconnected it caches again', async () => {
      const user = await a.createUser({ prefix: 'mi-listener' });
      const session = await b.login(user.username, user.password);
      const bus = b.app.services.cacheBus;
      const pid = bus.listenerPid;
      expect(pid).toBeGreaterThan(0);
      expect(await refusedOn(b, session)).toBe(false);
      await a.dbHandle.db.execute(sql`SELECT pg_terminate_backend(${pid})`);
      await until(() => !bus.listening, 'the instance did not notice its listener was cut off within 2 s');
      // A revocation nobody can announce to B now (a direct write): B, not caching, sees it anyway.
      await a.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sidOf(session.token)));
      expect(await refusedOn(b, session)).toBe(true);
      await until(() => bus.listening && bus.listenerPid !== pid, 'the listener did not reconnect within 5 s', 5_000);
      expect(await refusedOn(b, session)).toBe(true);
      // Listening again: lookups are cached again (a direct write is hidden for the cache time).
      const again = await b.login(user.username, user.password);
      expect(await refusedOn(b, again)).toBe(false);
      await a.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sidOf(again.token)));
      expect(await refusedOn(b, again)).toBe(false);
    });

    it(`the per-token budget (${BUDGET} a minute) is shared: requests split across both instances meet it at ${BUDGET}`, async () => {
      expect(tokenBudgetStore(a.config, a.driver)).toBe('redis');
      const token = await rawLogin(a);
      await expectSharedBudget(token, [a.app, b.app]);
    });

    it('without REDIS_URL the database keeps the shared budget (rate_limits)', async () => {
      const noRedis = { ...a.config, ...config, redisUrl: undefined, seed: false };
      const [c, d] = [await buildApp({ db: a.dbHandle, config: noRedis }), await buildApp({ db: b.dbHandle, config: noRedis })];
      try {
        expect(tokenBudgetStore(noRedis, 'postgres')).toBe('database');
        const token = await rawLogin(a);
        await expectSharedBudget(token, [c, d]);
      } finally {
        await Promise.all([c.close(), d.close()]);
      }
    });

    /**
     * Waits for the notification to reach the other instance: delivery is asynchronous (a few ms; the
     * publishing instance answered only once it was committed), so the check is polled, for at most
     * 2 s, which is far inside the 60 s caches: only the notification can make it true in time.
     */
    async function delivered(check: () => Promise<boolean>): Promise<void> {
      const start = Date.now();
      while (!(await check())) {
        if (Date.now() - start > 2_000) throw new Error('The cache notification did not reach the other instance within 2 s (PostgreSQL LISTEN/NOTIFY)');
        await sleep(5);
      }
    }

    async function until(check: () => boolean, message: string, ms = 2_000): Promise<void> {
      const start = Date.now();
      while (!check()) {
        if (Date.now() - start > ms) throw new Error(message);
        await sleep(10);
      }
    }

    /** The other instance's authenticator refuses the session (its cached lookup was dropped). Counts nothing against the budget. */
    const refusedOn = (t: TestApp, session: Session) => t.app.services.auth.authenticate({ headers: session.headers }).then(() => false, () => true);

    async function rawLogin(t: TestApp): Promise<string> {
      const user = await t.createUser({ prefix: 'mi-budget' });
      const res = await t.post(API_PATHS.login, { username: user.username, password: TEST_SEED_PASSWORD, deviceId: randomUUID() });
      expect(res.statusCode).toBe(200);
      return res.json<LoginResponse>().accessToken!;
    }

    async function expectSharedBudget(token: string, apps: { inject: TestApp['app']['inject'] }[]) {
      const statuses: number[] = [];
      for (let i = 0; i < BUDGET + 4; i++) {
        const res = await apps[i % 2]!.inject({ method: 'GET', url: API_PATHS.loginInfo, headers: { authorization: `Bearer ${token}` } });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, BUDGET)).toEqual(Array(BUDGET).fill(200));
      expect(statuses.slice(BUDGET)).toEqual([429, 429, 429, 429]);
    }

    /** A site of this test with one network (brand, settings, devices), a writer and a reader signed in on A and B. */
    async function ownSite(): Promise<{ site: string; siteId: string; identifier: string; writer: Session; reader: Session }> {
      const template = await a.siteByName(DEMO_SITES.viewlift);
      const name = `multi-${randomUUID().slice(0, 8)}`;
      const { id: _id, signingKey: _key, signingKeyRotatedAt: _at, ...rest } = template;
      void _id; void _key; void _at;
      const [row] = await a.db.insert(sites).values({ ...rest, siteInternalName: name, serviceName: 'Multi TV', managementApiKey: `key-${randomUUID()}` }).returning({ id: sites.id });
      const identifier = `mi-${randomUUID().slice(0, 8)}`;
      const [network] = await a.db.insert(networks).values({ siteId: row!.id, identifier, name: `Multi ${identifier}`, image: '/logo.svg', isActive: true, isDefault: true }).returning();
      const theme: ThemeColors = { primaryColor: '#AA0000', secondaryColor: '#222222', backgroundColor: '#FAFAFA', textColor: '#000000', fontFamily: 'Inter' };
      await a.db.insert(networkBrands).values({ networkId: network!.id, logoUrl: `/${identifier}-logo.png`, iconUrl: '/icon.png', theme, themeOtt: theme, themeApps: theme });
      await a.db.insert(networkSettings).values({ networkId: network!.id, values: { defaultLanguage: 'en' } });
      await a.db.insert(networkDevices).values({ networkId: network!.id, devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' }] });
      const write = await a.createUser({ site: name, roles: { 'App CMS': 'write' }, prefix: 'mi-writer' });
      const look = await a.createUser({ site: name, roles: { 'App CMS': 'read' }, prefix: 'mi-reader' });
      return { site: name, siteId: row!.id, identifier, writer: await a.login(write.username), reader: await b.login(look.username) };
    }
  });
}

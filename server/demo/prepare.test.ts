import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../common/constants';
import { buildApp } from '../app';
import type { DbHandle } from '../db/client';
import { DEMO_ACCOUNTS, DEMO_SITES } from '../db/demo-accounts';
import { ingestionKeys, sites, staffUsers, subscribers } from '../db/schema';
import { DEFAULT_SEED_PASSWORD } from '../env';
import { openIsolatedTestDb, testConfig, TEST_SEED_PASSWORD } from '../test/kit';
import { prepareDemoDatabase, type DemoConfig } from './prepare';

function recordingLog() {
  const lines: { level: 'info' | 'warn' | 'error'; text: string }[] = [];
  const write = (level: 'info' | 'warn' | 'error') => (obj: unknown, msg?: string) => {
    lines.push({ level, text: typeof obj === 'string' ? obj : `${JSON.stringify(obj)} ${msg ?? ''}` });
  };
  return { lines, log: { info: write('info'), warn: write('warn'), error: write('error') } };
}

const fastHash = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
const base: DemoConfig = { seed: true, seedPassword: TEST_SEED_PASSWORD, seedScale: 0, production: false, argon2: fastHash };

async function siteCount(handle: DbHandle): Promise<number> {
  const [row] = await handle.db.select({ n: count() }).from(sites);
  return Number(row?.n ?? 0);
}

// Its own database: these tests start from one without sites, which a shared PostgreSQL database is not.
let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
beforeAll(async () => {
  own = await openIsolatedTestDb();
}, 120_000);
afterAll(async () => {
  await own?.drop();
});

describe('the demo database (server/demo/prepare.ts)', () => {
  it('buildApp writes no demo data: a new database stays without sites', async () => {
    const app = await buildApp({ db: own.handle, config: testConfig() });
    try {
      await app.ready();
      expect(await siteCount(own.handle)).toBe(0);
      const login = await app.inject({ method: 'POST', url: API_PATHS.login, payload: { username: 'admin@demo.test', password: TEST_SEED_PASSWORD, deviceId: 'd' } });
      // The same answer as a wrong password: there is no such account.
      expect(login.statusCode).toBe(400);
      expect(login.json()).toMatchObject({ success: false });
    } finally {
      await app.close();
    }
  });

  it('is skipped, and says why, with SEED=0, in production without SEED_PASSWORD, and with a weak password', async () => {
    const off = recordingLog();
    expect(await prepareDemoDatabase(own.handle, { config: { ...base, seed: false }, log: off.log })).toEqual({ seeded: false, skipped: 'SEED=0' });
    expect(off.lines).toEqual([]);

    const production = recordingLog();
    const refused = await prepareDemoDatabase(own.handle, { config: { ...base, production: true, seedPassword: undefined }, log: production.log });
    expect(refused).toEqual({ seeded: false, skipped: 'Demo seed skipped: NODE_ENV=production and SEED_PASSWORD is not set.' });
    expect(production.lines).toEqual([{ level: 'warn', text: refused.skipped }]);

    const weak = recordingLog();
    const tooWeak = await prepareDemoDatabase(own.handle, { config: { ...base, seedPassword: 'password' }, log: weak.log });
    expect(tooWeak).toEqual({ seeded: false, skipped: 'Demo seed skipped: SEED_PASSWORD does not meet the password complexity rule.' });
    expect(weak.lines).toEqual([{ level: 'warn', text: tooWeak.skipped }]);

    expect(await siteCount(own.handle)).toBe(0);
  });

  it('seeds the demo sites, accounts and (SEED_SCALE > 0) the world with its ingestion keys once; a second start seeds nothing', async () => {
    const first = recordingLog();
    expect(await prepareDemoDatabase(own.handle, { config: { ...base, seedScale: 0.02 }, log: first.log })).toEqual({ seeded: true });
    expect(await siteCount(own.handle)).toBe(2);
    const [accounts] = await own.handle.db.select({ n: count() }).from(staffUsers);
    expect(Number(accounts?.n)).toBe(DEMO_ACCOUNTS.length);
    const [viewlift] = await own.handle.db.select({ id: sites.id }).from(sites).where(eq(sites.siteInternalName, DEMO_SITES.viewlift));
    const [viewers] = await own.handle.db.select({ n: count() }).from(subscribers).where(eq(subscribers.siteId, viewlift!.id));
    expect(Number(viewers?.n)).toBeGreaterThan(0);
    const [keys] = await own.handle.db.select({ n: count() }).from(ingestionKeys);
    expect(Number(keys?.n)).toBe(2);
    // Outside production only the documented demo key of viewlift-demo is printed (README).
    expect(first.lines.filter((line) => line.level === 'warn').map((line) => line.text))
      .toEqual([`Ingestion key of ${DEMO_SITES.viewlift} (POST /v1/events, header x-ingestion-key): ik_demo_${DEMO_SITES.viewlift}`]);
    expect(first.lines).toContainEqual({ level: 'info', text: 'Demo data seeded (see docs/demo-accounts.md).' });

    const again = recordingLog();
    expect(await prepareDemoDatabase(own.handle, { config: { ...base, seedPassword: DEFAULT_SEED_PASSWORD, seedScale: 0.02 }, log: again.log })).toEqual({ seeded: false });
    expect(again.lines).toEqual([]);
    const [after] = await own.handle.db.select({ n: count() }).from(subscribers).where(eq(subscribers.siteId, viewlift!.id));
    expect(after?.n).toBe(viewers?.n);

    // The accounts sign in with the seed password through an app built on the prepared database.
    const app = await buildApp({ db: own.handle, config: testConfig() });
    try {
      const login = await app.inject({ method: 'POST', url: API_PATHS.login, payload: { username: 'admin@demo.test', password: TEST_SEED_PASSWORD, deviceId: 'd' } });
      expect(login.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

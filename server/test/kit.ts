/**
 * The server tests' kit. `createTestApp()` picks the driver (PostgreSQL when DATABASE_URL is set,
 * else in-memory PGlite), migrates, and returns the Fastify app plus helpers; `createTestApp({ demo:
 * true })` also prepares the demo database (server/demo/prepare.ts: the demo sites and accounts,
 * password TEST_SEED_PASSWORD, no viewers' world) as `npm start` does, since buildApp seeds nothing.
 * Create one per test FILE (beforeAll); PGlite starts in ~2 s.
 *
 * On PostgreSQL every test file shares one fresh database per run, so tests that change state
 * create their own users with `createUser()` (unique names and phone numbers) rather than
 * changing the demo accounts.
 */
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyPluginAsync, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { API_PATHS } from '../../common/constants';
import type { LoginResponse, OutboxMessage, Roles, SiteProfile } from '../../common/contract';
import { buildApp } from '../app';
import { MIGRATIONS_FOLDER, openDb, type Db, type DbHandle } from '../db/client';
import { DEMO_SITES } from '../db/demo-accounts';
import { sites, staffUsers } from '../db/schema';
import { queryRows } from '../db/seed-world';
import type { LoginThrottleRules, RateLimitTable } from '../domain/rate-limit';
import { loadConfig, type ServerConfig } from '../env';
import { DEV_OUTBOX_TOKEN_HEADER } from '../http/dev-routes';
import type { IngestConfig } from '../domain/ingest-pipeline';

export const TEST_SEED_PASSWORD = 'Test!Seed2024';

/** The management GraphQL's serviceGet with every field the AppCMS pages read (networks and service-cache tests). */
export const SERVICE_GET = `query serviceGet($site: String!) {
  serviceGet(site: $site) {
    id siteInternalName isLaunched serviceName serviceType serviceTypes templateName languageCode
    forceLogin isMonetizationModelEnabled domainName siteBaseUrl backendUrl
    networks { name identifier image isActive isDefault }
  }
}`;

/** Rate limits high enough that ordinary tests never meet them (the rate-limit test uses the defaults). */
export const RELAXED_RATE_LIMITS: RateLimitTable = Object.fromEntries(
  (['login', 'generateOtp', 'verifyOtp', 'forgotPassword', 'resetPassword'] as const).map((action) => [
    action,
    { perUsername: { limit: 1_000_000, windowSeconds: 900 }, perIp: { limit: 1_000_000, windowSeconds: 900 } },
  ]),
) as RateLimitTable;

/** No back-off and no failure cap in ordinary tests (server/security-lockout.test.ts uses the defaults). */
const RELAXED_LOGIN_THROTTLE: LoginThrottleRules = {
  pair: { freeAttempts: 1_000_000, baseSeconds: 1, maxSeconds: 1 },
  accountFailureCap: 1_000_000,
};

/** A configuration for tests: fast argon2 (production keeps the strong defaults), fixed secrets. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const base = loadConfig({ NODE_ENV: 'test', DATABASE_URL: process.env.DATABASE_URL });
  return {
    ...base,
    dataDir: 'memory://',
    jwtSecret: `test-secret-${randomBytes(16).toString('hex')}`,
    argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    // The demo database of `createTestApp({ demo: true })` and `seedDemo(app)`: accounts only; test
    // files that need the viewers' world call seedSmallWorld (server/db/seed-world.ts).
    seedPassword: TEST_SEED_PASSWORD,
    seed: true,
    seedScale: 0,
    rateLimits: RELAXED_RATE_LIMITS,
    loginThrottle: RELAXED_LOGIN_THROTTLE,
    apiRateLimit: { max: 1_000_000, windowSeconds: 60 },
    // Tests edit session rows directly in the database; the lookup cache has its own test.
    authCacheMs: 0,
    ...overrides,
  };
}

/**
 * A migrated, empty PGlite data directory dumped once per machine (keyed by the migrations) into
 * the OS temp dir: initialising a fresh PGlite costs 2-10 s here, loading the dump about 1 s.
 */
export async function pgliteTemplate(): Promise<Blob | undefined> {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const full = join(MIGRATIONS_FOLDER, file);
    if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
  }
  const key = hash.digest('hex').slice(0, 16);
  const path = join(tmpdir(), `cms-tools-pglite-template-${key}.tar`);
  const lock = `${path}.lock`;
  const load = () => new Blob([readFileSync(path)]);
  if (existsSync(path)) return load();
  let fd: number | undefined;
  try {
    fd = openSync(lock, 'wx');
  } catch {
    // Another test file is building it: wait for it (a stale lock older than 2 min is ignored).
    for (let i = 0; i < 240 && !existsSync(path); i++) {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) break;
      } catch {
        break;
      }
      await sleep(250);
    }
    return existsSync(path) ? load() : undefined;
  }
  try {
    const handle = await openDb({ dataDir: 'memory://' });
    const dump = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, path);
    return load();
  } finally {
    closeSync(fd);
    try { unlinkSync(lock); } catch { /* already gone */ }
  }
}

/**
 * A database of this test file alone, for tests that assert facts about the demo sites' whole data:
 * on PostgreSQL every test file shares DATABASE_URL's database (and its demo sites, which other files
 * change while they run), so this creates a new database beside it, dropped by `drop()`; on PGlite
 * every file has its own in-memory database anyway.
 */
/**
 * A database of its own on the PostgreSQL server of DATABASE_URL (created now, dropped by `drop`),
 * for a test whose writes or counters must not meet other files' in the run's shared database.
 * Empty, or with `template` a copy of that database (which nobody may be connected to).
 */
export async function isolatedDatabaseUrl(databaseUrl: string, options: { template?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl);
  const name = `${url.pathname.slice(1)}_own_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    if (!options.template) {
      await admin.query(`CREATE DATABASE ${name}`);
    } else {
      // Another file copying the template at the same moment can make PostgreSQL refuse ("being
      // accessed by other users"): try again shortly.
      for (let attempt = 1; ; attempt++) {
        try {
          await admin.query(`CREATE DATABASE ${name} TEMPLATE ${options.template}`);
          break;
        } catch (error) {
          if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
          await sleep(100 * attempt);
        }
      }
    }
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: databaseUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

export async function openIsolatedTestDb(): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const handle = await openTestDb();
    return { handle, drop: () => handle.close() };
  }
  // A copy of the run's migrated template (scripts/with-fresh-postgres.mjs) when there is one: the
  // migrations below then have nothing left to do.
  const own = await isolatedDatabaseUrl(databaseUrl, { template: process.env.TEST_DATABASE_TEMPLATE || undefined });
  const handle = await openDb({ databaseUrl: own.url });
  return {
    handle,
    async drop() {
      await handle.close();
      await own.drop();
    },
  };
}

/** The database for a test file: PostgreSQL (DATABASE_URL) or an in-memory PGlite from the template. */
export async function openTestDb(): Promise<DbHandle> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) return openDb({ databaseUrl });
  const template = await pgliteTemplate().catch(() => undefined);
  return openDb({ dataDir: 'memory://', loadDataDir: template });
}

export interface Session {
  token: string;
  apiKey: string;
  profile: SiteProfile;
  /** Authorization + xApiKey, as the browser sends them. */
  headers: Record<string, string>;
}

interface TestUserInput {
  site?: string;
  roles?: Roles;
  twoFactorOnLogin?: boolean;
  password?: string;
  prefix?: string;
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
  phoneNumber: string;
}

export interface TestApp {
  app: FastifyInstance;
  dbHandle: DbHandle;
  db: Db;
  driver: DbHandle['driver'];
  config: ServerConfig;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Logs in with a password (no 2FA) and reads login/info for the management key. */
  login(username: string, password?: string, deviceId?: string): Promise<Session>;
  /** Completes a login given an access token (e.g. after OTP verify). */
  sessionFor(token: string): Promise<Session>;
  /** The newest SMS sent to a phone number (from /__dev/outbox). */
  latestSms(phoneNumber: string): Promise<OutboxMessage | undefined>;
  /** The 6-digit code of the newest SMS to a phone number. */
  latestCode(phoneNumber: string): Promise<string | undefined>;
  createUser(input?: TestUserInput): Promise<TestUser>;
  siteByName(name: string): Promise<typeof sites.$inferSelect>;
  close(): Promise<void>;
}

/**
 * A site of its own for a test that asserts whole-site figures (reports, reconciliation): no staff, no
 * networks, UTC; `name` is its internal name (make it unique). Answers the new site's id.
 */
export async function createBareSite(db: Db, name: string): Promise<string> {
  const [site] = await db.insert(sites).values({
    siteInternalName: name, serviceName: name, serviceType: 'SVOD', serviceTypes: ['SVOD'], templateName: 't', languageCode: 'en',
    domainName: `${name}.test`, siteBaseUrl: `https://${name}.test`, backendUrl: `https://api.${name}.test`,
    managementApiKey: `key-${randomUUID()}`, defaultTimezone: 'UTC', cloudProvider: 'aws', profile: {},
  }).returning({ id: sites.id });
  if (!site) throw new Error(`site ${name} was not created`);
  return site.id;
}

/** A site's id with the subscriber and the video its test player events name (firstSubscriberAndVideo). */
export interface SitePlayer {
  id: string;
  subscriberId: string;
  contentId: string;
}

/**
 * The site's first subscriber (the oldest) and first video (by title): what the ingestion tests'
 * player events name. The site needs its viewers' world (seedSmallWorld) first.
 */
export async function firstSubscriberAndVideo(t: Pick<TestApp, 'db' | 'siteByName'>, siteName: string): Promise<SitePlayer> {
  const { id } = await t.siteByName(siteName);
  const [row] = await queryRows<{ subscriber_id: string | null; content_id: string | null }>(t.db, sql`
    SELECT (SELECT id FROM subscribers WHERE site_id = ${id} ORDER BY created_at LIMIT 1) AS subscriber_id,
           (SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'video' ORDER BY title LIMIT 1) AS content_id`);
  if (!row?.subscriber_id || !row.content_id) throw new Error(`site ${siteName} has no subscriber or no video: seed its world first (seedSmallWorld)`);
  return { id, subscriberId: row.subscriber_id, contentId: row.content_id };
}

/** The header that opens the development outbox of an app built with this config. */
export function outboxHeaders(config: Pick<ServerConfig, 'devOutboxToken'>): Record<string, string> {
  return { [DEV_OUTBOX_TOKEN_HEADER]: config.devOutboxToken };
}

/**
 * Prepares the demo database behind an app built by a test (as server/main.ts does at start): the
 * demo sites and accounts when the database has none, with the app's seed password (testConfig:
 * TEST_SEED_PASSWORD).
 */
export async function seedDemo(app: FastifyInstance): Promise<void> {
  await app.services.demo.prepare({ log: app.log });
}

export async function createTestApp(options: {
  config?: Partial<ServerConfig>; staticDir?: string; plugins?: FastifyPluginAsync[]; db?: DbHandle; ingest?: Partial<IngestConfig>;
  onRoute?: (route: RouteOptions) => void;
  /** Prepare the demo database (the demo sites and accounts) as `npm start` does; default none. */
  demo?: boolean;
} = {}): Promise<TestApp> {
  const config = testConfig(options.config);
  const dbHandle = options.db ?? await openTestDb();
  // The in-process ingestion queue unless a test asks for NATS: a NATS_URL in the environment must
  // not make every test file share (and consume each other's) stream.
  const app = await buildApp({
    // Timed ingestion maintenance once a day only: a file that ran past a first tick would drop the raw history
    // older than the retention (the worlds' fixed past dates) under the other tests of a shared
    // database; server/raw-history.test.ts runs it on purpose.
    config, db: dbHandle, staticDir: options.staticDir, plugins: options.plugins, onRoute: options.onRoute,
    ingest: { natsUrl: undefined, maintenanceIntervalMs: 24 * 3_600_000, ...options.ingest },
    // Every answer of every server test must survive its response schema unchanged.
    checkSerialization: true,
  });
  if (options.demo) await seedDemo(app);
  await app.ready();
  const db = dbHandle.db;

  const inject = (opts: InjectOptions) => app.inject(opts);
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: body as Record<string, unknown>, headers });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  async function sessionFor(token: string): Promise<Session> {
    const info = await get(API_PATHS.loginInfo, { authorization: `Bearer ${token}` });
    if (info.statusCode !== 200) throw new Error(`login/info failed: ${info.statusCode} ${info.body}`);
    const profile = info.json<SiteProfile>();
    return { token, apiKey: profile.managementXApiKey, profile, headers: { authorization: `Bearer ${token}`, xapikey: profile.managementXApiKey } };
  }

  async function siteByName(name: string) {
    const [site] = await db.select().from(sites).where(eq(sites.siteInternalName, name)).limit(1);
    if (!site) throw new Error(`no site ${name}`);
    return site;
  }

  async function latestSms(phoneNumber: string) {
    const res = await get(`${API_PATHS.devOutbox}?to=${encodeURIComponent(phoneNumber)}`, outboxHeaders(config));
    return res.json<OutboxMessage[]>()[0];
  }

  return {
    app, dbHandle, db, driver: dbHandle.driver, config, inject, post, get, sessionFor, latestSms,
    async login(username, password = TEST_SEED_PASSWORD, deviceId = randomUUID()) {
      const res = await post(API_PATHS.login, { username, password, deviceId });
      const body = res.json<LoginResponse>();
      if (res.statusCode !== 200 || !body.accessToken) throw new Error(`login of ${username} failed: ${res.statusCode} ${res.body}`);
      return sessionFor(body.accessToken);
    },
    async latestCode(phoneNumber) {
      const sms = await latestSms(phoneNumber);
      return sms ? /\b(\d{6})\b/.exec(sms.body)?.[1] : undefined;
    },
    async createUser(input = {}) {
      const site = await siteByName(input.site ?? DEMO_SITES.viewlift);
      const password = input.password ?? TEST_SEED_PASSWORD;
      const username = `${input.prefix ?? 'user'}-${randomUUID().slice(0, 12)}@test.local`;
      const phoneNumber = `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
      const [row] = await db.insert(staffUsers).values({
        siteId: site.id,
        username,
        email: username,
        displayName: username,
        passwordHash: await app.services.passwords.hash(password),
        phoneNumber,
        twoFactorOnLogin: input.twoFactorOnLogin ?? false,
        roles: (input.roles ?? { Content: 'write' }) as Record<string, string>,
      }).returning({ id: staffUsers.id });
      if (!row) throw new Error('user insert failed');
      return { id: row.id, username, password, phoneNumber };
    },
    siteByName,
    async close() {
      await app.close();
      if (!options.db) await dbHandle.close();
    },
  };
}

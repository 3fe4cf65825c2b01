/**
 * Server configuration read from the environment in one place. Everything else receives a
 * `ServerConfig` (tests build one with overrides) and never reads process.env itself.
 */
import { INACTIVITY_TIMEOUT_MINUTES_DEFAULT, PUBLIC_ROUTES } from '../common/constants';
import type { RuntimeConfig } from '../common/contract';
import { BlockList, isIP } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import { DEFAULT_LOGIN_THROTTLE, DEFAULT_RATE_LIMITS, type LoginThrottleRules, type RateLimitTable } from './domain/rate-limit';

export interface Argon2Params {
  /** KiB per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

type SmsTransportKind = 'outbox' | 'http' | 'disabled';

export interface ServerConfig {
  nodeEnv: string;
  production: boolean;
  port: number;
  host: string;
  /** PGlite data directory ('memory://' for an in-memory database). */
  dataDir: string;
  /** When set, PostgreSQL over node-postgres instead of PGlite. */
  databaseUrl: string | undefined;
  /** HS256 secret; when absent outside production one is generated and kept in DATA_DIR/.jwt-secret. */
  jwtSecret: string | undefined;
  /** Pepper for OTP hashes; derived from the JWT secret when absent. */
  otpPepper: string | undefined;
  /** Server-side idle limit of a session, the same number the browser's inactivity timer uses. */
  inactivityTimeoutMinutes: number;
  /**
   * How long one instance may reuse a session lookup (ms). A revocation drops the entry on this instance
   * at once and on every other one when the cache bus delivers it (PostgreSQL LISTEN/NOTIFY); this time
   * bounds only changes no instance announces (a script). 0 turns the cache off.
   */
  authCacheMs: number;
  /**
   * How long one instance may reuse a site's service and networks (ms, server/db/service-cache.ts).
   * Writes through any instance invalidate at once (on the others by LISTEN/NOTIFY); writes no instance
   * announces (a script) show within this time. 0 turns it off.
   */
  serviceCacheMs: number;
  /** Site whose profile says encodingService: false (spec §4.1 step 6). */
  encodingDisabledSite: string;
  runtime: RuntimeConfig;
  argon2: Argon2Params;
  sms: { transport: SmsTransportKind; providerUrl: string | undefined; providerToken: string | undefined };
  /** Password of the demo accounts; undefined = the documented local default outside production. */
  seedPassword: string | undefined;
  /** Seed demo data when the database has no sites. */
  seed: boolean;
  /**
   * Volume multiplier of the viewers' world seeded with the demo data (SEED_SCALE, default 1;
   * 0 seeds the sites and accounts without a world). See server/db/seed-world.ts.
   */
  seedScale: number;
  /** Event batches a site may send to POST /v1/events per minute (INGEST_BATCHES_PER_MINUTE). */
  ingestBatchesPerMinute: number;
  /**
   * TRUST_PROXY: how many proxy hops sit in front of the server, or the proxies' addresses (IPs or
   * CIDRs); false = none. Never `true`: trusting every hop lets a client-chosen X-Forwarded-For pick
   * its own address and so its own rate-limit bucket.
   */
  trustProxy: false | number | string[];
  /**
   * ALLOW_DEV_OUTBOX_ON_NETWORK=i-understand: listen on a non-loopback HOST although the SMS
   * transport is the development outbox (its route still answers loopback clients only).
   */
  allowDevOutboxOnNetwork: boolean;
  /**
   * The secret GET /__dev/outbox asks for (header `X-Dev-Outbox-Token` or `?token=`): DEV_OUTBOX_TOKEN
   * (at least 32 characters) or 32 random bytes drawn at each start and printed with the outbox's
   * address. A proxy in front of a development server cannot hand it to a stranger.
   */
  devOutboxToken: string;
  /**
   * Issue 25: the address the console is reached at (PUBLIC_URL, no trailing slash), for links the
   * server sends (set-password SMS); never taken from a request's Host or X-Forwarded-Host. Required
   * when NODE_ENV=production ('' there without it: the start is refused, assertPublicUrl); elsewhere
   * it defaults to http://HOST:PORT of this server's own configuration.
   */
  publicUrl: string;
  rateLimits: RateLimitTable;
  /** Per account+address back-off and the cumulative failure cap (LOGIN_FAILURE_CAP, at most 100). */
  loginThrottle: LoginThrottleRules;
  /** Requests per token per window on authenticated routes and GraphQL (API_RATE_LIMIT_PER_MINUTE). */
  apiRateLimit: { max: number; windowSeconds: number };
  /**
   * REDIS_URL (issue 31): the per-token request counters live in this Redis, shared by every server
   * instance; unset: in the database on PostgreSQL (rate_limits), in memory on the embedded PGlite.
   */
  redisUrl: string | undefined;
  /** Social sign-in (googleLogin / microsoftLogin); null when FIREBASE_PROJECT_ID is not set. */
  firebaseAuth: FirebaseAuthConfig | null;
}

interface FirebaseAuthConfig {
  projectId: string;
  /** FIREBASE_AUTH_EMULATOR_HOST: the Auth emulator's unsigned tokens are accepted (never in production). */
  emulatorHost: string | undefined;
  /** Test seam: the keys ID tokens are verified with (default Google's securetoken JWKS). */
  keys?: JWTVerifyGetKey;
}

/** The server refuses to start in production with the Auth emulator configured. */
export function assertNoEmulatorInProduction(config: Pick<ServerConfig, 'production' | 'firebaseAuth'>): void {
  if (config.production && config.firebaseAuth?.emulatorHost) {
    throw new Error('FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV=production: it would accept unsigned ID tokens.');
  }
}

/** The exact value ALLOW_DEV_OUTBOX_ON_NETWORK must have. */
const ALLOW_DEV_OUTBOX_ON_NETWORK_VALUE = 'i-understand';

/** True when HOST names only this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * The server refuses to start on a non-loopback HOST with the development SMS outbox (codes stored
 * in the database, listed at GET /__dev/outbox) unless ALLOW_DEV_OUTBOX_ON_NETWORK=i-understand.
 */
export function assertDevOutboxNotOnNetwork(config: Pick<ServerConfig, 'host' | 'sms' | 'allowDevOutboxOnNetwork'>): void {
  if (config.sms.transport === 'outbox' && !isLoopbackHost(config.host) && !config.allowDevOutboxOnNetwork) {
    throw new Error(
      `Refusing to listen on HOST=${config.host} with the development SMS outbox: sign-in and reset codes would be kept for anyone who reaches this machine. `
      + `Set SMS_PROVIDER_URL to send real SMS, or listen on 127.0.0.1, or set ALLOW_DEV_OUTBOX_ON_NETWORK=${ALLOW_DEV_OUTBOX_ON_NETWORK_VALUE} if you accept it (GET /__dev/outbox still answers loopback clients only).`,
    );
  }
}

/** Shortest DEV_OUTBOX_TOKEN accepted (a guessable token would reopen the outbox to a proxy's clients). */
const DEV_OUTBOX_TOKEN_MIN_LENGTH = 32;

/**
 * DEV_OUTBOX_TOKEN when set (refused when shorter than 32 characters), else a fresh random one. Read
 * only when the development outbox is in use; otherwise the value is ignored (a random one, never
 * printed nor asked for, stands in).
 */
function devOutboxTokenOf(value: string | undefined): string {
  if (value === undefined || value === '') return randomBytes(32).toString('base64url');
  if (value.length < DEV_OUTBOX_TOKEN_MIN_LENGTH) {
    throw new Error(`DEV_OUTBOX_TOKEN must be at least ${DEV_OUTBOX_TOKEN_MIN_LENGTH} characters long (unset it to get a random one at each start).`);
  }
  return value;
}

/** PUBLIC_URL checked and without its trailing slash; unset: '' in production, else http://HOST:PORT. */
export function publicUrlOf(value: string | undefined, production: boolean, host: string, port: number): string {
  const text = value?.trim();
  if (!text) {
    if (production) return '';
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://cms.example.com (got "${text}").`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username || url.password) {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL without query, fragment or credentials, such as https://cms.example.com (got "${text}").`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The server refuses to start in production without PUBLIC_URL (links sent by SMS are built on it). */
export function assertPublicUrl(config: Pick<ServerConfig, 'production' | 'publicUrl'>): void {
  if (config.production && !config.publicUrl) {
    throw new Error('PUBLIC_URL must be set when NODE_ENV=production (for example PUBLIC_URL=https://cms.example.com): set-password links sent by SMS are built on it, never on the request\'s Host header.');
  }
}

/** The line startup prints about SMS delivery. */
export function describeSmsTransport(config: Pick<ServerConfig, 'production' | 'sms'>): string {
  switch (config.sms.transport) {
    case 'http': return `SMS transport: http provider ${new URL(config.sms.providerUrl ?? 'http://invalid').host}`;
    case 'disabled': return 'SMS transport: disabled (no SMS is sent; set SMS_PROVIDER_URL)';
    case 'outbox': return config.production
      ? 'SMS transport: DEVELOPMENT OUTBOX (codes are stored in the database, not sent; no route lists them in production)'
      : 'SMS transport: DEVELOPMENT OUTBOX (codes are not sent; GET /__dev/outbox lists them to loopback clients that send its token)';
  }
}

/** TRUST_PROXY: unset/0/false = none; a hop count; or a comma-separated list of proxy IPs or CIDRs. */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = list(raw);
  const bad = entries.filter((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return true;
    if (bits === undefined) return false;
    return !/^\d+$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128);
  });
  if (bad.length > 0 || entries.length === 0) {
    throw new Error(`TRUST_PROXY must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses (e.g. 10.0.0.1,10.0.0.0/8); got ${JSON.stringify(raw)}. "true" (trust every hop) is not accepted.`);
  }
  return entries;
}

const PRIVATE_NETWORKS = new BlockList();
for (const [net, bits] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const) PRIVATE_NETWORKS.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE_NETWORKS.addSubnet(net, bits, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  const version = isIP(v4);
  return version !== 0 && PRIVATE_NETWORKS.check(v4, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Fastify's trustProxy from TRUST_PROXY. A hop count trusts that many hops, each only when it is a
 * loopback or private address (a proxy in front of us), so a client that reaches the server
 * directly cannot choose its address with X-Forwarded-For. A list trusts exactly those proxies.
 */
export function fastifyTrustProxy(trust: ServerConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return trust === 0 ? false : (address, hop) => hop < trust && isPrivateAddress(address);
  return trust;
}

/** The documented local default password of the demo accounts (never seeded in production). */
export const DEFAULT_SEED_PASSWORD = 'Demo!Pass123';

/** Strong production defaults (OWASP: argon2id, 19 MiB, t=2, p=1 is the minimum; we use 64 MiB, t=3). */
const STRONG_ARGON2: Argon2Params = { memoryCost: 65536, timeCost: 3, parallelism: 1 };

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function int(value: string | undefined, fallback: number, min = 0): number {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n >= min ? n : fallback;
}

function flag(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const inactivityTimeoutMinutes = int(env.INACTIVITY_TIMEOUT_MINUTES, INACTIVITY_TIMEOUT_MINUTES_DEFAULT, 1);
  const excluded = [...new Set([...PUBLIC_ROUTES, ...list(env.INACTIVITY_EXCLUDED_PATHS)])];
  // Social sign-in is on when a Firebase project is named; a missing API key or Microsoft tenant then
  // shows its own message when the button is pressed (spec §8).
  const firebaseProject = env.FIREBASE_PROJECT_ID?.trim() || undefined;
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || undefined;
  const firebase = firebaseProject
    ? {
        apiKey: env.FIREBASE_API_KEY?.trim() ?? '',
        authDomain: env.FIREBASE_AUTH_DOMAIN?.trim() || `${firebaseProject}.firebaseapp.com`,
        projectId: firebaseProject,
        microsoftTenant: env.FIREBASE_MICROSOFT_TENANT?.trim() ?? '',
        emulatorUrl: emulatorHost ? (/^https?:\/\//.test(emulatorHost) ? emulatorHost : `http://${emulatorHost}`) : '',
      }
    : null;
  const smsTransport: SmsTransportKind = env.SMS_PROVIDER_URL
    ? 'http'
    : env.SMS_TRANSPORT === 'outbox' || !production ? 'outbox' : 'disabled';
  return {
    nodeEnv,
    production,
    port: int(env.PORT, 3000, 0),
    host: env.HOST || '127.0.0.1',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    otpPepper: env.OTP_PEPPER || undefined,
    inactivityTimeoutMinutes,
    authCacheMs: int(env.AUTH_CACHE_MS, 1000, 0),
    serviceCacheMs: int(env.SERVICE_CACHE_MS, 5000, 0),
    encodingDisabledSite: env.ENCODING_DISABLED_SITE ?? '',
    runtime: {
      inactivityTimeoutMinutes,
      inactivityExcludedPaths: excluded,
      gaMeasurementId: env.GA_MEASUREMENT_ID ?? '',
      analyticsAllowedSites: list(env.ANALYTICS_ALLOWED_SITES),
      encodingDisabledSite: env.ENCODING_DISABLED_SITE ?? '',
      inspect: flag(env.STATELY_INSPECT),
      firebase,
    },
    argon2: {
      memoryCost: int(env.ARGON2_MEMORY_COST, STRONG_ARGON2.memoryCost, 1024),
      timeCost: int(env.ARGON2_TIME_COST, STRONG_ARGON2.timeCost, 1),
      parallelism: int(env.ARGON2_PARALLELISM, STRONG_ARGON2.parallelism, 1),
    },
    sms: { transport: smsTransport, providerUrl: env.SMS_PROVIDER_URL || undefined, providerToken: env.SMS_PROVIDER_TOKEN || undefined },
    seedPassword: env.SEED_PASSWORD || undefined,
    seed: env.SEED !== '0' && env.SEED !== 'false',
    seedScale: env.SEED_SCALE && Number(env.SEED_SCALE) >= 0 ? Number(env.SEED_SCALE) : 1,
    ingestBatchesPerMinute: int(env.INGEST_BATCHES_PER_MINUTE, 1200, 1),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowDevOutboxOnNetwork: env.ALLOW_DEV_OUTBOX_ON_NETWORK === ALLOW_DEV_OUTBOX_ON_NETWORK_VALUE,
    // Checked only where the development outbox is mounted (server/http/dev-routes.ts devOutboxEnabled:
    // not production, SMS transport 'outbox'): elsewhere nothing reads it, so a short value cannot
    // block a start (issue 37).
    devOutboxToken: !production && smsTransport === 'outbox' ? devOutboxTokenOf(env.DEV_OUTBOX_TOKEN) : devOutboxTokenOf(undefined),
    publicUrl: publicUrlOf(env.PUBLIC_URL, production, env.HOST || '127.0.0.1', int(env.PORT, 3000, 0)),
    rateLimits: DEFAULT_RATE_LIMITS,
    loginThrottle: { ...DEFAULT_LOGIN_THROTTLE, accountFailureCap: Math.min(100, int(env.LOGIN_FAILURE_CAP, DEFAULT_LOGIN_THROTTLE.accountFailureCap, 1)) },
    apiRateLimit: { max: int(env.API_RATE_LIMIT_PER_MINUTE, 1200, 1), windowSeconds: 60 },
    redisUrl: env.REDIS_URL?.trim() || undefined,
    firebaseAuth: firebaseProject ? { projectId: firebaseProject, emulatorHost } : null,
  };
}

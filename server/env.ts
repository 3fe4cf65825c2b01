/**
 * Server configuration read from the environment in one place. Everything else receives a
 * `ServerConfig` (tests build one with overrides) and never reads process.env itself.
 */
import { INACTIVITY_TIMEOUT_MINUTES_DEFAULT, PUBLIC_ROUTES } from '../src/config';
import type { RuntimeConfig } from '../src/api/contract';
import type { JWTVerifyGetKey } from 'jose';
import { DEFAULT_RATE_LIMITS, type RateLimitTable } from './domain/rate-limit';

export interface Argon2Params {
  /** KiB per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export type SmsTransportKind = 'outbox' | 'http' | 'disabled';

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
   * How long one instance may reuse a session lookup (ms). Revocation on the same instance is immediate;
   * on another instance it takes effect within this time. 0 turns the cache off.
   */
  authCacheMs: number;
  /** Site whose profile says encodingService: false (spec §4.1 step 6). */
  encodingDisabledSite: string;
  runtime: RuntimeConfig;
  argon2: Argon2Params;
  sms: { transport: SmsTransportKind; providerUrl: string | undefined; providerToken: string | undefined };
  /** Password of the demo accounts; undefined = the documented local default outside production. */
  seedPassword: string | undefined;
  /** Seed demo data when the database has no sites. */
  seed: boolean;
  trustProxy: boolean;
  rateLimits: RateLimitTable;
  /** Social sign-in (googleLogin / microsoftLogin); null when FIREBASE_PROJECT_ID is not set. */
  firebaseAuth: FirebaseAuthConfig | null;
}

export interface FirebaseAuthConfig {
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

/** The documented local default password of the demo accounts (never seeded in production). */
export const DEFAULT_SEED_PASSWORD = 'Demo!Pass123';

/** Strong production defaults (OWASP: argon2id, 19 MiB, t=2, p=1 is the minimum; we use 64 MiB, t=3). */
export const STRONG_ARGON2: Argon2Params = { memoryCost: 65536, timeCost: 3, parallelism: 1 };

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
    trustProxy: flag(env.TRUST_PROXY),
    rateLimits: DEFAULT_RATE_LIMITS,
    firebaseAuth: firebaseProject ? { projectId: firebaseProject, emulatorHost } : null,
  };
}

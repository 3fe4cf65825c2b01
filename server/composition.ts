/**
 * Wires the domain services together for one database and one configuration. buildApp creates
 * one `Services` and decorates the Fastify instance with it (`app.services`).
 */
import { createHmac } from 'node:crypto';
import { createAccountRepository } from '../db/account-repository';
import { insertAuditEvent } from '../db/audit-repository';
import type { DbHandle } from '../db/client';
import { createOtpRepository } from '../db/otp-repository';
import { insertOutboxMessage } from '../db/outbox-repository';
import { createLoginHistoryRepository } from '../db/login-history-repository';
import { createRateLimitRepository } from '../db/rate-limit-repository';
import { createSessionRepository } from '../db/session-repository';
import { assertNoEmulatorInProduction, type ServerConfig } from '../env';
import { createAuditLog, type AuditLog } from './audit';
import { createAuthenticator, type Authenticator } from './auth-context';
import { createLocalCacheBus, type CacheBus } from '../db/cache-bus';
import { createAuthFlows, type AuthFlows } from './auth-flows';
import { createJobQueue, type JobQueue } from './jobs';
import { createLoginThrottle } from './login-throttle';
import { createOtpService, type OtpService } from './otp';
import { createPasswordHasher, type PasswordHasher } from './passwords';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { serviceCacheOf } from '../db/service-cache';
import { createSessionStore, type SessionStore } from './sessions';
import { createFirebaseTokenVerifier } from './firebase-token';
import { createSocialLogin, type SocialLogin } from './social-login';
import { createDisabledTransport, createHttpSmsTransport, createOutboxTransport, type SmsTransport } from './sms';
import { createTokenService, resolveJwtSecret, type TokenService } from './tokens';
import { withVerifiedTokenCache } from './verified-tokens';

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface Services {
  dbHandle: DbHandle;
  db: DbHandle['db'];
  config: ServerConfig;
  tokens: TokenService;
  sessions: SessionStore;
  passwords: PasswordHasher;
  otp: OtpService;
  sms: SmsTransport;
  limiter: RateLimiter;
  audit: AuditLog;
  auth: Authenticator;
  authFlows: AuthFlows;
  socialLogin: SocialLogin;
  /** Work done after the answer (SMS sends); buildApp waits for it on close. */
  jobs: JobQueue;
  /** Cache invalidations across instances (server/db/cache-bus.ts); local on PGlite. */
  cacheBus: CacheBus;
}

export function createServices(input: { dbHandle: DbHandle; config: ServerConfig; log: Logger; sms?: SmsTransport; cacheBus?: CacheBus }): Services {
  const { dbHandle, config, log } = input;
  assertNoEmulatorInProduction(config);
  const db = dbHandle.db;
  const cacheBus = input.cacheBus ?? createLocalCacheBus();
  serviceCacheOf(db).setTtl(config.serviceCacheMs);
  serviceCacheOf(db).attachBus(cacheBus);
  const jwtSecret = resolveJwtSecret({
    jwtSecret: config.jwtSecret,
    production: config.production,
    dataDir: config.dataDir,
    persistent: dbHandle.driver === 'pglite' || !config.production,
  });
  const otpPepper = config.otpPepper ?? createHmac('sha256', jwtSecret).update('cms-tools otp pepper').digest('base64url');
  const tokens = withVerifiedTokenCache(createTokenService(jwtSecret));
  const sessionRows = createSessionRepository(db);
  const accounts = createAccountRepository(db);
  const sessions = createSessionStore(sessionRows, { idleMinutes: config.inactivityTimeoutMinutes });
  const passwords = createPasswordHasher(config.argon2);
  const limiter = createRateLimiter(createRateLimitRepository(db));
  const otp = createOtpService(createOtpRepository(db), limiter, otpPepper);
  const sms = input.sms ?? (config.sms.transport === 'http' && config.sms.providerUrl
    ? createHttpSmsTransport(config.sms.providerUrl, config.sms.providerToken)
    : config.sms.transport === 'outbox' ? createOutboxTransport((to, body) => insertOutboxMessage(db, to, body)) : createDisabledTransport());
  const audit = createAuditLog((values) => insertAuditEvent(db, values), (error) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'audit write failed'));
  const auth = createAuthenticator({ store: sessionRows, tokens, sessions, cacheMs: config.authCacheMs, bus: cacheBus });
  const jobs = createJobQueue(log);
  const loginHistory = createLoginHistoryRepository(db);
  const loginThrottle = createLoginThrottle({
    limiter, rules: config.loginThrottle, perIp: () => config.rateLimits.login.perIp,
    signedInBefore: (userId, ip, deviceId) => loginHistory.signedInBefore(userId, ip, deviceId),
  });
  const authFlows = createAuthFlows({
    accounts, tokens, sessions, passwords, otp, sms, limiter, audit, auth, jobs, loginThrottle,
    rateLimits: config.rateLimits,
    encodingDisabledSite: config.encodingDisabledSite,
    log,
  });
  const verifier = config.firebaseAuth
    ? createFirebaseTokenVerifier({ projectId: config.firebaseAuth.projectId, emulator: Boolean(config.firebaseAuth.emulatorHost), keys: config.firebaseAuth.keys })
    : null;
  const socialLogin = createSocialLogin({ accounts, flows: authFlows, audit, limiter, verifier });
  return { dbHandle, db, config, tokens, sessions, passwords, otp, sms, limiter, audit, auth, authFlows, socialLogin, jobs, cacheBus };
}

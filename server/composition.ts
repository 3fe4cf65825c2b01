/**
 * The composition root (issue 26): `buildServices` builds every repository and every domain service
 * once, for one database and one configuration; `composeServer` (issue 39) opens (or receives) the
 * database and wires what runs beside the requests around them: the cache bus, the housekeeping
 * purge, the ingestion pipeline and the content scheduler, with one `close` that stops them in order.
 * buildApp (server/app.ts) takes that composed server and decorates the Fastify instance with its
 * services (`app.services`); routes (server/http) and resolvers (server/graphql) read what they need
 * from there and never build a repository themselves (lint: they never import server/db/). Domain
 * modules (server/domain/) declare the ports they need; only this file hands them the repositories.
 */
import { createHmac } from 'node:crypto';
import { bindDb, type BoundToDb } from './db/bound-store';
import { createAvailabilityStore, createContentCreateStore, createContentStore, createIngestStore, createMonetizationStore, createReportReads, createRevisionHistoryStore, createSchedulerStore } from './db/stores';
import { createAccountRepository } from './db/account-repository';
import { createAppcmsRepository } from './db/appcms-repository';
import { createNetworkRepository } from './db/network-repository';
import { deadLetterCounts, siteOfIngestionKey, siteRoster } from './db/ingest-repository';
import { listOutbox } from './db/outbox-repository';
import { networkIdOf } from './db/report-repository';
import { createQoeRepository } from './db/qoe-repository';
import { createQoeService, type QoeService } from './domain/qoe';
import { refreshRecentSubscriptions } from './db/rollups';
import { createStaffAdminRepository } from './db/staff-admin-repository';
import { createSubscriberRepository } from './db/support-repository';
import type { AppcmsDeps } from './domain/appcms';
import { createContentService, type ContentService } from './domain/content';
import { createContentCreateService, type ContentCreateService } from './domain/content-create';
import { createContentAvailability, type ContentAvailabilityService } from './domain/content-availability';
import { createContentScheduler, loadSchedulerConfig, type ContentScheduler, type ContentSchedulerConfig } from './domain/content-scheduler';
import { createMonetization, type Monetization } from './domain/monetization';
import type { NetworkRepository } from './domain/networks';
import { createOwnSessions, type OwnSessions } from './domain/own-sessions';
import { buildReport } from './domain/reports/build';
import { createStaffAdmin, type StaffAdmin } from './domain/staff-admin';
import type { SupportDeps } from './domain/support';
import { createUploadStorage } from './storage/upload-storage';
import { insertAuditEvent } from './db/audit-repository';
import { createAuditLogRepository } from './db/audit-log-repository';
import { createAuditLogService, type AuditLogService } from './domain/audit-log';
import type { DbHandle } from './db/client';
import { createOtpRepository } from './db/otp-repository';
import { insertOutboxMessage } from './db/outbox-repository';
import { createLoginHistoryRepository } from './db/login-history-repository';
import { createRateLimitRepository } from './db/rate-limit-repository';
import { createSessionRepository } from './db/session-repository';
import { assertNoEmulatorInProduction, type ServerConfig } from './env';
import { createAuditLog } from './domain/audit';
import { createAuthenticator } from './domain/auth-context';
import { createLocalCacheBus, type CacheBus } from './db/cache-bus';
import { openDb } from './db/client';
import { purgeExpired } from './db/housekeeping';
import { createCacheBus } from './db/pg-cache-bus';
import { openPartitionLeases } from './db/ingest-leases';
import { loadIngestConfig, startIngestPipeline, type IngestConfig, type IngestPipeline } from './domain/ingest-pipeline';
import { createAuthFlows, type AuthFlowDeps, type AuthFlows } from './domain/auth-flows';
import { createJobQueue } from './domain/jobs';
import { createLoginThrottle } from './domain/login-throttle';
import { createOtpService } from './domain/otp';
import { createPasswordHasher } from './domain/passwords';
import { createRateLimiter } from './domain/rate-limit';
import { serviceCacheOf } from './db/service-cache';
import { afterCommit, ambientDb } from './db/ambient-transaction';
import { createSessionStore } from './domain/sessions';
import { createFirebaseTokenVerifier } from './domain/firebase-token';
import { createSocialLogin, type SocialLogin } from './domain/social-login';
import { createDisabledTransport, createHttpSmsTransport, createOutboxTransport, type SmsTransport } from './domain/sms';
import { createTokenService, resolveJwtSecret } from './domain/tokens';
import { withVerifiedTokenCache } from './domain/verified-tokens';
import { createHistory, type History } from './domain/history';
import { prepareDemoDatabase } from './demo/prepare';
import { buildMediaServices, type MediaServices } from './composition-media';
import { loadMediaConfig, type MediaConfig } from './domain/media-config';
import { buildQoeAlertServices, loadQoeAlertConfig, type QoeAlertConfig, type QoeAlertServices } from './composition-qoe-alerts';

/** The ingestion repository's functions the producer route calls (server/db/ingest-repository.ts). */
const INGESTION = { deadLetterCounts, siteOfIngestionKey, siteRoster };

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * Every service, built once. From the sign-in flows' dependencies (server/domain/auth-flows.ts): the
 * token service, session store, password hasher, OTP service, SMS transport, rate limiter, audit log,
 * authenticator, the staff accounts (by username, authenticator-app rows, the site's requirement) and
 * the work done after the answer (SMS sends; buildApp waits for it on close).
 */
export interface Services extends Pick<AuthFlowDeps, 'tokens' | 'sessions' | 'passwords' | 'otp' | 'sms' | 'limiter' | 'audit' | 'auth' | 'jobs' | 'accounts'> {
  /** Which database this server runs on (the per-token request budget's store depends on it); the database itself stays here. */
  driver: DbHandle['driver'];
  /**
   * The demo database (server/demo/prepare.ts): the demo sites and accounts on a database without
   * sites, with this server's seed settings and password hasher; `artwork` also stores the viewers'
   * world's artwork in the upload store (npm start).
   */
  demo: { prepare(input: { log: Logger; artwork?: boolean }): ReturnType<typeof prepareDemoDatabase> };
  config: ServerConfig;
  authFlows: AuthFlows;
  socialLogin: SocialLogin;
  /** Cache invalidations across instances (server/db/cache-bus.ts); local on PGlite. */
  cacheBus: CacheBus;
  /** Sites, networks and their stored data (through the service cache). */
  networks: NetworkRepository;
  /** The AppCMS editors' repositories and the upload storage (server/domain/appcms.ts). */
  appcms: AppcmsDeps;
  /** The Admin area (server/domain/staff-admin.ts). */
  staffAdmin: StaffAdmin;
  /** The audit log in words (issue 28, Admin › Audit). */
  auditLog: AuditLogService;
  /** The signed-in user's own sessions. */
  ownSessions: OwnSessions;
  /** The content library. */
  content: ContentService;
  /** Creating content and its artwork, an item's family (issue 29). */
  contentCreate: ContentCreateService;
  /** Publish at / unpublish at jobs on pg-boss (issue 29); buildApp starts and stops it. */
  contentScheduler: ContentScheduler;
  /** Availability, country groups, licences, the all-matching bulk status (issue 29). */
  contentAvailability: ContentAvailabilityService;
  /** Plans, plan groups, offers, coupons and the monetization settings. */
  monetization: Monetization;
  /** One object's history and the restore of a revision (issue 28, server/domain/history.ts). */
  history: History;
  /** Customer Support's subscriber search, pages and actions. */
  support: SupportDeps;
  /** The reporting service: a network's id by identifier, and a report's answer. */
  reports: {
    networkIdOf(siteId: string, identifier: string): Promise<string | null>;
    build(report: Parameters<typeof buildReport>[0], ctx: Omit<Parameters<typeof buildReport>[1], 'reads'>): ReturnType<typeof buildReport>;
  };
  /** The ingestion key's site (cached), the dead letters' counts and the simulator's roster (server/http/ingest-routes.ts). */
  ingestion: BoundToDb<typeof INGESTION>;
  /** The development SMS outbox (server/http/dev-routes.ts). */
  outbox: { list(to: string | undefined, limit: number): ReturnType<typeof listOutbox> };
  /** Issue 40: videos (server/composition-media.ts): the rules, their store and storage, the encode jobs. */
  media: MediaServices;
  /** Issue 41: alert rules, incidents, alert settings, saved views, and the evaluation and delivery loops (server/composition-qoe-alerts.ts). */
  qoeAlerts: QoeAlertServices;
  /** Issue 41: the QoE pages' reads over raw playback sessions (values, views, one view; server/domain/qoe.ts). */
  qoe: QoeService;
}

export function buildServices(input: { dbHandle: DbHandle; config: ServerConfig; log: Logger; sms?: SmsTransport; cacheBus?: CacheBus; contentJobs?: ContentSchedulerConfig; media?: MediaConfig; qoeAlerts?: QoeAlertConfig }): Services {
  const { dbHandle, config, log } = input;
  assertNoEmulatorInProduction(config);
  // Issue 37: the services' db joins an Undo's or a Restore's one transaction (server/db/ambient-transaction.ts).
  const db = ambientDb(dbHandle.db);
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
  const networks = createNetworkRepository(db);
  const contentScheduler = createContentScheduler({ dbHandle, store: createSchedulerStore(dbHandle.db), log, config: input.contentJobs ?? loadSchedulerConfig(process.env) });
  const contentAvailability = createContentAvailability({ store: createAvailabilityStore(db), scheduler: contentScheduler, log });
  const staffAdminRows = createStaffAdminRepository(db, { idleMs: config.inactivityTimeoutMinutes * 60_000 });
  // One upload store: the brand images and the content artwork (served by the AppCMS files route).
  const uploadStorage = createUploadStorage(config.dataDir);
  const appcms: AppcmsDeps = { networks, store: createAppcmsRepository(db), storage: uploadStorage };
  const media = buildMediaServices({ db, jobDb: dbHandle, config: input.media ?? loadMediaConfig(process.env, config.dataDir, config.encodingDisabledSite), secret: jwtSecret, log });
  const contentStore = createContentStore(db);
  const content = createContentService({
    store: contentStore, audit, storage: uploadStorage,
    hooks: {
      assertPublishable: async (reads, siteId, ids, at, timeZone) => {
        await contentAvailability.assertPublishable(reads, siteId, ids, at, timeZone);
        // The video rule reads outside the write's transaction: only where there is none (an item's own
        // publish). Inside one (the bulk status) another connection would wait on PGlite's one: the bulk
        // status asks assertVideosPublishable below before its transaction instead.
        if (reads === contentStore) await media.service.assertPublishable(siteId, ids);
      },
      assertVideosPublishable: (siteId, ids) => media.service.assertPublishable(siteId, ids),
      // The write is committed: a failed job sync is repaired by the scheduler's reconcile at its next start.
      afterWrite: (siteId, ids) => afterCommit(async () => {
        for (const id of ids) {
          await contentScheduler.sync(siteId, id).catch((error: unknown) => log.warn({ contentId: id, err: error instanceof Error ? error.message : String(error) }, 'availability job sync failed'));
        }
      }),
    },
  });
  const monetization = createMonetization(createMonetizationStore(db));
  const reportReads = createReportReads(db);
  // Issue 41: raw playback sessions for the QoS report's filters and breakdowns and the QoE pages.
  const qoeReads = createQoeRepository(db);
  const support: SupportDeps = { store: createSubscriberRepository(db), limiter };
  return {
    driver: dbHandle.driver,
    demo: { prepare: ({ log: demoLog, artwork }) => prepareDemoDatabase(dbHandle, { config, passwords, log: demoLog, storage: artwork ? uploadStorage : undefined }) },
    config, tokens, sessions, passwords, otp, sms, limiter, audit, auth, authFlows, socialLogin, jobs, cacheBus,
    accounts,
    networks,
    appcms,
    auditLog: createAuditLogService(createAuditLogRepository(db)),
    staffAdmin: createStaffAdmin({ repo: staffAdminRows, passwords, sms, audit, auth, log, publicUrl: config.publicUrl }),
    // The Admin area's session queries (same rules of "active"), limited there to the caller's own id.
    ownSessions: createOwnSessions({ repo: staffAdminRows, audit, auth }),
    content,
    contentCreate: createContentCreateService({ store: createContentCreateStore(db), storage: uploadStorage }),
    contentScheduler,
    contentAvailability,
    monetization,
    history: createHistory({ revisions: createRevisionHistoryStore(db), appcms, monetization, content, support, media: media.service }),
    support,
    reports: {
      networkIdOf: (siteId, identifier) => networkIdOf(db, siteId, identifier),
      build: (report, ctx) => buildReport(report, { ...ctx, reads: reportReads, qoe: qoeReads }),
    },
    ingestion: bindDb(db, INGESTION),
    outbox: { list: (to, limit) => listOutbox(db, to, limit) },
    media,
    qoe: createQoeService({ store: { ...qoeReads, networkIdOf: (siteId, identifier) => networkIdOf(db, siteId, identifier) } }),
    qoeAlerts: buildQoeAlertServices({ db, analyticsAllowedSites: config.runtime.analyticsAllowedSites, config: input.qoeAlerts ?? loadQoeAlertConfig(process.env), log }),
  };
}

/** The running server's parts around its requests (composeServer). */
export interface ComposedServer {
  services: Services;
  /** Player events (issue 31): producer, consumers and fold worker. */
  ingest: IngestPipeline;
  /**
   * Before the database closes: the cache bus (after its last NOTIFY), the SMS sends queued after
   * their answers, the ingestion pipeline, the content scheduler. buildApp runs it on preClose.
   */
  stop(): Promise<void>;
  /** The database, when composeServer opened it, and the housekeeping timer (buildApp's onClose). */
  close(): Promise<void>;
}

export interface ComposeInput {
  config: ServerConfig;
  /** The environment the content jobs' and the ingestion's settings are read from. */
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** An already opened (and migrated) database; the caller keeps ownership. */
  db?: DbHandle;
  /** SMS transport override (tests). */
  sms?: SmsTransport;
  /** Overrides of the ingestion pipeline's settings (NATS_URL, INGEST_*; server/domain/ingest-pipeline.ts). */
  ingest?: Partial<IngestConfig>;
}

/** Every 10 minutes: the housekeeping purge and the renewal price moves (any number of instances may run them; idempotent). */
const HOUSEKEEPING_MS = 10 * 60_000;

/**
 * Opens (or receives) the database, builds the services over it and starts what runs beside the
 * requests. A step that fails undoes the steps before it (what it opened is closed) and throws.
 */
export async function composeServer(input: ComposeInput): Promise<ComposedServer> {
  const { config, log } = input;
  const dbHandle = input.db ?? await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  /** Undo of the steps done so far, last first. */
  const undo: (() => Promise<void>)[] = input.db ? [] : [() => dbHandle.close()];
  const unwind = async () => {
    for (const step of undo.reverse()) await step();
  };
  try {
    // Cache invalidations across instances (issue 31): LISTEN/NOTIFY on PostgreSQL, local on PGlite.
    const cacheBus = await createCacheBus(dbHandle, { onError: (message) => log.warn(message) });
    undo.push(() => cacheBus.close());
    const services = buildServices({ dbHandle, config, log, sms: input.sms, cacheBus, contentJobs: loadSchedulerConfig(input.env), media: loadMediaConfig(input.env, config.dataDir, config.encodingDisabledSite), qoeAlerts: loadQoeAlertConfig(input.env) });
    const ingest = await startIngestPipeline({ store: createIngestStore(dbHandle.db), log, config: { ...loadIngestConfig(input.env), ...input.ingest }, leases: dbHandle.connectionString ? (stream, onLost) => openPartitionLeases(dbHandle.connectionString!, stream, onLost) : undefined });
    undo.push(() => ingest.close());
    // Content availability jobs (issue 29): pg-boss on this database.
    await services.contentScheduler.start();
    // Issue 40: the encode jobs (worked here unless MEDIA_WORKER=off: `npm run media:worker` then).
    await services.media.jobs.start({ work: services.media.config.worker === 'in-process' });
    undo.push(() => services.media.jobs.stop());
    // Issue 41: alert evaluation (every 15 s) and the delivery of its notifications.
    services.qoeAlerts.start();
    undo.push(() => services.qoeAlerts.stop());
    // Today's subscription figures as of now (issue 38): a start after a pause (a restart, a copied
    // data folder) does not show the Dashboard's "Paying" of the last rebuild's moment.
    await refreshRecentSubscriptions(dbHandle.db);
    // Rows that can no longer matter (server/db/housekeeping.ts); subscriptions moving to their
    // plan's current price take it once their period has ended (issue 30); today's subscription
    // figures follow the clock.
    const housekeeping = setInterval(() => {
      refreshRecentSubscriptions(dbHandle.db).catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'subscription figures refresh failed'));
      services.media.service.cleanAbandoned().catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'abandoned uploads cleanup failed'));
      purgeExpired(dbHandle.db).catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'housekeeping failed'));
      services.monetization.applyRenewalMoves(new Date())
        .catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'renewal price moves failed'));
    }, HOUSEKEEPING_MS);
    housekeeping.unref();
    return {
      services,
      ingest,
      async stop() {
        await cacheBus.close();
        await services.jobs.idle();
        await ingest.close();
        await services.contentScheduler.stop();
        await services.media.jobs.stop();
        await services.qoeAlerts.stop();
      },
      async close() {
        clearInterval(housekeeping);
        if (!input.db) await dbHandle.close();
      },
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * buildApp(options): the whole server as one Fastify instance (tests call app.inject()).
 * Serves a composed server (server/composition.ts: the database, its services, the cache bus, the
 * housekeeping purge, the ingestion pipeline and the content jobs; composed here when not given),
 * registers every API plugin from API_PLUGINS, and optionally serves the built SPA. It serves the
 * database it is given and writes no demo data: the start path does that (server/demo/prepare.ts).
 */
import Ajv from 'ajv';
import Fastify, {
  type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RouteOptions,
} from 'fastify';
import { OWN_MESSAGES } from '../common/messages';
import { composeServer, type ComposedServer, type ComposeInput } from './composition';
import { assertDevOutboxNotOnNetwork, assertPublicUrl, describeSmsTransport, fastifyTrustProxy, loadConfig, type ServerConfig } from './env';
import { authRoutes } from './http/auth-routes';
import { devRoutes } from './http/dev-routes';
import { installErrorHandler, installNotFoundHandler } from './http/errors';
import { installInputGuard } from './http/input-guard';
import { installSerializationCheck } from './http/serialization-check';
import { cspReportRoutes, installSecurityHeaders } from './http/security-headers';
import { registerSpa } from './http/spa';
import { installTokenRateLimit } from './http/token-rate-limit';
import { verifyRoutes } from './http/verify-routes';
import { managementGraphql } from './graphql/plugin';
import { appcmsRoutes } from './http/appcms-routes';
import { LOG_REDACTION, LOG_SERIALIZERS } from './log-redaction';
import { reportRoutes } from './http/report-routes';
import { ingestRoutes } from './http/ingest-routes';
import { couponRoutes } from './http/coupon-routes';
import { contentRoutes } from './http/content-routes';
import { contentCreateRoutes } from './http/content-create-routes';
import { contentAvailabilityRoutes } from './http/content-availability-routes';
import { adminRoutes } from './http/admin-routes';
import { accountRoutes } from './http/account-routes';
import { totpRoutes } from './http/totp-routes';
import { revisionContext, revisionRoutes } from './http/revision-routes';
import { mediaRoutes } from './http/media-routes';
import { qoeAlertRoutes } from './http/qoe-alert-routes';
import { qoeRoutes } from './http/qoe-routes';
import { requestIdOf } from './domain/revisions';
import './http/types';

/**
 * Every API plugin, registered in this order. Feature plugins (GraphQL at /management/graphql,
 * the /v4.0/appcms per-network reads, ...) are added to this list. Each plugin reaches the domain
 * through `app.services` and protects each route prefix with one `onRequest` hook (server/http/auth-hooks.ts).
 */
export const API_PLUGINS: FastifyPluginAsync[] = [
  // First: every later route's writes read their request id from it (issue 28).
  revisionContext,
  authRoutes,
  verifyRoutes,
  managementGraphql, appcmsRoutes, contentRoutes, contentCreateRoutes, contentAvailabilityRoutes, adminRoutes,
  accountRoutes, totpRoutes,
  reportRoutes,
  qoeRoutes,
  qoeAlertRoutes,
  ingestRoutes,
  couponRoutes,
  revisionRoutes,
  mediaRoutes,
  // networkRoutes, graphqlPlugin, ... (registered here by their owners)
];

interface BuildAppOptions {
  /** Overrides on top of the environment configuration. */
  config?: Partial<ServerConfig>;
  /** The environment to read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * The composed server (server/composition.ts, composeServer) to serve, with its configuration (`config`
   * and `env` then unused); the app stops it on close. Omitted: composed here from the options below.
   */
  server?: ComposedServer;
  /** An already opened (and migrated) database; the caller keeps ownership (when `server` is omitted). */
  db?: ComposeInput['db'];
  /** Directory of the built SPA (dist/); omitted = API only. */
  staticDir?: string;
  /** Fastify logger options; false (default in tests) switches it off. */
  logger?: FastifyServerOptions['logger'];
  /** SMS transport override (tests; when `server` is omitted). */
  sms?: ComposeInput['sms'];
  /** Extra plugins registered after API_PLUGINS (tests, experiments). */
  plugins?: FastifyPluginAsync[];
  /** Called for every route as it is added (server/route-schemas.test.ts lists them). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Tests: refuse an answer whose response schema dropped or changed anything (the JSON sent must
   * equal JSON.stringify of what the handler answered; server/http/serialization-check.ts).
   */
  checkSerialization?: boolean;
  /** Overrides of the ingestion pipeline's settings (when `server` is omitted; server/domain/ingest-pipeline.ts). */
  ingest?: ComposeInput['ingest'];
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // A composed server brings its configuration; otherwise the environment's, with the overrides on top.
  const config: ServerConfig = options.server?.services.config ?? { ...loadConfig(options.env ?? process.env), ...options.config };
  assertDevOutboxNotOnNetwork(config);
  assertPublicUrl(config);
  /** The SPA fallback, known once the static files are registered below (the bad-URL answer needs it). */
  const late: { badUrlFallback?: (request: FastifyRequest, reply: FastifyReply) => unknown } = {};
  const app = Fastify({
    logger: options.logger === undefined ? false : options.logger === true ? { redact: LOG_REDACTION, serializers: LOG_SERIALIZERS } : options.logger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Issue 37: the server names every request (a new UUID; a caller's x-request-id is ignored): its revisions
    // and audit rows carry it, Undo names it, and the answer's x-request-id header tells the caller.
    genReqId: () => requestIdOf(),
    // Issue 30: an address that cannot be decoded (/%E0%A4%A) opened in the browser gets the console
    // (its not-found page), never Fastify's raw JSON; other callers get the usual failure shape.
    frameworkErrors: (error, request, reply) => {
      const answer = reply as unknown as FastifyReply;
      const wantsPage = String(request.headers.accept ?? '').includes('text/html');
      if (error.code === 'FST_ERR_BAD_URL' && wantsPage && late.badUrlFallback) return late.badUrlFallback(request as unknown as FastifyRequest, answer);
      return answer.code(400).send({ success: false, message: OWN_MESSAGES.badRequest });
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  if (options.checkSerialization) installSerializationCheck(app);

  // Bodies are validated strictly (a number is not a string); query strings keep Fastify's coercion.
  const bodyAjv = new Ajv({ coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  const otherAjv = new Ajv({ coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : otherAjv).compile(schema));

  // The services and what runs beside the requests (cache bus, housekeeping, ingestion, content
  // jobs) come built from the composition root (server/composition.ts).
  const composed = options.server ?? await composeServer({
    config, env: options.env ?? process.env, log: app.log, db: options.db, sms: options.sms, ingest: options.ingest,
  });
  const { services } = composed;
  app.decorate('services', services);
  app.decorate('ingest', composed.ingest);
  // Stopped before the database closes (preClose runs before onClose), after the last answer.
  app.addHook('preClose', async () => composed.stop());
  app.addHook('onClose', async () => composed.close());
  if (config.sms.transport === 'http') app.log.info(describeSmsTransport(config));
  else app.log.warn(describeSmsTransport(config));

  installSecurityHeaders(app, config);

  installErrorHandler(app);
  installInputGuard(app);
  try {
    await installTokenRateLimit(app, config);
  } catch (error) {
    await composed.stop();
    await composed.close();
    throw error;
  }
  // An answer leaves only once the cache invalidations its request published are committed
  // (server/db/cache-bus.ts): a client that saw a logout answered is refused by every instance.
  if (services.cacheBus.kind !== 'local') app.addHook('onSend', async () => services.cacheBus.flush());

  for (const plugin of API_PLUGINS) await app.register(plugin);
  await app.register(cspReportRoutes);
  await app.register(devRoutes);
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  const fallback = options.staticDir ? await registerSpa(app, { staticDir: options.staticDir, runtime: config.runtime }) : undefined;
  installNotFoundHandler(app, { fallback });
  late.badUrlFallback = fallback;

  return app;
}

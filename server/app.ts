/**
 * buildApp(options): the whole server as one Fastify instance (tests call app.inject()).
 * Opens (or receives) the database, migrates, seeds demo data on first start, wires the domain
 * services, registers every API plugin from API_PLUGINS, and optionally serves the built SPA.
 */
import Ajv from 'ajv';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import { openDb, type DbHandle } from './db/client';
import { seedDemoData } from './db/seed';
import { isPasswordComplex } from './domain/passwords';
import { purgeExpired } from './domain/housekeeping';
import { createServices, type Logger } from './domain/services';
import type { SmsTransport } from './domain/sms';
import { DEFAULT_SEED_PASSWORD, loadConfig, type ServerConfig } from './env';
import { authRoutes } from './http/auth-routes';
import { devRoutes } from './http/dev-routes';
import { installErrorHandler, installNotFoundHandler } from './http/errors';
import { registerSpa } from './http/spa';
import { verifyRoutes } from './http/verify-routes';
import { managementGraphql } from './graphql/plugin';
import { appcmsRoutes } from './http/appcms-routes';
import './http/types';

/**
 * Every API plugin, registered in this order. Feature plugins (GraphQL at /management/graphql,
 * the /v4.0/appcms per-network reads, ...) are added to this list. Each plugin reaches the domain
 * through `app.services` and protects its routes with `requireAuth` (server/http/auth-hooks.ts).
 */
export const API_PLUGINS: FastifyPluginAsync[] = [
  authRoutes,
  verifyRoutes,
  managementGraphql, appcmsRoutes,
  // networkRoutes, graphqlPlugin, ... (registered here by their owners)
];

export interface BuildAppOptions {
  /** Overrides on top of the environment configuration. */
  config?: Partial<ServerConfig>;
  /** The environment to read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** An already opened (and migrated) database; the caller keeps ownership. */
  db?: DbHandle;
  /** Directory of the built SPA (dist/); omitted = API only. */
  staticDir?: string;
  /** Fastify logger options; false (default in tests) switches it off. */
  logger?: FastifyServerOptions['logger'];
  /** SMS transport override (tests). */
  sms?: SmsTransport;
  /** Extra plugins registered after API_PLUGINS (tests, experiments). */
  plugins?: FastifyPluginAsync[];
}

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.xapikey',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.body.password',
  'req.body.newPassword',
  'req.body.confirmPassword',
  'req.body.otp',
  'req.body.token',
  'res.body.accessToken',
];

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config: ServerConfig = { ...loadConfig(options.env ?? process.env), ...options.config };
  const app = Fastify({
    logger: options.logger === undefined ? false : options.logger === true ? { redact: { paths: REDACT_PATHS, censor: '[redacted]' } } : options.logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });

  // Bodies are validated strictly (a number is not a string); query strings keep Fastify's coercion.
  const bodyAjv = new Ajv({ coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  const otherAjv = new Ajv({ coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false, strict: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : otherAjv).compile(schema));

  const dbHandle = options.db ?? await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (!options.db) app.addHook('onClose', async () => dbHandle.close());

  const log: Logger = app.log;
  let services;
  try {
    services = createServices({ dbHandle, config, log, sms: options.sms });
  } catch (error) {
    if (!options.db) await dbHandle.close();
    throw error;
  }
  app.decorate('services', services);

  if (config.seed) {
    const password = config.seedPassword ?? (config.production ? undefined : DEFAULT_SEED_PASSWORD);
    if (!password) {
      app.log.warn('Demo seed skipped: NODE_ENV=production and SEED_PASSWORD is not set.');
    } else if (!isPasswordComplex(password)) {
      app.log.warn('Demo seed skipped: SEED_PASSWORD does not meet the password complexity rule.');
    } else {
      const seeded = await dbHandle.withLock(() => seedDemoData(dbHandle.db, { password, passwords: services.passwords }));
      if (seeded) app.log.info('Demo data seeded (see docs/demo-accounts.md).');
    }
  }

  const housekeeping = setInterval(() => {
    purgeExpired(dbHandle.db).catch((error: unknown) => app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'housekeeping failed'));
  }, 10 * 60_000);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
    return payload;
  });

  installErrorHandler(app);

  for (const plugin of API_PLUGINS) await app.register(plugin);
  if (!config.production) await app.register(devRoutes);
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  const fallback = options.staticDir ? await registerSpa(app, { staticDir: options.staticDir, runtime: config.runtime }) : undefined;
  installNotFoundHandler(app, { fallback });

  return app;
}

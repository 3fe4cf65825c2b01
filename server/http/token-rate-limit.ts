/**
 * Per-token request budget (SECURITY.md C-RATE-1) on every request that carries a bearer token:
 * authenticated REST routes and GraphQL. `apiRateLimit.max` requests per window per token
 * (API_RATE_LIMIT_PER_MINUTE, default 1200 a minute: far above what the browser needs), then 429
 * with a JSON message and Retry-After. Requests without a token are not counted here: the anonymous
 * auth routes have their own database-backed limits (server/domain/login-throttle.ts, rate-limit.ts).
 * The key is a hash of the token, never the token.
 *
 * Where the counters live (issue 31: several instances share one budget):
 * - REDIS_URL set: @fastify/rate-limit's Redis store (ioredis), shared by every instance. Redis must
 *   answer at start (else the start is refused with the reason); if it goes away later the budget is
 *   not enforced until it is back (the plugin's skipOnError; a warning is logged), rather than every
 *   authenticated request failing.
 * - PostgreSQL without REDIS_URL: the database's rate_limits table (fixed windows, the same counters
 *   the sign-in limits use), shared by every instance. Each instance leases a share of a token's
 *   window budget (1 %, at least one request) in one atomic upsert and admits from it in memory
 *   (issue 37: a write per request capped one token near 1,000 requests/s): never more than the budget
 *   across instances; at most N × (share − 1) requests refused early with N instances.
 * - The embedded PGlite (one process): the plugin's in-memory store.
 */
import { createHash } from 'node:crypto';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { OWN_MESSAGES } from '../../common/messages';
import { readBearerToken } from '../domain/auth-context';
import { rateLimited } from '../domain/errors';
import type { RateLimiter } from '../domain/rate-limit';
import type { ServerConfig } from '../env';

type TokenBudgetStore = 'redis' | 'database' | 'memory';

/** Where the per-token counters live for this configuration and database driver. */
export function tokenBudgetStore(config: Pick<ServerConfig, 'redisUrl'>, driver: 'pglite' | 'postgres'): TokenBudgetStore {
  if (config.redisUrl) return 'redis';
  return driver === 'postgres' ? 'database' : 'memory';
}

/** host:port of a Redis URL, for messages (never its password). */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return '(unparsable REDIS_URL)';
  }
}

/**
 * An ioredis client for the rate-limit store, connected (or the reason it could not be): commands
 * fail at once while Redis is away (no offline queue), so a request never waits on a dead Redis.
 */
export async function connectRedis(url: string, onError: (message: string) => void = () => {}): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let lastReport = 0;
  let firstError: string | undefined;
  redis.on('error', (error: Error) => {
    firstError ??= error.message;
    if (Date.now() - lastReport < 30_000) return;
    lastReport = Date.now();
    onError(`Redis at ${redisAddress(url)}: ${error.message}`);
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL is set but Redis at ${redisAddress(url)} does not answer (${firstError ?? (error instanceof Error ? error.message : String(error))}). Start Redis, or unset REDIS_URL (the per-token budget is then kept in the database on PostgreSQL).`, { cause: error });
  }
  return redis;
}

/**
 * A @fastify/rate-limit store over the database's fixed-window counters, leased in shares
 * (RateLimiter.take, server/domain/rate-limit.ts createLeasedBudget): one write per share, not per request.
 */
function databaseStore(limiter: Pick<RateLimiter, 'take'>): FastifyRateLimitStoreCtor {
  return class DatabaseStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      const now = new Date();
      limiter.take(`api:${key}`, { limit: max, windowSeconds: Math.max(1, Math.round(timeWindow / 1000)) }, now).then(
        (hit) => callback(null, { current: hit.count, ttl: Math.max(1, hit.retryAfterSeconds * 1000) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

export async function installTokenRateLimit(app: FastifyInstance, config: Pick<ServerConfig, 'apiRateLimit' | 'redisUrl'>): Promise<TokenBudgetStore> {
  const kind = tokenBudgetStore(config, app.services.driver);
  let redis: Redis | undefined;
  if (kind === 'redis') {
    redis = await connectRedis(config.redisUrl!, (message) => app.log.warn(`${message}: the per-token request budget is not enforced while Redis is away`));
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: config.apiRateLimit.max,
    timeWindow: config.apiRateLimit.windowSeconds * 1000,
    ...(redis ? { redis, nameSpace: 'cms-tools-token-budget-', skipOnError: true } : {}),
    ...(kind === 'database' ? { store: databaseStore(app.services.limiter) } : {}),
    allowList: (request) => readBearerToken(request) === undefined,
    keyGenerator: (request) => `token:${createHash('sha256').update(readBearerToken(request) ?? '').digest('base64url').slice(0, 32)}`,
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000), OWN_MESSAGES.tooManyRequests),
  });
  return kind;
}

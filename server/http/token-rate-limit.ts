/**
 * Per-token request budget (SECURITY.md C-RATE-1) on every request that carries a bearer token:
 * authenticated REST routes and GraphQL. `apiRateLimit.max` requests per window per token
 * (API_RATE_LIMIT_PER_MINUTE, default 1200 a minute: far above what the browser needs), then 429
 * with a JSON message and Retry-After. Requests without a token are not counted here: the anonymous
 * auth routes have their own database-backed limits (server/domain/login-throttle.ts, rate-limit.ts).
 * The counters are per server instance (in memory); the key is a hash of the token, never the token.
 */
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { OWN_MESSAGES } from '../../common/messages';
import { readBearerToken } from '../domain/auth-context';
import { rateLimited } from '../domain/errors';
import type { ServerConfig } from '../env';

export async function installTokenRateLimit(app: FastifyInstance, config: Pick<ServerConfig, 'apiRateLimit'>): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    max: config.apiRateLimit.max,
    timeWindow: config.apiRateLimit.windowSeconds * 1000,
    allowList: (request) => readBearerToken(request) === undefined,
    keyGenerator: (request) => `token:${createHash('sha256').update(readBearerToken(request) ?? '').digest('base64url').slice(0, 32)}`,
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000), OWN_MESSAGES.tooManyRequests),
  });
}

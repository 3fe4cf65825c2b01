/**
 * Development-only routes: the SMS outbox (GET /__dev/outbox). Registered only outside production and
 * only while the SMS transport is the outbox. The outbox holds sign-in and reset codes, so anyone who
 * can read it can take over any account: it answers only a request that carries the outbox token
 * (`X-Dev-Outbox-Token` header or `?token=`; DEV_OUTBOX_TOKEN or random per start, printed at start)
 * from a loopback socket without forwarding headers. The token is what a stranger behind a reverse
 * proxy cannot have: recognising proxies by their headers can never be complete (X-Real-IP, Via,
 * CF-Connecting-IP, or a proxy that adds nothing). The simulator's roster (server/http/ingest-routes.ts)
 * keeps the loopback check alone: it lists ids, no secret, and needs the site's ingestion key.
 */
import { isRecord } from '../../common/one-of';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../common/constants';
import { SCHEMAS } from '../../common/contract';
import { OWN_MESSAGES } from '../../common/messages';
import type { ServerConfig } from '../env';
import { answers } from './response-schemas';
import './types';
import type { RoutePlugin } from './type-provider';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return /^127(?:\.\d{1,3}){3}$/.test(v4) || address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** True when the development outbox route is mounted. */
export function devOutboxEnabled(config: Pick<ServerConfig, 'production' | 'sms'>): boolean {
  return !config.production && config.sms.transport === 'outbox';
}

/**
 * onRequest guard of every development route. The socket's address decides, never request.ip (which
 * honours X-Forwarded-For under TRUST_PROXY), and a request carrying forwarding headers is refused
 * because a reverse proxy on the same machine would make every remote client look local. The answer
 * is the ordinary 404, so the route is not advertised.
 */
export async function loopbackOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (forwarded || !isLoopbackAddress(request.raw.socket?.remoteAddress)) {
    await reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
  }
}

/** The header that carries the outbox token. */
export const DEV_OUTBOX_TOKEN_HEADER = 'x-dev-outbox-token';

/** Constant-time comparison of a presented token with the configured one (hashes of equal length). */
function devOutboxTokenMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The outbox's address with its token, as startup prints it. */
export function devOutboxUrl(config: Pick<ServerConfig, 'host' | 'port' | 'devOutboxToken'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}${API_PATHS.devOutbox}?token=${encodeURIComponent(config.devOutboxToken)}`;
}

/** onRequest guard of the outbox: the token, then the loopback check. Same 404 as an unknown route. */
function outboxTokenGuard(expected: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const presented = request.headers[DEV_OUTBOX_TOKEN_HEADER] ?? (isRecord(request.query) ? request.query.token : undefined);
    if (!devOutboxTokenMatches(presented, expected)) {
      await reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
    }
  };
}

export const devRoutes: RoutePlugin = async (app) => {
  if (!devOutboxEnabled(app.services.config)) return;
  app.get(API_PATHS.devOutbox, {
    onRequest: [loopbackOnly, outboxTokenGuard(app.services.config.devOutboxToken)],
    schema: { querystring: { type: 'object', properties: { to: { type: 'string', maxLength: 50 }, token: { type: 'string', maxLength: 200 } } }, response: answers({ 200: SCHEMAS.outboxMessages }) },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // SMS sends run after their answers (server/domain/jobs.ts): list once the queued ones are done.
    await app.services.jobs.idle();
    return app.services.outbox.list(request.query.to, 50);
  });
};

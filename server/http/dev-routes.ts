/**
 * Development-only routes: the SMS outbox (GET /__dev/outbox). Registered only outside production and
 * only while the SMS transport is the outbox, and every development route (this one and the
 * simulator's roster, server/http/ingest-routes.ts) answers only loopback clients that did not come
 * through a proxy: the outbox holds sign-in and reset codes, so anyone who can read it can take over
 * any account.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '../../common/constants';
import { SCHEMAS } from '../../common/contract';
import { OWN_MESSAGES } from '../../common/messages';
import { listOutbox } from '../db/outbox-repository';
import type { ServerConfig } from '../env';
import './types';

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

export const devRoutes: FastifyPluginAsync = async (app) => {
  if (!devOutboxEnabled(app.services.config)) return;
  app.get<{ Querystring: { to?: string } }>(API_PATHS.devOutbox, {
    onRequest: loopbackOnly,
    schema: { querystring: { type: 'object', properties: { to: { type: 'string', maxLength: 50 } } }, response: { 200: SCHEMAS.outboxMessages } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // SMS sends run after their answers (server/domain/jobs.ts): list once the queued ones are done.
    await app.services.jobs.idle();
    return listOutbox(app.services.db, request.query.to, 50);
  });
};

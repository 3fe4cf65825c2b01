/** Development-only routes (never registered when NODE_ENV=production): the SMS outbox. */
import type { FastifyPluginAsync } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { API_PATHS } from '../../src/config';
import type { OutboxMessage } from '../../src/api/contract';
import { smsOutbox } from '../db/schema';
import './types';

export const devRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { to?: string } }>(API_PATHS.devOutbox, {
    schema: { querystring: { type: 'object', properties: { to: { type: 'string', maxLength: 50 } } } },
  }, async (request, reply) => {
    const { db } = app.services;
    const query = db.select().from(smsOutbox);
    const rows = await (request.query.to ? query.where(eq(smsOutbox.to, request.query.to)) : query)
      .orderBy(desc(smsOutbox.createdAt))
      .limit(50);
    reply.header('cache-control', 'no-store');
    return rows.map((r): OutboxMessage => ({ id: r.id, to: r.to, body: r.body, createdAt: new Date(r.createdAt).toISOString() }));
  });
};

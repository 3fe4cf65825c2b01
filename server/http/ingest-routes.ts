/**
 * POST /v1/events: batches of player events from a site's players, authenticated by the site's
 * ingestion key (header x-ingestion-key; only its SHA-256 is stored), never by a staff token.
 *
 * A batch is all or nothing: when any event is malformed or refers to something the site does not
 * have, the answer is 400 with one message per refused event and nothing of the batch is written,
 * so a player can fix and resend the same batch (event ids make the resend idempotent). A valid
 * batch answers 200 with how many events were new and how many were already known.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  DATE_TIME_PATTERN, INGEST_KEY_HEADER, INGEST_ROSTER_PATH, INGEST_MAX_AGE_DAYS, INGEST_MAX_BODY_BYTES, INGEST_MAX_FUTURE_MS, INGEST_PATH,
  INGEST_REQUEST_SCHEMA, PLAYER_EVENT_SCHEMAS, UUID_PATTERN,
  type IngestAccepted, type IngestEventError, type IngestRefused, type IngestRequest, type PlayerEvent,
} from '../../common/ingest-contract';
import { OWN_MESSAGES } from '../../common/messages';
import { ingestBatch, siteOfIngestionKey, siteRoster } from '../db/ingest-repository';
import { loopbackOnly } from './dev-routes';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
const validators = Object.fromEntries(
  Object.entries(PLAYER_EVENT_SCHEMAS).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<PlayerEvent['type'], ValidateFunction>;

function describe(index: number, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const at = field ? `events[${index}].${field}` : `events[${index}]`;
  if (error.keyword === 'required') return `${at}.${String(params.missingProperty)} is required.`;
  if (error.keyword === 'additionalProperties') return `${at}.${String(params.additionalProperty)} is not allowed.`;
  if (error.keyword === 'pattern' && params.pattern === UUID_PATTERN) return `${at} must be a UUID.`;
  if (error.keyword === 'pattern' && params.pattern === DATE_TIME_PATTERN) return `${at} must be an ISO 8601 date-time.`;
  if (error.keyword === 'pattern') return `${at} must be two capital letters (ISO 3166-1 alpha-2).`;
  return `${at} ${error.message ?? 'is invalid'}.`;
}

/** Schema check of every event; the messages name the event and the field. */
export function checkEvents(events: unknown[]): IngestEventError[] {
  const errors: IngestEventError[] = [];
  events.forEach((raw, index) => {
    const event = raw as Record<string, unknown>;
    const eventId = typeof event.eventId === 'string' ? event.eventId : null;
    const validate = typeof event.type === 'string' ? validators[event.type as PlayerEvent['type']] : undefined;
    if (!validate) {
      errors.push({ index, eventId, message: `events[${index}].type must be one of ${Object.keys(validators).join(', ')}.` });
    } else if (!validate(event)) {
      errors.push({ index, eventId, message: describe(index, validate.errors![0]!) });
    } else if (Number.isNaN(Date.parse(event.at as string))) {
      errors.push({ index, eventId, message: `events[${index}].at is not a real date-time.` });
    }
  });
  return errors;
}

export const ingestRoutes: FastifyPluginAsync = async (app) => {
  // The key is checked before the body is parsed: an unknown caller costs no JSON parsing.
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[INGEST_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyMissing });
    const siteId = await siteOfIngestionKey(app.services.db, key);
    if (!siteId) return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyInvalid });
    const limit = await app.services.limiter.hit(`ingest:${siteId}`, { limit: app.services.config.ingestBatchesPerMinute, windowSeconds: 60 });
    if (!limit.allowed) {
      return reply.code(429).header('retry-after', String(limit.retryAfterSeconds)).send({ success: false, message: OWN_MESSAGES.ingestRateLimited });
    }
    request.ingestSiteId = siteId;
  };

  app.post<{ Body: IngestRequest }>(INGEST_PATH, {
    bodyLimit: INGEST_MAX_BODY_BYTES,
    schema: { body: INGEST_REQUEST_SCHEMA },
    onRequest: authenticate,
  }, async (request, reply) => {
    const { events } = request.body;
    const siteId = request.ingestSiteId!;
    const schemaErrors = checkEvents(events);
    if (schemaErrors.length > 0) {
      const body: IngestRefused = { success: false, message: OWN_MESSAGES.ingestBatchRefused(schemaErrors.length, events.length), errors: schemaErrors };
      return reply.code(400).send(body);
    }
    const result = await ingestBatch(app.services.db, siteId, events, { maxAgeDays: INGEST_MAX_AGE_DAYS, maxFutureMs: INGEST_MAX_FUTURE_MS });
    if (result.errors.length > 0) {
      const body: IngestRefused = { success: false, message: OWN_MESSAGES.ingestBatchRefused(result.errors.length, events.length), errors: result.errors };
      return reply.code(400).send(body);
    }
    const body: IngestAccepted = { success: true, accepted: result.accepted, duplicates: result.duplicates };
    return reply.send(body);
  });

  // Development only: who and what the simulator (npm run simulate) can play. Never in production,
  // where ingestion keys ship inside player apps and must not open a list of viewers; and only to
  // loopback clients, like every development route (server/http/dev-routes.ts).
  if (!app.services.config.production) {
    app.get<{ Querystring: { limit: number } }>(INGEST_ROSTER_PATH, {
      onRequest: [loopbackOnly, authenticate],
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 5000, default: 500 } } } },
    }, async (request) => siteRoster(app.services.db, request.ingestSiteId!, request.query.limit));
  }
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The site of the ingestion key (POST /v1/events only). */
    ingestSiteId?: string;
  }
}

/**
 * POST /v1/events: batches of player events from a site's players, authenticated by the site's
 * ingestion key (header x-ingestion-key; only its SHA-256 is stored), never by a staff token.
 *
 * The request path touches no database (issue 42): the key is answered from the ingestion
 * service's key cache, the site's batch budget from the limiter's leased budget (in memory between
 * leases), the schema and the time bounds from the batch itself. A batch is all or nothing: when any
 * event is malformed or out of the time bounds, the answer is 400 with one message per refused event
 * and nothing of the batch is queued, so a player can fix and resend the same batch (event ids make
 * the resend idempotent). A valid batch is queued (server/domain/ingest-pipeline.ts: JetStream when
 * NATS_URL is set, else memory) and answered 202 once the queue holds it (the stream's ack); a full
 * or unavailable queue answers 503 with Retry-After. What needs the database (a session, subscriber,
 * title or network the site does not have) is checked by the consumers: such events go to the dead
 * letters (ingest_dead_letters, counted per reason for Dashboard 360), never silently dropped.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATE_TIME_PATTERN, INGEST_DEAD_LETTERS_PATH, INGEST_ROSTER_PATH, INGEST_MAX_AGE_DAYS, INGEST_MAX_BODY_BYTES, INGEST_MAX_FUTURE_MS, INGEST_PATH, INGEST_REQUEST_SCHEMA, PLAYER_EVENT_SCHEMAS, UUID_PATTERN, isCalendarDateTime, type IngestAccepted, type IngestDeadLetterCounts, type IngestEventError, type IngestRefused, type PlayerEvent } from '../../common/ingest-contract';
import { AREAS } from '../../common/constants';
import { OWN_MESSAGES } from '../../common/messages';
import { applyAllowedSites, canContinue } from '../../common/roles';
import { forbidden } from '../domain/errors';
import type { IngestPipeline } from '../domain/ingest-pipeline';
import { IngestQueueUnavailable } from '../domain/ingest-queue';
import { appKeySiteOf, authContextOf, requireAppKey, requireAuth } from './auth-hooks';
import { loopbackOnly } from './dev-routes';
import { INGEST_RESPONSES, answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });
/** One validator per event type; each tells the compiler the event is a PlayerEvent once it passes. */
const validators = new Map<string, ValidateFunction<PlayerEvent>>(
  Object.entries(PLAYER_EVENT_SCHEMAS).map(([type, schema]) => [type, ajv.compile<PlayerEvent>(schema)]),
);

function describe(index: number, error: ErrorObject): string {
  const { params } = error;
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const at = field ? `events[${index}].${field}` : `events[${index}]`;
  if (error.keyword === 'required') return `${at}.${String(params.missingProperty)} is required.`;
  if (error.keyword === 'additionalProperties') return `${at}.${String(params.additionalProperty)} is not allowed.`;
  if (error.keyword === 'pattern' && params.pattern === UUID_PATTERN) return `${at} must be a UUID.`;
  if (error.keyword === 'pattern' && params.pattern === DATE_TIME_PATTERN) return OWN_MESSAGES.ingestEventDateTime(at);
  if (error.keyword === 'pattern') return `${at} must be two capital letters (ISO 3166-1 alpha-2).`;
  return `${at} ${error.message ?? 'is invalid'}.`;
}

/**
 * Whether a DATE_TIME_PATTERN string names a day its month has: a day up to the 28th exists in every
 * month of every year from 0001, so only the 29th to 31st (and year 0000) need isCalendarDateTime's
 * date arithmetic (issue 42: it was a third of the checks' time of a batch of 500). Whether `Date`
 * reads the string at all is checked with the time bounds (checkTimes parses it anyway).
 */
function isRealDay(at: string): boolean {
  const day = (at.charCodeAt(8) - 48) * 10 + (at.charCodeAt(9) - 48);
  return day <= 28 && !at.startsWith('0000') ? true : isCalendarDateTime(at);
}

/** Schema check of every event: the events that passed, and messages naming the event and the field of those that did not. */
export function checkEvents(events: readonly Readonly<Record<string, unknown>>[]): { valid: PlayerEvent[]; errors: IngestEventError[] } {
  const valid: PlayerEvent[] = [];
  const errors: IngestEventError[] = [];
  events.forEach((event, index) => {
    const eventId = typeof event.eventId === 'string' ? event.eventId : null;
    const validate = typeof event.type === 'string' ? validators.get(event.type) : undefined;
    if (!validate) {
      errors.push({ index, eventId, message: `events[${index}].type must be one of ${[...validators.keys()].join(', ')}.` });
    } else if (!validate(event)) {
      errors.push({ index, eventId, message: describe(index, validate.errors![0]!) });
    } else if (!isRealDay(event.at)) {
      errors.push({ index, eventId, message: `events[${index}].at is not a real date-time.` });
    } else {
      valid.push(event);
    }
  });
  return { valid, errors };
}

/**
 * The time bounds of schema-valid events (no database): one message per event dated further in the
 * future than the allowed clock skew or older than the accepted age, or that `Date` cannot read; a
 * repeated event id counts once.
 */
export function checkTimes(events: readonly PlayerEvent[], options: { now?: number; maxAgeDays: number; maxFutureMs: number }): IngestEventError[] {
  return timesOf(events, options).errors;
}

/**
 * checkTimes' messages, and the number of distinct event ids (the batch's `accepted` when there is
 * no message). A player's batch holds the events of one or two simulation steps or heartbeats, most
 * with the same `at` text: it is parsed once for the run of events that repeat it (issue 42).
 */
function timesOf(events: readonly PlayerEvent[], options: { now?: number; maxAgeDays: number; maxFutureMs: number }): { errors: IngestEventError[]; distinct: number } {
  const now = options.now ?? Date.now();
  const latest = now + options.maxFutureMs;
  const earliest = now - options.maxAgeDays * 86_400_000;
  const errors: IngestEventError[] = [];
  const seen = new Set<string>();
  let lastText: string | undefined;
  let lastAt = Number.NaN;
  events.forEach((e, index) => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    if (e.at !== lastText) {
      lastText = e.at;
      lastAt = Date.parse(e.at);
    }
    const at = lastAt;
    if (Number.isNaN(at)) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is not a real date-time.` });
    else if (at > latest) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is in the future (${e.at}).` });
    else if (at < earliest) errors.push({ index, eventId: e.eventId, message: `events[${index}].at is older than ${options.maxAgeDays} days (${e.at}).` });
  });
  return { errors, distinct: seen.size };
}

/** Events refused (one event may carry several messages). */
const refusedEvents = (errors: IngestEventError[]) => new Set(errors.map((e) => e.index)).size;

/** Retry-After of a 503 when the queue could not take a batch. */
const INGEST_BUSY_RETRY_AFTER_SECONDS = 2;

export const ingestRoutes: RoutePlugin = async (app) => {
  // The app key first (before the body is parsed), then the site's batch budget.
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = await requireAppKey(request, reply);
    if (refused) return refused;
    const siteId = appKeySiteOf(request);
    // The leased budget: admitted from memory, one shared-counter write per leased share of the window.
    const limit = await app.services.limiter.take(`ingest:${siteId}`, { limit: app.services.config.ingestBatchesPerMinute, windowSeconds: 60 });
    if (!limit.allowed) {
      return reply.code(429).header('retry-after', String(limit.retryAfterSeconds)).send({ success: false, message: OWN_MESSAGES.ingestRateLimited });
    }
  };

  app.post(INGEST_PATH, {
    bodyLimit: INGEST_MAX_BODY_BYTES,
    schema: { body: INGEST_REQUEST_SCHEMA, response: answers({ 202: INGEST_RESPONSES.accepted }) },
    onRequest: authenticate,
  }, async (request, reply) => {
    const siteId = appKeySiteOf(request);
    const { valid: events, errors: schemaErrors } = checkEvents(request.body.events);
    if (schemaErrors.length > 0) {
      const body: IngestRefused = { success: false, message: OWN_MESSAGES.ingestBatchRefused(refusedEvents(schemaErrors), request.body.events.length), errors: schemaErrors };
      return reply.code(400).send(body);
    }
    const { errors, distinct } = timesOf(events, { maxAgeDays: INGEST_MAX_AGE_DAYS, maxFutureMs: INGEST_MAX_FUTURE_MS });
    if (errors.length > 0) {
      const body: IngestRefused = { success: false, message: OWN_MESSAGES.ingestBatchRefused(refusedEvents(errors), events.length), errors };
      return reply.code(400).send(body);
    }
    try {
      await app.ingest.publish(siteId, events);
    } catch (error) {
      // NATS down or no acknowledgement in time: the player resends the same batch (the message id
      // and the event ids make that safe), never a 500.
      if (!(error instanceof IngestQueueUnavailable)) throw error;
      request.log.warn({ err: error.cause }, 'event batch not queued');
      return reply.code(503).header('retry-after', String(INGEST_BUSY_RETRY_AFTER_SECONDS)).send({ success: false, message: OWN_MESSAGES.ingestBusy });
    }
    // The distinct event ids, counted by the time check (every event passed it).
    const body: IngestAccepted = { success: true, accepted: distinct };
    return reply.code(202).send(body);
  });

  // Accepted events no consumer could place (issue 37), per reason, for the site's Dashboard 360
  // readers (the analytics allow-list applies as to the reports): staff session and management key.
  app.get(INGEST_DEAD_LETTERS_PATH, {
    onRequest: requireAuth,
    schema: { response: answers({ 200: INGEST_RESPONSES.deadLetters }) },
  }, async (request, reply): Promise<IngestDeadLetterCounts> => {
    const { user, site } = authContextOf(request);
    const roles = applyAllowedSites(user.roles, site.siteInternalName, app.services.config.runtime.analyticsAllowedSites);
    if (!canContinue(roles, AREAS.dashboard360)) throw forbidden();
    const reasons = await app.services.ingestion.deadLetterCounts(site.id);
    reply.header('cache-control', 'private, max-age=0');
    return { success: true, total: reasons.reduce((n, r) => n + r.events, 0), reasons };
  });

  // Development only: who and what the simulator (npm run simulate) can play. Never in production,
  // where ingestion keys ship inside player apps and must not open a list of viewers; and only to
  // loopback clients, like every development route (server/http/dev-routes.ts).
  if (!app.services.config.production) {
    app.get(INGEST_ROSTER_PATH, {
      onRequest: [loopbackOnly, authenticate],
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 5000, default: 500 } } },
        response: answers({ 200: INGEST_RESPONSES.roster }),
      },
    }, async (request) => app.services.ingestion.siteRoster(appKeySiteOf(request), request.query.limit));
  }
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The ingestion pipeline (producer, consumers, fold worker) of this process; buildApp starts it. */
    ingest: IngestPipeline;
  }
}

/**
 * The global error and not-found handlers: every failure is JSON `{ success: false, message }`.
 * A DomainError's kind decides its status here, and only here (HTTP_STATUS; GraphQL reuses it);
 * validation and client errors keep their 4xx and a message naming the field; anything else is a
 * 500 with 'Something went wrong!' and no stack.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS } from '../../common/content';
import type { ApiFailure } from '../../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../../common/messages';
import { DomainError, type ErrorKind } from '../domain/errors';

/** The HTTP status of each domain error kind (REST and GraphQL alike). */
export const HTTP_STATUS: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
};

/** The REST answer to a domain error: status, body, and Retry-After when it has one. */
function httpAnswerOf(error: DomainError): {
  status: number; body: ApiFailure & { retryAfterSeconds?: number; fields?: Readonly<Record<string, string>> }; headers: Record<string, string>;
} {
  const { retryAfterSeconds, fields } = error.details;
  return {
    status: HTTP_STATUS[error.kind],
    body: {
      success: false, message: error.message,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(fields !== undefined ? { fields } : {}),
    },
    headers: retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {},
  };
}

/** Paths that belong to the API: never answered with the SPA. */
const API_PREFIXES = ['/v1/', '/v2.0/', '/v3.0/', '/v4.0/', '/api/', '/management/', '/__dev/', '/appcms/v2/reports/'] as const;

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix);
}

/**
 * Issue 38: a schema bound an operator can type past, answered in the form's words (common/content.ts)
 * instead of the schema's ("body.durationSeconds must be <= 86400"), by route and body field.
 */
const SCHEMA_BOUND_WORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [`POST ${CONTENT_CREATE_PATHS.create}`]: {
    durationSeconds: CONTENT_CREATE_MESSAGES.durationTooLong,
    seasons: CONTENT_CREATE_MESSAGES.seasonsTooMany,
    seasonNumber: CONTENT_CREATE_MESSAGES.seasonNumberRule,
    episodeNumber: CONTENT_CREATE_MESSAGES.episodeNumberRule,
  },
};
const BOUND_KEYWORDS: ReadonlySet<string> = new Set(['maximum', 'minimum', 'maxItems']);

/** The form's words for a bound the body is past, and the field it names; null for any other refusal. */
function boundRefusal(error: FastifyError, request: FastifyRequest): { message: string; fields: Record<string, string> } | null {
  const first = error.validation?.[0];
  const words = SCHEMA_BOUND_WORDS[`${request.method} ${request.routeOptions.url ?? ''}`];
  if (!first || !words || (error.validationContext ?? 'body') !== 'body' || !BOUND_KEYWORDS.has(first.keyword)) return null;
  const field = first.instancePath.replace(/^\//, '');
  const message = words[field];
  return message ? { message, fields: { [field]: message } } : null;
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const context = error.validationContext ?? 'body';
  const { params } = first;
  const path = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    const field = path ? `${path}.${params.missingProperty}` : params.missingProperty;
    return `${context}.${field} is required`;
  }
  if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `${context}.${params.additionalProperty} is not allowed`;
  }
  return path ? `${context}.${path} ${first.message ?? 'is invalid'}` : `${context} ${first.message ?? 'is invalid'}`;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const answer = httpAnswerOf(error);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    }
    if (error.validation) {
      const bound = boundRefusal(error, request);
      if (bound) return reply.code(400).send({ success: false, ...bound });
      return reply.code(400).send({ success: false, message: validationMessage(error) });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large, ...).
      const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? `${OWN_MESSAGES.badRequest} The body is not valid JSON.`
        : error.message || OWN_MESSAGES.badRequest;
      return reply.code(status).send({ success: false, message });
    }
    request.log.error({ err: { message: error.message, code: error.code, stack: error.stack } }, 'unhandled error');
    return reply.code(500).send({ success: false, message: MESSAGES.genericGraphqlError });
  });
}

/** JSON 404 for API paths; other paths go to the SPA fallback when one is given. */
export function installNotFoundHandler(app: FastifyInstance, opts: { fallback?: (request: FastifyRequest, reply: FastifyReply) => unknown } = {}): void {
  app.setNotFoundHandler((request, reply) => {
    if (opts.fallback && !isApiPath(request.url)) return opts.fallback(request, reply);
    return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
  });
}

/**
 * Authentication of a route prefix: one `onRequest` hook for the plugin (or for the encapsulated
 * group of its routes under one prefix), before the body is read or validated, so an unknown
 * caller costs no parsing. Usage in a plugin:
 *
 *   app.addHook('onRequest', requireAuth);
 *   app.get('/x', { schema }, async (request) => {
 *     const { user, site, session } = authContextOf(request);
 *   });
 *
 * Public routes of the same plugin go in a sibling `app.register(async (open) => { ... })` without
 * the hook. Failures throw DomainErrors: 'unauthorized' is 401 { success: false, message: 'Unauthorized' },
 * a missing role 403.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AreaName } from '../../common/constants';
import { INGEST_KEY_HEADER } from '../../common/ingest-contract';
import { OWN_MESSAGES } from '../../common/messages';
import { canContinue } from '../../common/roles';
import type { AuthContext, AuthenticateOptions } from '../domain/auth-context';
import { forbidden, unauthorized } from '../domain/errors';
import { INGEST_KEY_FAILURES_PER_IP } from '../domain/rate-limit';
import './types';

type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function make(options: AuthenticateOptions, area?: AreaName): AuthHook {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const ctx = await request.server.services.auth.authenticate(request, options);
    if (area && !canContinue(ctx.user.roles, area)) throw forbidden();
    request.authContext = ctx;
  };
}

/** Bearer token + management API key (xapikey / x-api-key) required. */
export const requireAuth = make({ apiKey: 'required' });

/** As requireAuth, and also for a session that still owes its site's required authenticator app (session checks). */
export const requireAuthDuringEnrolment = make({ apiKey: 'required', authenticatorEnrolment: 'allowed' });

/** As requireAuth, and a role in `area` (any level); anything less is a 403 that never reaches the domain. */
export function requireRoleIn(area: AreaName): AuthHook {
  return make({ apiKey: 'required' }, area);
}

/**
 * The site's app key (header x-ingestion-key: the key its players send events with and its apps
 * redeem coupons with; only its SHA-256 is stored), for the routes the site's apps call rather than
 * staff: POST /v1/events, GET the ingestion roster, POST /v1/coupons/redeem. Checked before the body
 * is parsed, so an unknown caller costs no JSON parsing. Missing or unknown key: 401; wrong keys are
 * limited per address after the look-up (failures only: a valid key is never slowed by wrong ones sent
 * from the same address, players behind one carrier NAT; see INGEST_KEY_FAILURES_PER_IP), 429 with
 * Retry-After. Answers the reply it sent (a hook that sends must return it: Fastify then stops), or
 * undefined with `request.appKeySiteId` set to the key's site.
 */
export async function requireAppKey(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const header = request.headers[INGEST_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyMissing });
  const { ingestion, limiter } = request.server.services;
  const siteId = await ingestion.siteOfIngestionKey(key);
  if (!siteId) {
    const failures = await limiter.hit(`ingestKeyFailed:ip:${request.ip}`, INGEST_KEY_FAILURES_PER_IP);
    if (!failures.allowed) {
      return reply.code(429).header('retry-after', String(failures.retryAfterSeconds)).send({ success: false, message: OWN_MESSAGES.ingestKeyFailuresLimited });
    }
    return reply.code(401).send({ success: false, message: OWN_MESSAGES.ingestKeyInvalid });
  }
  request.appKeySiteId = siteId;
  return undefined;
}

/** The site of a request that passed requireAppKey. */
export function appKeySiteOf(request: FastifyRequest): string {
  if (!request.appKeySiteId) throw unauthorized();
  return request.appKeySiteId;
}

export function authContextOf(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

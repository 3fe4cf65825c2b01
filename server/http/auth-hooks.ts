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
import { canContinue } from '../../common/roles';
import type { AuthContext, AuthenticateOptions } from '../domain/auth-context';
import { forbidden, unauthorized } from '../domain/errors';
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

export function authContextOf(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

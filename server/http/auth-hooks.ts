/**
 * preHandlers for authenticated routes. Usage in another plugin:
 *
 *   app.get('/x', { preHandler: requireAuth }, async (request) => {
 *     const { user, site, session } = authContextOf(request);
 *   });
 *
 * Failures throw an 'unauthorized' DomainError: 401 { success: false, message: 'Unauthorized' }.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, AuthenticateOptions } from '../domain/auth-context';
import { unauthorized } from '../domain/errors';
import './types';

function make(options: AuthenticateOptions) {
  return async function preHandler(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    request.authContext = await request.server.services.auth.authenticate(request, options);
  };
}

/** Bearer token + management API key (xapikey / x-api-key) required. */
export const requireAuth = make({ apiKey: 'required' });

/** As requireAuth, and also for a session that still owes its site's required authenticator app (session checks). */
export const requireAuthDuringEnrolment = make({ apiKey: 'required', authenticatorEnrolment: 'allowed' });

export function authContextOf(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

/**
 * preHandlers for authenticated routes. Usage in another plugin:
 *
 *   app.get('/x', { preHandler: requireAuth }, async (request) => {
 *     const { user, site, session } = authContextOf(request);
 *   });
 *
 * Failures answer 401 { success: false, message: 'Unauthorized' } via the global error handler.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, AuthenticateOptions } from '../domain/auth-context';
import { UnauthorizedError } from '../domain/errors';
import './types';

function make(options: AuthenticateOptions) {
  return async function preHandler(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    request.authContext = await request.server.services.auth.authenticate(request, options);
  };
}

/** Bearer token + management API key (xapikey / x-api-key) required. */
export const requireAuth = make({ apiKey: 'required' });
/** Bearer token required; the API key is checked only when sent. */
export const requireAuthKeyOptional = make({ apiKey: 'optional' });

export function authContextOf(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw new UnauthorizedError();
  return request.authContext;
}

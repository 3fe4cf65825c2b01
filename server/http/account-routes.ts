/**
 * `/v3.0/user/account`: the signed-in user's own account (issue 19). Any signed-in user, any role.
 *
 *   GET    /sessions             the caller's active sessions (device, address, last seen; this one marked)
 *   DELETE /sessions/:sessionId  end one of them at once (the verify route refuses it from then on)
 */
import { API_PATHS } from '../../common/constants';
import { authContextOf, requireAuth } from './auth-hooks';
import { ADMIN_RESPONSES, answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import './types';

const BASE = API_PATHS.accountSessions;

const SESSION_PARAMS = {
  type: 'object',
  required: ['sessionId'],
  properties: { sessionId: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } },
} as const;

/** The example of "How to add a route" (ARCHITECTURE.md): services from the app, one auth hook, schemas for every answer. */
export const accountRoutes: RoutePlugin = async (app) => {
  const own = app.services.ownSessions;

  // Every route of this plugin: a session and the management key, checked before the body is read.
  app.addHook('onRequest', requireAuth);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get(BASE, {
    schema: { response: answers({ 200: ADMIN_RESPONSES.sessions }) },
  }, async (request) => own.list(authContextOf(request)));

  app.delete(`${BASE}/:sessionId`, {
    schema: { params: SESSION_PARAMS, response: answers({ 200: ADMIN_RESPONSES.endSessions }) },
  }, async (request) => own.end(authContextOf(request), request.params.sessionId, request.ip));
};

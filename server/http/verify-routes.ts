/** Own-origin routes of spec §7.4: session check, cloud provider, device id. */
import { randomUUID } from 'node:crypto';
import { API_PATHS } from '../../common/constants';
import { SCHEMAS, type DeviceResponse, type VerifyResponse, type VerifySiteResponse } from '../../common/contract';
import { isDomainError } from '../domain/errors';
import { authContextOf, requireAuthDuringEnrolment } from './auth-hooks';
import { answers } from './response-schemas';
import type { RouteInstance, RoutePlugin } from './type-provider';
import './types';

export const verifyRoutes: RoutePlugin = async (app) => {
  // The session check answers whether the session is valid, so its hook answers 401 { valid: false }
  // instead of failing; it answers during a required authenticator enrolment too (else the client signs out).
  await app.register(async (check: RouteInstance) => {
    check.addHook('onRequest', async (request, reply) => {
      try {
        await requireAuthDuringEnrolment(request, reply);
      } catch (error) {
        if (!isDomainError(error, 'unauthorized')) throw error;
        return reply.code(401).header('cache-control', 'no-store').send({ valid: false } satisfies VerifyResponse);
      }
      return undefined;
    });
    check.get(API_PATHS.verify, { schema: { response: answers({ 200: SCHEMAS.verifyResponse, 401: SCHEMAS.verifyResponse }) } }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { valid: true } satisfies VerifyResponse;
    });
  });

  await app.register(async (site: RouteInstance) => {
    site.addHook('onRequest', requireAuthDuringEnrolment);
    site.get(API_PATHS.verifySite, { schema: { response: answers({ 200: SCHEMAS.verifySiteResponse }) } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { provider: authContextOf(request).site.cloudProvider } satisfies VerifySiteResponse;
    });
  });

  // Public: a new device id.
  app.get(API_PATHS.device, { schema: { response: answers({ 200: SCHEMAS.deviceResponse }) } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { deviceId: randomUUID() } satisfies DeviceResponse;
  });
};

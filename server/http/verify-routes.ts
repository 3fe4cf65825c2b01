/** Own-origin routes of spec §7.4: session check, cloud provider, device id. */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { API_PATHS } from '../../common/constants';
import { SCHEMAS, type DeviceResponse, type VerifyResponse, type VerifySiteResponse } from '../../common/contract';
import { isDomainError } from '../domain/errors';
import { authContextOf, requireAuthDuringEnrolment } from './auth-hooks';
import { answers } from './response-schemas';
import './types';

export const verifyRoutes: FastifyPluginAsync = async (app) => {
  app.get(API_PATHS.verify, { schema: { response: answers({ 200: SCHEMAS.verifyResponse, 401: SCHEMAS.verifyResponse }) } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      // The session check answers during a required authenticator enrolment too (else the client signs out).
      await app.services.auth.authenticate(request, { apiKey: 'required', authenticatorEnrolment: 'allowed' });
    } catch (error) {
      if (isDomainError(error, 'unauthorized')) {
        return reply.code(401).send({ valid: false } satisfies VerifyResponse);
      }
      throw error;
    }
    return { valid: true } satisfies VerifyResponse;
  });

  app.get(API_PATHS.verifySite, { preHandler: requireAuthDuringEnrolment, schema: { response: answers({ 200: SCHEMAS.verifySiteResponse }) } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { provider: authContextOf(request).site.cloudProvider } satisfies VerifySiteResponse;
  });

  app.get(API_PATHS.device, { schema: { response: answers({ 200: SCHEMAS.deviceResponse }) } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { deviceId: randomUUID() } satisfies DeviceResponse;
  });
};

/** Own-origin routes of spec §7.4: session check, cloud provider, device id. */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { API_PATHS } from '../../src/config';
import type { DeviceResponse, VerifyResponse, VerifySiteResponse } from '../../src/api/contract';
import { DomainError } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import './types';

export const verifyRoutes: FastifyPluginAsync = async (app) => {
  app.get(API_PATHS.verify, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await app.services.auth.authenticate(request, { apiKey: 'required' });
    } catch (error) {
      if (error instanceof DomainError && error.statusCode === 401) {
        return reply.code(401).send({ valid: false } satisfies VerifyResponse);
      }
      throw error;
    }
    return { valid: true } satisfies VerifyResponse;
  });

  app.get(API_PATHS.verifySite, { preHandler: requireAuth }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { provider: authContextOf(request).site.cloudProvider } satisfies VerifySiteResponse;
  });

  app.get(API_PATHS.device, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { deviceId: randomUUID() } satisfies DeviceResponse;
  });
};

/**
 * Authentication endpoints of spec §7.3 (v3.0 user auth). Bodies validated with the shared
 * SCHEMAS; the flows live in server/domain/auth-flows.ts.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { API_PATHS } from '../../src/config';
import {
  SCHEMAS, type ForgotPasswordRequest, type GenerateOtpRequest, type LoginRequest, type ResetPasswordRequest, type VerifyOtpRequest,
} from '../../src/api/contract';
import type { FlowResult } from '../domain/auth-flows';
import './types';

function send<T>(reply: FastifyReply, result: FlowResult<T>) {
  reply.header('cache-control', 'no-store');
  if (result.statusCode === 429) {
    const retry = (result.body as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retry) reply.header('retry-after', String(retry));
  }
  return reply.code(result.statusCode).send(result.body);
}

export const authRoutes: FastifyPluginAsync = async (app) => {
  const flows = app.services.authFlows;

  app.post<{ Body: LoginRequest }>(API_PATHS.login, { schema: { body: SCHEMAS.login } }, async (request, reply) =>
    send(reply, await flows.login(request.body, request)));

  app.post<{ Body: GenerateOtpRequest }>(API_PATHS.generateOtp, { schema: { body: SCHEMAS.generateOtp } }, async (request, reply) =>
    send(reply, await flows.generateOtp(request.body, request)));

  app.post<{ Body: VerifyOtpRequest }>(API_PATHS.verifyOtp, { schema: { body: SCHEMAS.verifyOtp } }, async (request, reply) =>
    send(reply, await flows.verifyOtp(request.body, request)));

  app.post<{ Body: ForgotPasswordRequest }>(API_PATHS.forgotPassword, { schema: { body: SCHEMAS.forgotPassword } }, async (request, reply) =>
    send(reply, await flows.forgotPassword(request.body, request)));

  app.post<{ Body: ResetPasswordRequest }>(API_PATHS.resetPassword, { schema: { body: SCHEMAS.resetPassword } }, async (request, reply) =>
    send(reply, await flows.resetPassword(request.body, request)));

  app.get(API_PATHS.loginInfo, async (request, reply) => send(reply, await flows.loginInfo(request)));

  app.post(API_PATHS.logout, async (request, reply) => send(reply, await flows.logout(request)));
};

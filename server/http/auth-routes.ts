/**
 * Authentication endpoints of spec §7.3 (v3.0 user auth). Request bodies are validated and 200
 * answers serialised with the shared SCHEMAS (other statuses carry the same shapes or the error
 * handler's); the flows live in server/domain/auth-flows.ts.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { API_PATHS } from '../../common/constants';
import {
  SCHEMAS, type ForgotPasswordRequest, type GenerateOtpRequest, type LoginRequest, type ResetPasswordRequest, type VerifyOtpRequest,
} from '../../common/contract';
import type { FlowResult } from '../domain/auth-flows';
import { answers } from './response-schemas';
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

  app.post<{ Body: LoginRequest }>(API_PATHS.login, { schema: { body: SCHEMAS.login, response: answers({ 200: SCHEMAS.loginResponse }) } }, async (request, reply) =>
    send(reply, await flows.login(request.body, request)));

  app.post<{ Body: GenerateOtpRequest }>(API_PATHS.generateOtp, { schema: { body: SCHEMAS.generateOtp, response: answers({ 200: SCHEMAS.generateOtpResponse }) } }, async (request, reply) =>
    send(reply, await flows.generateOtp(request.body, request)));

  app.post<{ Body: VerifyOtpRequest }>(API_PATHS.verifyOtp, { schema: { body: SCHEMAS.verifyOtp, response: answers({ 200: SCHEMAS.verifyOtpResponse }) } }, async (request, reply) =>
    send(reply, await flows.verifyOtp(request.body, request)));

  app.post<{ Body: ForgotPasswordRequest }>(API_PATHS.forgotPassword, { schema: { body: SCHEMAS.forgotPassword, response: answers({ 200: SCHEMAS.forgotPasswordResponse }) } }, async (request, reply) =>
    send(reply, await flows.forgotPassword(request.body, request)));

  app.post<{ Body: ResetPasswordRequest }>(API_PATHS.resetPassword, { schema: { body: SCHEMAS.resetPassword, response: answers({ 200: SCHEMAS.resetPasswordResponse }) } }, async (request, reply) =>
    send(reply, await flows.resetPassword(request.body, request)));

  app.get(API_PATHS.loginInfo, { schema: { response: answers({ 200: SCHEMAS.siteProfile }) } }, async (request, reply) =>
    send(reply, await flows.loginInfo(request)));

  app.post(API_PATHS.logout, { schema: { response: answers({ 200: SCHEMAS.logoutResponse }) } }, async (request, reply) =>
    send(reply, await flows.logout(request)));
};

/**
 * Authentication endpoints of spec §7.3 (v3.0 user auth). Request bodies are validated and 200
 * answers serialised with the shared SCHEMAS (other statuses carry the same shapes or the error
 * handler's); the flows live in server/domain/auth-flows.ts.
 */
import type { FastifyReply } from 'fastify';
import { API_PATHS } from '../../common/constants';
import { SCHEMAS } from '../../common/contract';
import type {
  ForgotPasswordOutcome, GenerateOtpOutcome, LoginOutcome, Outcome, ResetPasswordOutcome, VerifyOtpOutcome,
} from '../domain/auth-flows';
import { answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import './types';

/*
 * The status of each outcome, one table per flow. Refusals are 400, not 401 (the browser client
 * treats any 401 as "session ended"); a resend within the cooldown is 429 with Retry-After; an SMS
 * that could not be sent, or sign-in that is not configured, is 503.
 */
export const LOGIN_STATUS = { signedIn: 200, codeRequired: 200, codeNotSent: 503, refused: 400, unavailable: 503 } as const satisfies Record<LoginOutcome['kind'], number>;
export const GENERATE_OTP_STATUS = { sent: 200, refused: 400, coolingDown: 429, notSent: 503 } as const satisfies Record<GenerateOtpOutcome['kind'], number>;
export const VERIFY_OTP_STATUS = { verified: 200, refused: 400 } as const satisfies Record<VerifyOtpOutcome['kind'], number>;
export const FORGOT_PASSWORD_STATUS = { accepted: 200 } as const satisfies Record<ForgotPasswordOutcome['kind'], number>;
export const RESET_PASSWORD_STATUS = { changed: 200, refused: 400 } as const satisfies Record<ResetPasswordOutcome['kind'], number>;

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

function send<K extends string, T>(reply: FastifyReply, status: Readonly<Record<K, number>>, outcome: Outcome<K, T> & { retryAfterSeconds?: number }) {
  noStore(reply);
  if (outcome.retryAfterSeconds) reply.header('retry-after', String(outcome.retryAfterSeconds));
  const code: number = status[outcome.kind];
  return reply.code(code).send(outcome.body);
}

export const authRoutes: RoutePlugin = async (app) => {
  const flows = app.services.authFlows;

  app.post(API_PATHS.login, { schema: { body: SCHEMAS.login, response: answers({ 200: SCHEMAS.loginResponse }) } }, async (request, reply) =>
    send(reply, LOGIN_STATUS, await flows.login(request.body, request)));

  app.post(API_PATHS.generateOtp, { schema: { body: SCHEMAS.generateOtp, response: answers({ 200: SCHEMAS.generateOtpResponse }) } }, async (request, reply) =>
    send(reply, GENERATE_OTP_STATUS, await flows.generateOtp(request.body, request)));

  app.post(API_PATHS.verifyOtp, { schema: { body: SCHEMAS.verifyOtp, response: answers({ 200: SCHEMAS.verifyOtpResponse }) } }, async (request, reply) =>
    send(reply, VERIFY_OTP_STATUS, await flows.verifyOtp(request.body, request)));

  app.post(API_PATHS.forgotPassword, { schema: { body: SCHEMAS.forgotPassword, response: answers({ 200: SCHEMAS.forgotPasswordResponse }) } }, async (request, reply) =>
    send(reply, FORGOT_PASSWORD_STATUS, await flows.forgotPassword(request.body, request)));

  app.post(API_PATHS.resetPassword, { schema: { body: SCHEMAS.resetPassword, response: answers({ 200: SCHEMAS.resetPasswordResponse }) } }, async (request, reply) =>
    send(reply, RESET_PASSWORD_STATUS, await flows.resetPassword(request.body, request)));

  app.get(API_PATHS.loginInfo, { schema: { response: answers({ 200: SCHEMAS.siteProfile }) } }, async (request, reply) =>
    noStore(reply).send(await flows.loginInfo(request)));

  app.post(API_PATHS.logout, { schema: { response: answers({ 200: SCHEMAS.logoutResponse }) } }, async (request, reply) =>
    noStore(reply).send(await flows.logout(request)));
};

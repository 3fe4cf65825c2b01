/**
 * `/v3.0/user/admin` (spec §7.3 "user/admin"): the Admin area over REST. Every route but the two
 * set-password ones needs a session and a role in Admin; the domain (server/domain/staff-admin.ts)
 * refuses writes below Admin write and keeps every query on the caller's site.
 *
 *   GET    /staff?search=&page=&pageSize=         staff of the caller's site
 *   POST   /staff                                 create (answers a one-time set-password link)
 *   GET    /staff/:id                             one account
 *   PUT    /staff/:id                             display name, phone, 2FA, roles (+ version)
 *   POST   /staff/:id/disable | /staff/:id/enable  (+ version)
 *   GET    /staff/:id/sessions                    active sessions
 *   POST   /staff/:id/sessions/end                end them all
 *   DELETE /staff/:id/sessions/:sessionId         end one
 *   POST   /staff/:id/password-reset              a new set-password link
 *   POST   /staff/:id/second-factor/reset         a new mobile number for the SMS code (+ version)
 *   PUT    /site/second-factor                    { rule }: the site's second-factor rule (issue 30; Admin write or contributor)
 *   GET    /audit?area=&action=&who=&objectKind=&object=&from=&to=&page=    the site's audit log, in words
 *   GET    /audit/export?(the same filters)      every matching row (the CSV export)
 *   POST   /set-password/check, /set-password     public: the link's owner sets their password
 */
import type { FastifyRequest } from 'fastify';
import { ADMIN_SCHEMAS } from '../../common/admin-contract';
import { AUDIT_EXPORT_PATH, AUDIT_LOG_QUERY_SCHEMA } from '../../common/audit-actions';
import { API_PATHS, AREAS } from '../../common/constants';
import { SECOND_FACTOR_RULE_PATH, SECOND_FACTOR_RULE_SCHEMA } from '../../common/second-factor-rule';
import { rateLimited } from '../domain/errors';
import { authContextOf, requireRoleIn } from './auth-hooks';
import { ADMIN_RESPONSES, answers } from './response-schemas';
import type { RouteInstance, RoutePlugin } from './type-provider';
import './types';

const BASE = API_PATHS.admin;

/** Set-password tries per client address per 15 minutes: enough for typos, not for guessing. */
const SET_PASSWORD_RULE = { limit: 30, windowSeconds: 900 };

export const adminRoutes: RoutePlugin = async (app) => {
  const services = app.services;
  const admin = services.staffAdmin;

  async function limitSetPassword(request: FastifyRequest): Promise<void> {
    const result = await services.limiter.hit(`setPassword:ip:${request.ip}`, SET_PASSWORD_RULE);
    if (!result.allowed) throw rateLimited(result.retryAfterSeconds);
  }

  // Staff details and links must not linger in any cache (this hook stays inside this plugin).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  // Staff, site and audit: a session and a role in Admin; anything less never reaches the domain.
  await app.register(async (area: RouteInstance) => {
    area.addHook('onRequest', requireRoleIn(AREAS.admin));

    area.get(`${BASE}/staff`, { schema: { querystring: ADMIN_SCHEMAS.staffListQuery, response: answers({ 200: ADMIN_RESPONSES.staffList }) } }, async (request) =>
      admin.list(authContextOf(request), request.query));

    area.post(`${BASE}/staff`, { schema: { body: ADMIN_SCHEMAS.createStaff, response: answers({ 201: ADMIN_RESPONSES.staffChange }) } }, async (request, reply) => {
      const result = await admin.create(authContextOf(request), request.body);
      return reply.code(201).send(result);
    });

    area.get(`${BASE}/staff/:id`, { schema: { params: ADMIN_SCHEMAS.staffParams, response: answers({ 200: ADMIN_RESPONSES.staff }) } }, async (request) =>
      ({ success: true, staff: await admin.get(authContextOf(request), request.params.id) }));

    area.put(`${BASE}/staff/:id`, {
      schema: { params: ADMIN_SCHEMAS.staffParams, body: ADMIN_SCHEMAS.updateStaff, response: answers({ 200: ADMIN_RESPONSES.staffChange }) },
    }, async (request) => admin.update(authContextOf(request), request.params.id, request.body));

    area.post(`${BASE}/staff/:id/disable`, {
      schema: { params: ADMIN_SCHEMAS.staffParams, body: ADMIN_SCHEMAS.version, response: answers({ 200: ADMIN_RESPONSES.staffChange }) },
    }, async (request) => admin.setDisabled(authContextOf(request), request.params.id, true, request.body.version));

    area.post(`${BASE}/staff/:id/enable`, {
      schema: { params: ADMIN_SCHEMAS.staffParams, body: ADMIN_SCHEMAS.version, response: answers({ 200: ADMIN_RESPONSES.staffChange }) },
    }, async (request) => admin.setDisabled(authContextOf(request), request.params.id, false, request.body.version));

    area.get(`${BASE}/staff/:id/sessions`, { schema: { params: ADMIN_SCHEMAS.staffParams, response: answers({ 200: ADMIN_RESPONSES.sessions }) } }, async (request) =>
      admin.sessions(authContextOf(request), request.params.id));

    area.post(`${BASE}/staff/:id/sessions/end`, { schema: { params: ADMIN_SCHEMAS.staffParams, response: answers({ 200: ADMIN_RESPONSES.endSessions }) } }, async (request) =>
      admin.endSessions(authContextOf(request), request.params.id));

    area.delete(`${BASE}/staff/:id/sessions/:sessionId`, { schema: { params: ADMIN_SCHEMAS.sessionParams, response: answers({ 200: ADMIN_RESPONSES.endSessions }) } }, async (request) =>
      admin.endSession(authContextOf(request), request.params.id, request.params.sessionId));

    area.post(`${BASE}/staff/:id/password-reset`, { schema: { params: ADMIN_SCHEMAS.staffParams, response: answers({ 200: ADMIN_RESPONSES.staffChange }) } }, async (request) =>
      admin.triggerPasswordReset(authContextOf(request), request.params.id));

    area.post(`${BASE}/staff/:id/second-factor/reset`, {
      schema: { params: ADMIN_SCHEMAS.staffParams, body: ADMIN_SCHEMAS.resetSecondFactor, response: answers({ 200: ADMIN_RESPONSES.staffChange }) },
    }, async (request) => admin.resetSecondFactor(authContextOf(request), request.params.id, request.body));

    // The second-factor rule (issue 30): one value, one revision and one audit row per change.
    area.put(`${BASE}${SECOND_FACTOR_RULE_PATH}`, {
      schema: { body: SECOND_FACTOR_RULE_SCHEMA, response: answers({ 200: ADMIN_RESPONSES.secondFactorRule }) },
    }, async (request) => admin.setSecondFactorRule(authContextOf(request), request.body.rule));

    // The audit log (issue 28): filters by area, action, actor, object and dates; rows in words; the export carries every matching row.
    area.get(`${BASE}/audit`, { schema: { querystring: AUDIT_LOG_QUERY_SCHEMA, response: answers({ 200: ADMIN_RESPONSES.audit }) } }, async (request) =>
      services.auditLog.list(authContextOf(request), request.query));
    area.get(`${BASE}${AUDIT_EXPORT_PATH}`, { schema: { querystring: AUDIT_LOG_QUERY_SCHEMA, response: answers({ 200: ADMIN_RESPONSES.auditExport }) } }, async (request) =>
      services.auditLog.export(authContextOf(request), request.query));
  });

  // Set-password: public (the link's token is the credential), limited per client address.
  await app.register(async (open: RouteInstance) => {
    open.post(`${BASE}/set-password/check`, { schema: { body: ADMIN_SCHEMAS.setPasswordCheck, response: answers({ 200: ADMIN_RESPONSES.setPasswordCheck }) } }, async (request) => {
      await limitSetPassword(request);
      return admin.checkSetPasswordToken(request.body.token);
    });

    open.post(`${BASE}/set-password`, { schema: { body: ADMIN_SCHEMAS.setPassword, response: answers({ 200: ADMIN_RESPONSES.setPassword }) } }, async (request) => {
      await limitSetPassword(request);
      return admin.setPassword(request.body, request.ip);
    });
  });
};

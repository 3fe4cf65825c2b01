/**
 * Issue 41 (qoe-query): the QoE pages' reads over raw playback sessions (server/domain/qoe.ts):
 *
 *   GET /appcms/v2/qoe/values?dimension=&from&to&network&f=         sessions per value (the picker)
 *   GET /appcms/v2/qoe/views?from&to&network&f=&page=&sort=&dir=    the sessions behind a figure
 *   GET /appcms/v2/qoe/views/:sessionId                             one view: dimensions and timeline
 *
 * Dashboard 360 read or better on the caller's own site (a site outside ANALYTICS_ALLOWED_SITES gets
 * 403, like the reports); from/to are the site's days (its zone); bad input answers 400 naming the
 * parameter; another site's session (or an id that is not one) is 404.
 */
import { AREAS } from '../../common/constants';
import { QOE_VALUES_PATH, QOE_VIEWS_PATH, type QoeValuesAnswer, type QoeViewAnswer, type QoeViewsAnswer } from '../../common/qoe';
import { applyAllowedSites, canContinue } from '../../common/roles';
import { siteDayOf } from '../../common/site-day';
import { forbidden } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import { answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import type { FastifyRequest } from 'fastify';
import './types';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const object = <P extends Record<string, unknown>>(properties: P) => ({ type: 'object', properties }) as const;

const text = { type: 'string', maxLength: 4000 } as const;
/** Every parameter is checked by the domain (server/domain/qoe.ts), which refuses unknown ones by name. */
const QUERY = { type: 'object', additionalProperties: { anyOf: [text, { type: 'array', items: text }] } } as const;

const VIEW_ROW = {
  sessionId: str, startedAt: str, endedAt: strOrNull, subscriberId: str, viewer: str, contentId: str, contentType: str, title: str,
  device: str, os: str, player: str, country: str, isp: str, cdn: str, watchedSeconds: num, startupMs: num, rebufferCount: num,
  rebufferPct: num, bitrateKbps: numOrNull, errorCode: strOrNull,
} as const;

const VALUES_RESPONSE = object({
  success: bool, dimension: str,
  values: { type: 'array', items: object({ value: str, label: str, sessions: num }) },
});
const VIEWS_RESPONSE = object({
  success: bool, total: num, page: num, pageSize: num, rows: { type: 'array', items: object(VIEW_ROW) },
});
const VIEW_RESPONSE = object({
  success: bool,
  view: object({ ...VIEW_ROW, dimensions: { type: 'array', items: object({ dimension: str, value: str, label: str }) } }),
  timeline: { type: 'array', items: object({ at: str, kind: str, playheadSeconds: numOrNull, text: str }) },
});

export const qoeRoutes: RoutePlugin = async (app) => {
  app.addHook('onRequest', requireAuth);

  /** The caller's site when its roles read Dashboard 360 there, and the site's today (in its zone). */
  function readerSite(request: FastifyRequest): { siteId: string; today: string } {
    const { user, site } = authContextOf(request);
    const roles = applyAllowedSites(user.roles, site.siteInternalName, app.services.config.runtime.analyticsAllowedSites);
    if (!canContinue(roles, AREAS.dashboard360)) throw forbidden();
    return { siteId: site.id, today: siteDayOf(new Date(), site.defaultTimezone) };
  }

  app.get(QOE_VALUES_PATH, {
    schema: { querystring: QUERY, response: answers({ 200: VALUES_RESPONSE }) },
  }, async (request, reply): Promise<QoeValuesAnswer> => {
    const { siteId, today } = readerSite(request);
    reply.header('cache-control', 'private, max-age=0');
    return app.services.qoe.values(siteId, request.query, today);
  });

  app.get(QOE_VIEWS_PATH, {
    schema: { querystring: QUERY, response: answers({ 200: VIEWS_RESPONSE }) },
  }, async (request, reply): Promise<QoeViewsAnswer> => {
    const { siteId, today } = readerSite(request);
    reply.header('cache-control', 'private, max-age=0');
    return app.services.qoe.views(siteId, request.query, today);
  });

  app.get(`${QOE_VIEWS_PATH}/:sessionId`, {
    schema: {
      params: { type: 'object', required: ['sessionId'], properties: { sessionId: { type: 'string', maxLength: 64 } } },
      response: answers({ 200: VIEW_RESPONSE }),
    },
  }, async (request, reply): Promise<QoeViewAnswer> => {
    const { siteId } = readerSite(request);
    reply.header('cache-control', 'private, max-age=0');
    return app.services.qoe.view(siteId, request.params.sessionId);
  });
};

/**
 * The content library over REST, on the paths spec §7.5 names (`content/`, `live/video`):
 *
 *   GET   /v2.0/content?mediaType=&start=&limit=&max=&q=&status=&sort=   one page of the library
 *   GET   /v2.0/live/video?start=&limit=&max=&q=&status=&sort=           the same, live items only
 *   GET   /v2.0/content/:id                                              one item, its plays and QoS
 *   PATCH /v2.0/content/:id                                              edit (version required)
 *   POST  /v2.0/content/bulk-status                                      publish / unpublish many
 *
 * Bounds are refused, not clamped: start 0..100000, limit 1..100, max 1..100000, q up to 100
 * characters; a value outside gets a 400 whose message names the parameter
 * (`querystring.limit must be <= 100`). An id that is not a UUID is simply not found (404).
 */
import { API_PATHS } from '../../common/constants';
import { CONTENT_SCHEMAS } from '../../common/content';
import { OWN_MESSAGES } from '../../common/messages';
import { notFound } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import { CONTENT_RESPONSES, answers } from './response-schemas';
import './types';
import type { RoutePlugin } from './type-provider';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

function checkedId(id: string): string {
  if (!UUID.test(id)) throw notFound(OWN_MESSAGES.contentNotFound);
  return id.toLowerCase();
}

const { mediaType: _mediaType, ...liveQueryProperties } = CONTENT_SCHEMAS.listQuery.properties;
void _mediaType;
const liveQuery = { ...CONTENT_SCHEMAS.listQuery, properties: liveQueryProperties };

export const contentRoutes: RoutePlugin = async (app) => {
  const { content } = app.services;
  // Every route of this plugin: a session and the management key.
  app.addHook('onRequest', requireAuth);

  app.get(API_PATHS.content, {
    schema: { querystring: CONTENT_SCHEMAS.listQuery, response: answers({ 200: CONTENT_RESPONSES.list }) },
  }, async (request) => content.list(authContextOf(request), request.query));

  app.get(API_PATHS.liveVideo, {
    schema: { querystring: liveQuery, response: answers({ 200: CONTENT_RESPONSES.list }) },
  }, async (request) => content.list(authContextOf(request), { ...request.query, mediaType: 'live' }));

  app.get(`${API_PATHS.content}/:id`, {
    schema: { params: idParams, response: answers({ 200: CONTENT_RESPONSES.detail }) },
  }, async (request) => content.detail(authContextOf(request), checkedId(request.params.id)));

  app.patch(`${API_PATHS.content}/:id`, {
    schema: { params: idParams, body: CONTENT_SCHEMAS.update, response: answers({ 200: CONTENT_RESPONSES.update }) },
  }, async (request) => content.update(authContextOf(request), checkedId(request.params.id), request.body));

  app.post(`${API_PATHS.content}/bulk-status`, {
    schema: { body: CONTENT_SCHEMAS.bulkStatus, response: answers({ 200: CONTENT_RESPONSES.bulkStatus }) },
  }, async (request) => {
    const body = request.body;
    return content.bulkStatus(authContextOf(request), { ...body, items: body.items.map((item) => ({ ...item, id: item.id.toLowerCase() })) });
  });
};

/**
 * Creating content over REST (issue 29; common/content.ts CONTENT_CREATE_PATHS):
 *
 *   POST /v2.0/content                    a new video, series (with seasons), episode or live event (a draft)
 *   POST /v2.0/content/artwork/:slot      poster or thumbnail: the raw PNG/WebP as the body; answers its stored URL
 *   GET  /v2.0/content/:id/family         a series' seasons and episodes, an episode's series
 *
 * The artwork goes through the brand images' check and storage (server/storage): decoded by content,
 * real pixel limits, re-encoded; then the slot's ratio and smallest size. The stored file is served
 * by the AppCMS files route (public, by content hash). Roles and site in server/domain/content-create.ts.
 */
import { UPLOAD_LIMITS } from '../../common/appcms';
import { CONTENT_CREATE_PATHS, CONTENT_CREATE_SCHEMA } from '../../common/content';
import { OWN_MESSAGES } from '../../common/messages';
import { invalid } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import { CONTENT_RESPONSES, answers } from './response-schemas';
import './types';
import type { RouteInstance, RoutePlugin } from './type-provider';

/** Image bodies, read as bytes (the declared type is not trusted: the content is checked). */
const UPLOAD_TYPES = ['image/png', 'image/webp', 'application/octet-stream'];

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } as const;
const slotParams = { type: 'object', required: ['slot'], properties: { slot: { type: 'string', minLength: 1, maxLength: 40 } } } as const;

export const contentCreateRoutes: RoutePlugin = async (app) => {
  const { contentCreate } = app.services;
  app.addHook('onRequest', requireAuth);

  app.post(CONTENT_CREATE_PATHS.create, {
    schema: { body: CONTENT_CREATE_SCHEMA, response: answers({ 200: CONTENT_RESPONSES.update }) },
  }, async (request) => contentCreate.create(authContextOf(request), request.body));

  app.get(`${CONTENT_CREATE_PATHS.create}/:id/family`, {
    schema: { params: idParams, response: answers({ 200: CONTENT_RESPONSES.family }) },
  }, async (request) => contentCreate.family(authContextOf(request), request.params.id));

  await app.register(async (uploads: RouteInstance) => {
    uploads.addContentTypeParser(UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: UPLOAD_LIMITS.maxBytes * 4 }, (_request, body, done) => done(null, body));
    uploads.post(`${CONTENT_CREATE_PATHS.artwork}/:slot`, {
      bodyLimit: UPLOAD_LIMITS.maxBytes * 4,
      schema: { params: slotParams, response: answers({ 200: CONTENT_RESPONSES.artworkUpload }) },
    }, async (request) => {
      if (!Buffer.isBuffer(request.body)) throw invalid('file', OWN_MESSAGES.badRequest);
      return contentCreate.uploadArtwork(authContextOf(request), request.params.slot, request.body);
    });
  });
};

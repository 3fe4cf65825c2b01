/**
 * History and restore of one object (issue 28; server/domain/history.ts), and the request context
 * every write's revision reads its request id from (server/domain/revisions.ts).
 *
 * - GET  /v1/revisions/:kind/:objectId?page&pageSize  the object's revisions, newest first (read role of its area)
 * - POST /v1/revisions/:seq/restore { version }       a new revision with the revision's `before` values
 *   (write role; a stale version is the editors' 409)
 * - POST /v1/revisions/undo { requestId }              Undo: the caller's own request (named by its
 *   x-request-id) written back, one new revision per object (write role; refused when changed since)
 */
import type { FastifyPluginAsync } from 'fastify';
import { REVISION_KINDS, REVISION_PAGE_SIZE_MAX, REVISION_PATHS, UNDO_PATH } from '../../common/revisions';
import { requestIdHeaderHook, revisionContextHook } from '../domain/revisions';
import { requireAuth, authContextOf } from './auth-hooks';
import { answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import './types';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const ANY = {} as const;

const revision = {
  type: 'object',
  properties: {
    seq: num, kind: str, objectId: str, objectName: strOrNull, networkId: strOrNull, objectVersion: numOrNull,
    actor: { type: ['object', 'null'], properties: { id: str, username: strOrNull } },
    at: str, reason: strOrNull, requestId: strOrNull, restoredFrom: numOrNull, creation: bool,
    changes: { type: 'array', items: { type: 'object', properties: { field: str, before: ANY, after: ANY } } },
  },
} as const;

export const REVISION_RESPONSES = {
  history: {
    type: 'object',
    properties: {
      success: bool, kind: str, objectId: str, items: { type: 'array', items: revision }, total: num, page: num, pageSize: num,
      canRestore: bool, restorable: bool,
    },
  },
  restore: { type: 'object', properties: { success: bool, revision: { anyOf: [revision, { type: 'null' }] }, version: numOrNull } },
  undo: { type: 'object', properties: { success: bool, revisions: { type: 'array', items: revision } } },
} as const;

/**
 * Every request's revision context (its request id): a preHandler at the root, so it runs for every
 * route registered after it (the plugin is not encapsulated), GraphQL included.
 */
export const revisionContext: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', requestIdHeaderHook);
  app.addHook('preHandler', revisionContextHook);
};
// Not encapsulated (fastify-plugin's flag): its hooks apply to the routes registered after it.
Object.defineProperty(revisionContext, Symbol.for('skip-override'), { value: true });

export const revisionRoutes: RoutePlugin = async (app) => {
  const { history } = app.services;
  app.addHook('onRequest', requireAuth);

  app.get(`${REVISION_PATHS.history}/:kind/:objectId`, {
    schema: {
      params: {
        type: 'object', required: ['kind', 'objectId'],
        properties: { kind: { type: 'string', enum: Object.keys(REVISION_KINDS) }, objectId: { type: 'string', minLength: 1, maxLength: 200 } },
      },
      querystring: {
        type: 'object',
        properties: { page: { type: 'integer', minimum: 1, maximum: 100_000 }, pageSize: { type: 'integer', minimum: 1, maximum: REVISION_PAGE_SIZE_MAX } },
      },
      response: answers({ 200: REVISION_RESPONSES.history }),
    },
  }, async (request) => history.list(authContextOf(request), request.params.kind, request.params.objectId, request.query));

  app.post(UNDO_PATH, {
    schema: {
      body: {
        type: 'object', required: ['requestId'], additionalProperties: false,
        properties: { requestId: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } },
      },
      response: answers({ 200: REVISION_RESPONSES.undo }),
    },
  }, async (request) => history.undo(authContextOf(request), request.body.requestId.toLowerCase()));

  app.post(`${REVISION_PATHS.restore}/:seq/restore`, {
    schema: {
      params: { type: 'object', required: ['seq'], properties: { seq: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } },
      body: {
        type: 'object', required: ['version'], additionalProperties: false,
        properties: { version: { type: 'integer', minimum: 0, maximum: 2_147_483_647 } },
      },
      response: answers({ 200: REVISION_RESPONSES.restore }),
    },
  }, async (request) => history.restore(authContextOf(request), request.params.seq, request.body.version));
};

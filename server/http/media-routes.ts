/**
 * Issue 40 (video): the media API (common/media-contract.ts MEDIA_PATHS).
 *
 *   GET    /v2.0/media?start=&limit=&q=&status=      the site's videos (Content read)
 *   GET    /v2.0/media/:id                           one video
 *   POST   /v2.0/media/:id/retry | /:id/cancel       (Content write)
 *   GET    /v2.0/media/:id/playback                  MediaPlayback: signed play address, poster, storyboard
 *   POST   /v2.0/media/:id/captions                  { language, label, format, text }
 *   DELETE /v2.0/media/:id/captions/:language?version=   one language's captions
 *   PUT    /v2.0/media/:id/poster                    { seconds, version? }: the poster's time (made again as a job)
 *   PUT    /v2.0/media/:id/external                  { hlsUrl, version? }: a video added from an HLS address
 *   POST   /v2.0/media/external                      { title, hlsUrl } (the site without encoding)
 *   GET    /v2.0/content/:id/video                   the item's video (Content read)
 *   PUT    /v2.0/content/:id/video                   { assetId | null }: attach, replace, remove
 *   tus 1.0 at /v2.0/media/uploads (POST creation, HEAD, PATCH, DELETE = cancel), @tus/server + FileStore
 *   GET    /v2.0/media/play/<token>/<asset>/<file>   played files: no session, the token in the path
 *
 * The tus requests are authenticated like every call (the session and the management key, Content
 * write for creation, PATCH and DELETE); the upload is the asset (its id is the asset's id) and
 * belongs to the caller's site: another site's upload or video is a 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server as TusServer, EVENTS, Metadata } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { join } from 'node:path';
import { API_PATHS } from '../../common/constants';
import { MEDIA_PATHS, MEDIA_STATUSES } from '../../common/media-contract';
import { MEDIA_MESSAGES } from '../../common/messages/media';
import { limitsFor } from '../domain/media-config';
import { DomainError, notFound } from '../domain/errors';
import { MEDIA_KEY, mediaContentType } from '../storage/media-storage';
import { receiveTusPatch } from '../storage/tus-patch';
import { authContextOf, requireAuth } from './auth-hooks';
import { RAW_BODY, answers } from './response-schemas';
import type { RouteInstance, RoutePlugin } from './type-provider';
import './types';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const object = <P extends Record<string, unknown>>(properties: P) => ({ type: 'object', properties } as const);

const asset = object({
  id: str, title: str, status: str, errorMessage: strOrNull, progress: num, uploadedBytes: num, sizeBytes: numOrNull,
  durationSeconds: numOrNull, width: numOrNull, height: numOrNull,
  renditions: { type: 'array', items: object({ name: str, width: num, height: num, bandwidth: num, progress: num, done: bool }) },
  captions: { type: 'array', items: object({ language: str, label: str, url: str }) },
  posterUrl: strOrNull, posterSeconds: numOrNull, source: str, encrypted: bool, policy: str,
  contentItemIds: { type: 'array', items: str }, createdAt: str, updatedAt: str, version: num,
});

export const MEDIA_RESPONSES = {
  list: object({ items: { type: 'array', items: asset }, total: num, start: num, limit: num }),
  asset,
  playback: object({
    hlsUrl: str, previewUrl: str, posterUrl: strOrNull, storyboardUrl: strOrNull, expiresAt: strOrNull,
    events: {
      type: ['object', 'null'],
      properties: {
        ingestionKey: str, subscriberId: str, contentId: str, networkId: str, deviceType: str, country: str, cdn: str, isp: str, playerName: str, playerVersion: str,
      },
    },
  }),
  video: object({ contentId: str, mediaAssetId: strOrNull, version: num, asset: { ...asset, type: ['object', 'null'] } }),
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } } as const;
const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    start: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    q: { type: 'string', maxLength: 100 },
    status: { type: 'string', enum: [...MEDIA_STATUSES] },
  },
} as const;

/** The headers tus clients read (and the browser may expose). */
const TUS_HEADERS = { 'tus-resumable': '1.0.0' };
/** What this server decided about a tus request before @tus/server sees it: the asset (the upload's id) and the caller's site. */
const TUS_CONTEXT = new WeakMap<object, { assetId: string; siteName: string }>();
/** The context of a tus request (srvx hands the Node request along as runtime.node.req). */
function tusContext(req: { runtime?: { node?: { req: object } } }): { assetId: string; siteName: string } | undefined {
  const raw = req.runtime?.node?.req;
  return raw ? TUS_CONTEXT.get(raw) : undefined;
}

function metadataOf(request: FastifyRequest): Record<string, string> {
  const header = request.headers['upload-metadata'];
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return {};
  try {
    const parsed = Metadata.parse(text);
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v ?? '']));
  } catch {
    return {};
  }
}

function sendFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof DomainError) {
    const status = { invalid: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, rate_limited: 429, unavailable: 503 }[error.kind];
    return reply.code(status).headers(TUS_HEADERS).send({ success: false, message: error.message });
  }
  throw error;
}

export const mediaRoutes: RoutePlugin = async (app) => {
  const { media } = app.services;
  const { service, config, storage } = media;
  const uploadsDir = join(config.rootDir, 'uploads');

  const tus = new TusServer({
    path: MEDIA_PATHS.uploads,
    datastore: new FileStore({ directory: uploadsDir, expirationPeriodInMilliseconds: config.abandonedHours * 3600_000 }),
    relativeLocation: true,
    respectForwardedHeaders: false,
    postReceiveInterval: 500,
    namingFunction: (req) => {
      const id = tusContext(req)?.assetId;
      if (!id) throw { status_code: 400, body: MEDIA_MESSAGES.uploadMetadata };
      return id;
    },
    maxSize: (req) => limitsFor(config, tusContext(req)?.siteName ?? '').maxBytes,
    onUploadFinish: async (req, upload) => {
      await service.uploadFinished(upload.id, join(uploadsDir, upload.id), tusContext(req)?.siteName ?? '');
      return {};
    },
  });
  tus.on(EVENTS.POST_RECEIVE, (_req, upload) => {
    if (upload.offset !== undefined) service.uploadProgress(upload.id, upload.offset).catch((error: unknown) => app.log.warn({ err: String(error) }, 'upload progress write failed'));
  });

  /**
   * A PATCH's bytes straight into the upload's file (server/storage/tus-patch.ts: @tus/server's own
   * handler costs a loaded 2-core machine a quarter of the throughput); progress every 500 ms, and the
   * last byte hands the file to the checks as @tus/server's onUploadFinish does.
   */
  async function patch(request: FastifyRequest, reply: FastifyReply, assetId: string, siteName: string): Promise<FastifyReply> {
    let lastProgress = 0;
    const outcome = await receiveTusPatch(request.raw, uploadsDir, assetId, (offset) => {
      if (Date.now() - lastProgress < 500) return;
      lastProgress = Date.now();
      service.uploadProgress(assetId, offset).catch((error: unknown) => app.log.warn({ err: String(error) }, 'upload progress write failed'));
    });
    const headers = { ...TUS_HEADERS, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (outcome.kind === 'refused') {
      if (outcome.status === 404) throw notFound(MEDIA_MESSAGES.uploadNotFound);
      return reply.code(outcome.status).headers(headers).send({ success: false, message: outcome.reason });
    }
    if (outcome.kind === 'cut') {
      // Nobody is listening any more (or a newer PATCH took over); the bytes that arrived are kept.
      await service.uploadProgress(assetId, outcome.offset).catch(() => undefined);
      return reply.code(409).headers({ ...headers, 'upload-offset': String(outcome.offset) }).send({ success: false, message: MEDIA_MESSAGES.uploadInterrupted });
    }
    await service.uploadProgress(assetId, outcome.offset);
    if (outcome.offset === outcome.length) await service.uploadFinished(assetId, join(uploadsDir, assetId), siteName);
    return reply.code(204).headers({ ...headers, 'upload-offset': String(outcome.offset) }).send();
  }

  /** Hands the request to @tus/server (the reply is then its own). */
  async function toTus(request: FastifyRequest, reply: FastifyReply, assetId: string, siteName: string): Promise<FastifyReply> {
    TUS_CONTEXT.set(request.raw, { assetId, siteName });
    reply.hijack();
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    reply.raw.setHeader('cache-control', 'no-store');
    await tus.handle(request.raw, reply.raw);
    return reply;
  }

  app.register(async (group: RouteInstance) => {
    group.addHook('onRequest', requireAuth);
    // tus PATCH bodies stream straight to the file store: nothing parses them here.
    group.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

    group.get(MEDIA_PATHS.list, {
      schema: { querystring: listQuery, response: answers({ 200: MEDIA_RESPONSES.list }) },
    }, async (request) => service.list(authContextOf(request), request.query));

    group.get(`${MEDIA_PATHS.asset}/:id`, {
      schema: { params: idParams, response: answers({ 200: MEDIA_RESPONSES.asset }) },
    }, async (request) => service.get(authContextOf(request), request.params.id));

    group.post(`${MEDIA_PATHS.asset}/:id/retry`, {
      schema: { params: idParams, response: answers({ 200: MEDIA_RESPONSES.asset }) },
    }, async (request) => service.retry(authContextOf(request), request.params.id));

    group.post(`${MEDIA_PATHS.asset}/:id/cancel`, {
      schema: { params: idParams, response: answers({ 200: MEDIA_RESPONSES.asset }) },
    }, async (request) => service.cancel(authContextOf(request), request.params.id));

    group.get(`${MEDIA_PATHS.asset}/:id/playback`, {
      schema: { params: idParams, response: answers({ 200: MEDIA_RESPONSES.playback }) },
    }, async (request) => service.playback(authContextOf(request), request.params.id));

    group.post(`${MEDIA_PATHS.asset}/:id/captions`, {
      schema: {
        params: idParams,
        body: {
          type: 'object', additionalProperties: false, required: ['language', 'format', 'text'],
          properties: {
            language: { type: 'string', minLength: 1, maxLength: 20 }, label: { type: 'string', maxLength: 60, default: '' },
            format: { type: 'string', enum: ['vtt', 'srt'] }, text: { type: 'string', maxLength: 500_000 },
          },
        },
        response: answers({ 200: MEDIA_RESPONSES.asset }),
      },
    }, async (request) => service.putCaptions(authContextOf(request), request.params.id, { ...request.body, label: request.body.label ?? '' }));

    const versionProperty = { type: 'integer', minimum: 0, maximum: 2_147_483_647 } as const;

    group.delete(`${MEDIA_PATHS.asset}/:id/captions/:language`, {
      schema: {
        params: { type: 'object', required: ['id', 'language'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, language: { type: 'string', minLength: 1, maxLength: 20 } } },
        querystring: { type: 'object', additionalProperties: false, properties: { version: versionProperty } },
        response: answers({ 200: MEDIA_RESPONSES.asset }),
      },
    }, async (request) => service.removeCaptions(authContextOf(request), request.params.id, request.params.language, request.query.version));

    group.put(`${MEDIA_PATHS.asset}/:id/poster`, {
      schema: {
        params: idParams,
        body: {
          type: 'object', additionalProperties: false, required: ['seconds'],
          properties: { seconds: { type: 'number' }, version: versionProperty },
        },
        response: answers({ 200: MEDIA_RESPONSES.asset }),
      },
    }, async (request) => service.setPosterTime(authContextOf(request), request.params.id, request.body));

    group.put(`${MEDIA_PATHS.asset}/:id/external`, {
      schema: {
        params: idParams,
        body: {
          type: 'object', additionalProperties: false, required: ['hlsUrl'],
          properties: { hlsUrl: { type: 'string', maxLength: 2000 }, version: versionProperty },
        },
        response: answers({ 200: MEDIA_RESPONSES.asset }),
      },
    }, async (request) => service.setExternalUrl(authContextOf(request), request.params.id, request.body));

    group.post(MEDIA_PATHS.external, {
      schema: {
        body: {
          type: 'object', additionalProperties: false, required: ['title', 'hlsUrl'],
          properties: { title: { type: 'string', maxLength: 200 }, hlsUrl: { type: 'string', maxLength: 2000 } },
        },
        response: answers({ 200: MEDIA_RESPONSES.asset }),
      },
    }, async (request) => service.attachExternal(authContextOf(request), request.body));

    group.get(`${API_PATHS.content}/:id/video`, {
      schema: { params: idParams, response: answers({ 200: MEDIA_RESPONSES.video }) },
    }, async (request) => service.getVideo(authContextOf(request), request.params.id));

    group.put(`${API_PATHS.content}/:id/video`, {
      schema: {
        params: idParams,
        body: {
          type: 'object', additionalProperties: false, required: ['assetId'],
          properties: { assetId: { type: ['string', 'null'], maxLength: 100 } },
        },
        response: answers({ 200: MEDIA_RESPONSES.video }),
      },
    }, async (request) => service.setVideo(authContextOf(request), request.params.id, request.body.assetId ?? null));

    // tus: creation. The asset is made first (limits, the site's encoding, the item named), then @tus/server makes the upload under its id.
    group.post(MEDIA_PATHS.uploads, {
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: { response: answers({ 201: RAW_BODY }) },
    }, async (request, reply) => {
      const ctx = authContextOf(request);
      const meta = metadataOf(request);
      const lengthHeader = request.headers['upload-length'];
      const size = typeof lengthHeader === 'string' && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : null;
      try {
        const row = await service.createUpload(ctx, {
          filename: meta.filename ?? meta.name ?? '', filetype: meta.filetype ?? meta.type ?? '', size,
          contentItemId: meta.contentItemId || null, title: meta.title,
        });
        return await toTus(request, reply, row.id, ctx.site.siteInternalName);
      } catch (error) {
        return sendFailure(reply, error);
      }
    });

    const uploadRoute = (method: 'HEAD' | 'PATCH' | 'DELETE') => group.route({
      method,
      url: `${MEDIA_PATHS.uploads}/:id`,
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: { params: idParams, response: answers({ 200: RAW_BODY, 204: RAW_BODY }) },
      handler: async (request, reply) => {
        const ctx = authContextOf(request);
        try {
          const row = await service.uploadOf(ctx, request.params.id, method !== 'HEAD');
          if (method === 'DELETE') {
            await service.cancel(ctx, row.id);
            return reply.code(204).headers(TUS_HEADERS).send();
          }
          if (row.status !== 'waiting' && row.status !== 'uploading') {
            // Finished (or refused, or cancelled): the bytes have left the tus store.
            if (row.status === 'cancelled' || row.status === 'errored') throw notFound(MEDIA_MESSAGES.uploadNotFound);
            if (method === 'PATCH') return sendFailure(reply, new DomainError('conflict', MEDIA_MESSAGES.uploadFinished));
            const size = String(row.uploadSize ?? 0);
            return reply.code(200).headers({ ...TUS_HEADERS, 'upload-offset': size, 'upload-length': size, 'cache-control': 'no-store' }).send();
          }
          if (method === 'PATCH') return await patch(request, reply, row.id, ctx.site.siteInternalName);
          return await toTus(request, reply, row.id, ctx.site.siteInternalName);
        } catch (error) {
          return sendFailure(reply, error);
        }
      },
    });
    uploadRoute('HEAD');
    uploadRoute('PATCH');
    uploadRoute('DELETE');
  });

  // Played files: no session (players and <video> cannot send one); the token in the path names the asset and its site.
  app.register(async (open: RouteInstance) => {
    open.get(`${MEDIA_PATHS.play}/:token/:assetId/*`, {
      schema: {
        params: {
          type: 'object', required: ['token', 'assetId', '*'],
          properties: { token: { type: 'string', maxLength: 2000 }, assetId: { type: 'string', maxLength: 100 }, '*': { type: 'string', maxLength: 200 } },
        },
        response: answers({ 200: RAW_BODY, 206: RAW_BODY }),
      },
    }, async (request, reply) => {
      const { token, assetId } = request.params;
      const file = request.params['*'];
      const claims = await service.checkPlayToken(token, assetId);
      if (!claims) {
        if (file === 'key') throw new DomainError('forbidden', MEDIA_MESSAGES.keyRefused);
        throw notFound(MEDIA_MESSAGES.playbackExpired);
      }
      const row = await service.playedAsset(claims);
      if (!row || row.liveAttempt === null) throw notFound(MEDIA_MESSAGES.notFound);
      reply.header('x-content-type-options', 'nosniff');
      if (file === 'master.m3u8') {
        return reply.type(mediaContentType(file)).header('cache-control', 'private, no-cache').send(await service.master(row));
      }
      if (file === 'key') {
        if (!row.encrypted || !row.encryptionKey) throw notFound(MEDIA_MESSAGES.notFound);
        return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(Buffer.from(row.encryptionKey, 'hex'));
      }
      const caption = /^captions\/([A-Za-z0-9-]{2,20})\.(vtt|m3u8)$/.exec(file);
      if (caption) {
        const text = await service.captionText(claims, caption[1]!);
        if (text === null) throw notFound(MEDIA_MESSAGES.notFound);
        if (caption[2] === 'vtt') return reply.type(mediaContentType('x.vtt')).header('cache-control', 'private, max-age=60').send(text);
        return reply.type(mediaContentType('x.m3u8')).header('cache-control', 'private, max-age=60').send(service.captionPlaylist(row.durationSeconds ?? 0, `${caption[1]}.vtt`));
      }
      const rung = /^([A-Za-z0-9_-]{1,40})\//.exec(file)?.[1];
      if (rung && !row.doneRungs.includes(rung)) throw notFound(MEDIA_MESSAGES.notFound);
      const key = `${row.siteId}/${row.id}/v${row.liveAttempt}/${file}`;
      if (!MEDIA_KEY.test(key) || file.includes('..')) throw notFound(MEDIA_MESSAGES.notFound);
      return serveStored(request, reply, key);
    });
  });

  async function serveStored(request: FastifyRequest, reply: FastifyReply, key: string): Promise<FastifyReply> {
    const size = await storage.size(key);
    if (size === null) throw notFound(MEDIA_MESSAGES.notFound);
    const immutable = /\.(m4s|ts|mp4)$/.test(key) || key.endsWith('/index.m3u8');
    reply.type(mediaContentType(key)).header('accept-ranges', 'bytes')
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'private, max-age=300');
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ''));
    if (range && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (!range[1]) { start = Math.max(0, size - Number(range[2])); end = size - 1; }
      if (start >= size || start > end) {
        return reply.code(416).header('content-range', `bytes */${size}`).send({ success: false, message: 'The requested range is outside the file.' });
      }
      const stored = await storage.read(key, { start, end });
      if (!stored) throw notFound(MEDIA_MESSAGES.notFound);
      return reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`).header('content-length', String(end - start + 1)).send(stored.body);
    }
    const stored = await storage.read(key);
    if (!stored) throw notFound(MEDIA_MESSAGES.notFound);
    return reply.header('content-length', String(size)).send(stored.body);
  }
};

/**
 * AppCMS over REST.
 *
 * GET /v4.0/appcms/{site}/{settings|brand|device}/{networkIdentifier} (spec §7.2): one network's
 * stored data, for callers with a role in App CMS on that same site.
 *
 * The v2.0 editors (spec §7.5, common/appcms.ts APPCMS_PATHS): brand, settings with versions and
 * restore, devices, service (with the template), the signing key, the copy-from-default preview,
 * uploads (raw image bodies, checked by content) and the stored files (public, immutable, served
 * by site and content hash with their content type; a site's address serves only its own files). Refusals are DomainErrors, so they answer
 * `{ success: false, message }` with their status; never a 500 for bad input.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APPCMS_PATHS, UPLOAD_LIMITS } from '../../common/appcms';
import { API_PATHS } from '../../common/constants';
import { OWN_MESSAGES } from '../../common/messages';
import {
  copyPreview, getAppcmsService, getBrand, getDevices, getSettings, listSettingsVersions, restoreSettings, rotateSigningKey,
  saveAppcmsService, saveBrand, saveDevices, saveSettings, uploadImage, type AppcmsCaller, type AppcmsDeps,
} from '../domain/appcms';
import { invalid } from '../domain/errors';
import { isNetworkDataKind, readNetworkData, withdrawNetwork } from '../domain/networks';
import { CONTENT_TYPES } from '../storage/image-check';
import { STORAGE_KEY, type UploadStorage } from '../storage/upload-storage';
import { authContextOf, requireAuth } from './auth-hooks';
import { callerRoles } from './network-caller';
import { APPCMS_RESPONSES, RAW_BODY, answers } from './response-schemas';
import type { RouteInstance, RoutePlugin } from './type-provider';
import './types';

const segment = { type: 'string', minLength: 1, maxLength: 200 } as const;
const siteSchema = { params: { type: 'object', required: ['site'], properties: { site: segment } } } as const;
const networkSchema = { params: { type: 'object', required: ['site', 'network'], properties: { site: segment, network: segment } } } as const;

/**
 * The policy of every stored upload (issue 25): opened directly, even a hostile SVG that got in
 * could load nothing, run nothing and submit nothing (sandbox: an opaque origin without scripts,
 * forms or navigation). Inline styles stay, as SVG presentation uses them.
 */
export const UPLOAD_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** What a withdrawal answers: the network as serviceGet lists it, now not launched. */
const WITHDRAW_RESPONSE = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    network: {
      type: 'object',
      properties: { name: { type: 'string' }, identifier: { type: 'string' }, image: { type: ['string', 'null'] }, isActive: { type: 'boolean' }, isDefault: { type: 'boolean' } },
    },
  },
} as const;

/** Image bodies of an upload, read as bytes (their declared type is not trusted: the content is checked). */
const UPLOAD_TYPES = ['image/png', 'image/webp', 'image/svg+xml', 'application/octet-stream'];

/** The caller the prefix's hook authenticated, as the AppCMS rules take it. */
function callerOf(request: FastifyRequest): AppcmsCaller {
  const { user, site } = authContextOf(request);
  return { userId: user.id, siteId: site.id, roles: callerRoles(user.roles), username: user.username };
}

interface AppcmsRoutesOptions {
  /** Where uploads go; by default the composition root's (`${DATA_DIR}/uploads`, in memory for `memory://`). */
  storage?: UploadStorage;
}

export const appcmsRoutes: RoutePlugin<AppcmsRoutesOptions> = async (app, options) => {
  const { networks } = app.services;
  const deps: AppcmsDeps = options.storage ? { ...app.services.appcms, storage: options.storage } : app.services.appcms;

  // Everything but the stored files: a session and the management key; roles per site in the domain.
  await app.register(async (editors: RouteInstance) => {
    editors.addHook('onRequest', requireAuth);

    editors.get(`${API_PATHS.appcmsNetworkData}/:site/:kind/:networkIdentifier`, {
      schema: {
        params: {
          type: 'object',
          required: ['site', 'kind', 'networkIdentifier'],
          properties: { site: segment, kind: segment, networkIdentifier: segment },
        },
        response: answers({ 200: APPCMS_RESPONSES.networkData }),
      },
    }, async (request) => {
      const { site, kind, networkIdentifier } = request.params;
      if (!isNetworkDataKind(kind)) throw invalid('kind', OWN_MESSAGES.badRequest);
      return readNetworkData(networks, callerOf(request), site, kind, networkIdentifier);
    });

    /* Brand, settings, devices of one network. */
    editors.get(`${APPCMS_PATHS.brand}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.brand }) } }, async (request) =>
      getBrand(deps, callerOf(request), request.params.site, request.params.network));
    editors.put(`${APPCMS_PATHS.brand}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.brand }) } }, async (request) =>
      saveBrand(deps, callerOf(request), request.params.site, request.params.network, request.body));

    editors.get(`${APPCMS_PATHS.settings}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.settings }) } }, async (request) =>
      getSettings(deps, callerOf(request), request.params.site, request.params.network));
    editors.put(`${APPCMS_PATHS.settings}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.settings }) } }, async (request) =>
      saveSettings(deps, callerOf(request), request.params.site, request.params.network, request.body));
    editors.get(`${APPCMS_PATHS.settingsVersions}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.settingsVersions }) } }, async (request) =>
      listSettingsVersions(deps, callerOf(request), request.params.site, request.params.network));
    editors.post(`${APPCMS_PATHS.settingsRestore}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.settings }) } }, async (request) =>
      restoreSettings(deps, callerOf(request), request.params.site, request.params.network, request.body));

    editors.get(`${APPCMS_PATHS.devices}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.devices }) } }, async (request) =>
      getDevices(deps, callerOf(request), request.params.site, request.params.network));
    editors.put(`${APPCMS_PATHS.devices}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.devices }) } }, async (request) =>
      saveDevices(deps, callerOf(request), request.params.site, request.params.network, request.body));

    editors.get(`${APPCMS_PATHS.copyPreview}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: APPCMS_RESPONSES.copyPreview }) } }, async (request) =>
      copyPreview(deps, callerOf(request), request.params.site, request.params.network));

    /* Withdraw a launched network (issue 28): the reverse of networkPublish, audited, a revision of kind network. */
    editors.post(`${APPCMS_PATHS.withdraw}/:site/:network`, { schema: { ...networkSchema, response: answers({ 200: WITHDRAW_RESPONSE }) } }, async (request) => {
      const network = await withdrawNetwork(networks, callerOf(request), request.params.site, request.params.network);
      return { success: true, network };
    });

    /* Service (and template) and signing key of the site. */
    editors.get(`${APPCMS_PATHS.service}/:site`, { schema: { ...siteSchema, response: answers({ 200: APPCMS_RESPONSES.service }) } }, async (request) =>
      getAppcmsService(deps, callerOf(request), request.params.site));
    editors.put(`${APPCMS_PATHS.service}/:site`, { schema: { ...siteSchema, response: answers({ 200: APPCMS_RESPONSES.service }) } }, async (request) =>
      saveAppcmsService(deps, callerOf(request), request.params.site, request.body));
    editors.post(`${APPCMS_PATHS.signingKey}/:site`, { schema: { ...siteSchema, response: answers({ 200: APPCMS_RESPONSES.service }) } }, async (request) =>
      rotateSigningKey(deps, callerOf(request), request.params.site, request.body));

    /* Uploads: the raw image as the body; answers the URL to put in the brand. */
    await editors.register(async (uploads: RouteInstance) => {
      uploads.addContentTypeParser(UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: UPLOAD_LIMITS.maxBytes * 4 }, (_request, body, done) => done(null, body));
      uploads.post(`${APPCMS_PATHS.uploads}/:site/:network/:slot`, {
        bodyLimit: UPLOAD_LIMITS.maxBytes * 4,
        schema: {
          params: { type: 'object', required: ['site', 'network', 'slot'], properties: { site: segment, network: segment, slot: segment } },
          response: answers({ 200: APPCMS_RESPONSES.upload }),
        },
      }, async (request) => {
        const caller = callerOf(request);
        if (!Buffer.isBuffer(request.body)) throw invalid('file', OWN_MESSAGES.badRequest);
        return uploadImage(deps, caller, request.params.site, request.params.network, request.params.slot, request.body);
      });
    });
  });

  // The stored files: public, addressed by site and content hash (issue 37: a site's address serves
  // only that site's files; the unscoped address only files sites held before, see migration 0031).
  await app.register(async (open: RouteInstance) => {
    // Runs after the site-wide onSend hook (security-headers.ts), so this answer carries its own CSP.
    const fileHeaders = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      reply.header('content-security-policy', UPLOAD_CSP);
      reply.header('x-content-type-options', 'nosniff');
      return payload;
    };
    const serve = async (reply: FastifyReply, key: string, held: boolean) => {
      const bytes = held ? await deps.storage.get(key) : undefined;
      const ext = key.split('.').pop() ?? '';
      // Another site's file answers exactly like a file never stored.
      if (!bytes) return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
      return reply
        .header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=31536000, immutable')
        // The key is `<64 hex>.<ext>` (STORAGE_KEY): a safe name as it is.
        .header('content-disposition', `inline; filename="${key}"`)
        .send(bytes);
    };
    open.get(`${APPCMS_PATHS.files}/:site/:key`, {
      schema: {
        params: {
          type: 'object', required: ['site', 'key'],
          properties: { site: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }, key: { type: 'string', pattern: STORAGE_KEY.source } },
        },
        response: answers({ 200: RAW_BODY }),
      },
      onSend: fileHeaders,
    }, async (request, reply) => serve(reply, request.params.key, (await deps.store.fileHold(request.params.site, request.params.key)) !== undefined));
    open.get(`${APPCMS_PATHS.files}/:key`, {
      schema: {
        params: { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: STORAGE_KEY.source } } },
        response: answers({ 200: RAW_BODY }),
      },
      onSend: fileHeaders,
    }, async (request, reply) => serve(reply, request.params.key, await deps.store.isLegacyFile(request.params.key)));
  });
};

/**
 * Issue 40 (video): the rules of the site's videos. Content area: read to list and preview, write to
 * upload, attach, caption, cancel and retry. The tus upload (server/http/media-routes.ts) creates the
 * asset here (`createUpload`), reports its bytes (`uploadProgress`) and its end (`uploadFinished`:
 * ffprobe checks what the file holds, then the `media.encode` job is queued, server/domain/media-jobs.ts).
 * Playback goes through short-lived signed tokens (`playToken`/`checkPlayToken`) carried in the path
 * of every played file, so the playlists' relative URLs keep them.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { AREAS } from '../../common/constants';
import type { MediaAsset, MediaList, MediaPlayback, MediaPreviewEvents, MediaStatus } from '../../common/media-contract';
import { MEDIA_PATHS, MEDIA_PREVIEW_PLAYER, MEDIA_STATUSES } from '../../common/media-contract';
import { MEDIA_ENCODE_MESSAGES, MEDIA_MESSAGES } from '../../common/messages/media';
import { canContinue, canEdit } from '../../common/roles';
import type { AuthContext } from './auth-context';
import { conflict, forbidden, invalid, notFound } from './errors';
import { limitsFor, type MediaConfig, type MediaLimits } from './media-config';
import type { MediaAssetChanges, MediaAssetRow, MediaQueries, MediaRung, MediaStore } from './media-ports';
import { auditObject, recordRevision } from './revisions';
import { storedProfileOf } from './site-profile';

/** The pipeline functions the rules call (server/media-encode): handed in so tests and workers share them. */
export interface MediaProbe {
  probe(file: string, limits: MediaLimits): Promise<{ durationSeconds: number; width: number; height: number; rotation: number; fps: number; hasAudio: boolean; sizeBytes: number; ladder: MediaRung[] }>;
  /** The error's words when `error` is a refused input (MediaInputError), else null. */
  inputError(error: unknown): string | null;
  captionsToVtt(text: string, format: 'vtt' | 'srt'): string;
  /** The master playlist of the finished renditions (URIs `<rung>/index.m3u8`). */
  masterPlaylist(rungs: MediaRung[], done: string[]): string;
}

export interface MediaQueue {
  enqueue(assetId: string): Promise<void>;
  /** Makes the poster again (at the asset's posterSeconds) from the kept source, as a job. */
  enqueuePoster(assetId: string): Promise<void>;
}

/** The audit actions of a video's own writes (common/audit-actions.ts lists them with their words). */
export const MEDIA_AUDIT = {
  uploadCreated: 'media.upload_created',
  cancelled: 'media.cancelled',
  retried: 'media.retried',
  captionsSaved: 'media.captions_saved',
  captionsRemoved: 'media.captions_removed',
  externalAttached: 'media.external_attached',
  externalChanged: 'media.external_changed',
  posterTimeSet: 'media.poster_time_set',
} as const;

/** A captions file in a revision: its label and how many cues it holds (the text itself stays out of History). */
function captionSummary(row: { label: string; vtt: string } | undefined): string | null {
  if (!row) return null;
  const cues = row.vtt.split('-->').length - 1;
  return `${row.label} (${cues} ${cues === 1 ? 'cue' : 'cues'})`;
}

interface Log { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void }

export interface MediaDeps {
  store: MediaStore;
  config: MediaConfig;
  /** The server's JWT secret: play tokens are signed with a key derived from it. */
  secret: string;
  probe: MediaProbe;
  queue: MediaQueue;
  /** Deletes a stored asset's files (every attempt) and its unfinished upload. */
  removeFiles(siteId: string, assetId: string): Promise<void>;
  /** Puts the finished upload's file where workers find it (storage `v0/source`). */
  keepSource(siteId: string, assetId: string, uploadFile: string): Promise<void>;
  log: Log;
  now?: () => Date;
}

export interface PlayClaims { siteId: string; assetId: string }

const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Kinds of content that carry a video. */
export const VIDEO_KINDS = ['video', 'episode'] as const;
const VIDEO_KIND_SET: ReadonlySet<string> = new Set(VIDEO_KINDS);
const isVideoKind = (kind: string) => VIDEO_KIND_SET.has(kind);

function requireRead(caller: AuthContext): void {
  if (!canContinue(caller.user.roles, AREAS.content)) throw forbidden();
}
function requireWrite(caller: AuthContext): void {
  requireRead(caller);
  if (!canEdit(caller.user.roles, AREAS.content)) throw forbidden();
}

/** An http(s) address of an .m3u8 playlist, or the refusal in words. */
function hlsAddress(text: string): string {
  const url = URL.canParse(text.trim()) ? new URL(text.trim()) : null;
  if (!url || !/^https?:$/.test(url.protocol) || !url.pathname.endsWith('.m3u8')) throw invalid('hlsUrl', MEDIA_MESSAGES.hlsUrlInvalid, { hlsUrl: MEDIA_MESSAGES.hlsUrlInvalid });
  return url.toString();
}

export function encodingEnabled(config: MediaConfig, siteName: string): boolean {
  return siteName !== config.encodingDisabledSite;
}


/** Overall progress 0–100: upload while uploading, encoding (mean of renditions) while preparing / viewable. */
export function overallProgress(row: Pick<MediaAssetRow, 'status' | 'uploadSize' | 'uploadedBytes' | 'ladder' | 'progress' | 'doneRungs'>): number {
  if (row.status === 'ready') return 100;
  if (row.status === 'waiting' || row.status === 'uploading') {
    return row.uploadSize ? Math.min(100, Math.floor((row.uploadedBytes / row.uploadSize) * 100)) : 0;
  }
  if (row.ladder.length === 0) return 0;
  const sum = row.ladder.reduce((total, rung) => total + (row.doneRungs.includes(rung.name) ? 1 : Math.min(1, row.progress[rung.name] ?? 0)), 0);
  return Math.floor((sum / row.ladder.length) * 100);
}

export function createMediaService(deps: MediaDeps) {
  const { store, config, log } = deps;
  const now = deps.now ?? (() => new Date());
  const signingKey = createHmac('sha256', deps.secret).update('cms-tools media play').digest();

  /**
   * A play token: `<expiry, unix seconds in base 36>.<HMAC-SHA256 of site, asset and expiry, 128 bits, base64url>`
   * (about 30 characters: a path segment; a JWT would pass Fastify's 100-character parameter limit).
   */
  function sign(siteId: string, assetId: string, expires: string): string {
    return createHmac('sha256', signingKey).update(`${siteId}:${assetId}:${expires}`).digest().subarray(0, 16).toString('base64url');
  }

  async function playToken(siteId: string, assetId: string): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(now().getTime() + config.tokenMinutes * 60_000);
    const expires = Math.floor(expiresAt.getTime() / 1000).toString(36);
    return { token: `${expires}.${sign(siteId, assetId, expires)}`, expiresAt };
  }

  /** The claims of a valid token for `assetId`, or null (expired, forged, another asset's). */
  async function checkPlayToken(token: string, assetId: string): Promise<PlayClaims | null> {
    const match = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{22})$/.exec(token);
    if (!match || !UUID.test(assetId)) return null;
    if (parseInt(match[1]!, 36) * 1000 < now().getTime()) return null;
    const row = await store.findAssetAnySite(assetId.toLowerCase());
    if (!row) return null;
    const expected = Buffer.from(sign(row.siteId, row.id, match[1]!));
    const given = Buffer.from(match[2]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { siteId: row.siteId, assetId: row.id };
  }

  /** `/v2.0/media/play/<token>/<asset>/` (on the site's renditionUrl when `onRendition`). */
  function playBase(caller: Pick<AuthContext, 'site'>, token: string, assetId: string, onRendition: boolean): string {
    const rendition = onRendition ? String(storedProfileOf(caller.site).renditionUrl ?? '').replace(/\/+$/, '') : '';
    return `${rendition}${MEDIA_PATHS.play}/${token}/${assetId}/`;
  }

  async function toAsset(caller: Pick<AuthContext, 'site'>, row: MediaAssetRow, extra?: { captions: { language: string; label: string }[]; contentItemIds: string[] }): Promise<MediaAsset> {
    const more = extra ?? {
      captions: await store.captionsOf([row.id]),
      contentItemIds: (await store.contentIdsOf([row.id])).map((r) => r.contentId),
    };
    const playable = row.liveAttempt !== null;
    const base = playable || more.captions.length ? playBase(caller, (await playToken(row.siteId, row.id)).token, row.id, false) : '';
    const status: MediaStatus = MEDIA_STATUSES.find((known) => known === row.status) ?? 'errored';
    return {
      id: row.id,
      title: row.title,
      status,
      errorMessage: status === 'errored' ? (row.errorMessage ?? row.lastError ?? '') : null,
      progress: overallProgress(row),
      uploadedBytes: row.uploadedBytes,
      sizeBytes: row.uploadSize,
      durationSeconds: row.durationSeconds,
      width: row.width,
      height: row.height,
      renditions: row.ladder.map((rung) => {
        const done = row.liveAttempt !== null && row.doneRungs.includes(rung.name);
        return { name: rung.name, width: rung.width, height: rung.height, bandwidth: rung.bandwidth, done, progress: done ? 100 : Math.floor(Math.min(1, row.progress[rung.name] ?? 0) * 100) };
      }),
      captions: more.captions.map((c) => ({ language: c.language, label: c.label, url: `${base}captions/${c.language}.vtt` })),
      posterUrl: row.posterReady && base ? `${base}poster.jpg` : null,
      posterSeconds: row.posterSeconds,
      source: row.source === 'external' ? 'external' : 'upload',
      encrypted: row.encrypted,
      policy: row.policy === 'public' ? 'public' : 'signed',
      contentItemIds: more.contentItemIds,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      version: row.version,
    };
  }

  async function ownAsset(caller: AuthContext, id: string): Promise<MediaAssetRow> {
    if (!UUID.test(id)) throw notFound(MEDIA_MESSAGES.notFound);
    const row = await store.findAsset(caller.site.id, id.toLowerCase());
    if (!row) throw notFound(MEDIA_MESSAGES.notFound);
    return row;
  }

  /** What the console's preview reports its sessions with (the item the video is attached to; null when none). */
  async function previewEvents(row: MediaAssetRow): Promise<MediaPreviewEvents | null> {
    const [link] = await store.contentIdsOf([row.id]);
    if (!link) return null;
    const ingestionKey = `cmsp_${createHmac('sha256', deps.secret).update(`cms-tools preview ingestion key:${row.siteId}`).digest('base64url')}`;
    const viewer = await store.previewIdentity(row.siteId, ingestionKey);
    if (!viewer) return null;
    return {
      ingestionKey, subscriberId: viewer.subscriberId, networkId: viewer.networkId, contentId: link.contentId, deviceType: 'web', country: viewer.country,
      cdn: MEDIA_PREVIEW_PLAYER.cdn, isp: MEDIA_PREVIEW_PLAYER.isp, playerName: MEDIA_PREVIEW_PLAYER.name, playerVersion: MEDIA_PREVIEW_PLAYER.version,
    };
  }

  /** The audit row of a video's write (in `sink`: the write's transaction when it has one). */
  async function audit(caller: AuthContext | null, siteId: string, action: string, row: { id: string; title: string }, detail: Record<string, unknown> = {}, sink: Pick<MediaQueries, 'insertAuditEvent'> = store) {
    await sink.insertAuditEvent({
      at: now(), action, actorUserId: caller?.user.id ?? null, siteId,
      ...auditObject({ kind: 'media', objectId: row.id, objectName: row.title }),
      detail: { assetId: row.id, ...detail },
    });
  }

  /** The asset's version as the caller read it (optional): a stale one is a 409. */
  function checkVersion(row: MediaAssetRow, version: number | undefined): void {
    if (version !== undefined && version !== row.version) throw conflict(MEDIA_MESSAGES.changedSince);
  }

  /**
   * One edit of a video (captions, HLS address, poster time): `write` changes it in a transaction,
   * which also bumps its version and writes its revision and audit row; all or nothing.
   */
  async function editAsset(caller: AuthContext, row: MediaAssetRow, input: {
    action: string; before: Record<string, unknown>; after: Record<string, unknown>; changes?: MediaAssetChanges; detail?: Record<string, unknown>;
    write?: (tx: MediaQueries) => Promise<void>;
  }): Promise<MediaAssetRow> {
    return store.transaction(async (tx) => {
      await input.write?.(tx);
      const saved = await tx.updateAsset(row.id, input.changes ?? {});
      if (!saved) throw conflict(MEDIA_MESSAGES.changedSince);
      await recordRevision(tx, {
        kind: 'media', objectId: row.id, objectName: row.title, siteId: row.siteId, actorUserId: caller.user.id, objectVersion: saved.version,
        before: input.before, after: input.after,
      });
      await audit(caller, row.siteId, input.action, row, { version: saved.version, ...input.detail }, tx);
      return saved;
    });
  }

  return {
    playToken,
    checkPlayToken,
    toAsset,

    async list(caller: AuthContext, query: { start?: number; limit?: number; q?: string; status?: string }): Promise<MediaList> {
      requireRead(caller);
      const start = query.start ?? 0;
      const limit = query.limit ?? 20;
      const { rows, total } = await store.listAssets(caller.site.id, { start, limit, q: query.q?.trim() || undefined, status: query.status || undefined });
      const ids = rows.map((r) => r.id);
      const [captions, links] = await Promise.all([store.captionsOf(ids), store.contentIdsOf(ids)]);
      const items = await Promise.all(rows.map((row) => toAsset(caller, row, {
        captions: captions.filter((c) => c.assetId === row.id),
        contentItemIds: links.filter((l) => l.assetId === row.id).map((l) => l.contentId),
      })));
      return { items, total, start, limit };
    },

    async get(caller: AuthContext, id: string): Promise<MediaAsset> {
      requireRead(caller);
      return toAsset(caller, await ownAsset(caller, id));
    },

    /** tus creation: a new asset (waiting) for a file of `size` bytes; refused on the site without encoding or past its limits. */
    async createUpload(caller: AuthContext, input: { filename: string; filetype: string; size: number | null; contentItemId: string | null; title?: string }): Promise<MediaAssetRow> {
      requireWrite(caller);
      if (!encodingEnabled(config, caller.site.siteInternalName)) throw forbidden(MEDIA_MESSAGES.encodingOff);
      const filename = input.filename.trim();
      if (!filename) throw invalid('Upload-Metadata', MEDIA_MESSAGES.uploadMetadata);
      if (input.size === null) throw invalid('Upload-Length', MEDIA_MESSAGES.uploadLengthRequired);
      const limits = limitsFor(config, caller.site.siteInternalName);
      if (input.size === 0) throw invalid('Upload-Length', MEDIA_ENCODE_MESSAGES.empty);
      if (input.size > limits.maxBytes) throw invalid('Upload-Length', MEDIA_ENCODE_MESSAGES.tooBig(input.size, limits.maxBytes));
      let hint: string | null = null;
      if (input.contentItemId) {
        const item = UUID.test(input.contentItemId) ? await store.findContent(caller.site.id, input.contentItemId.toLowerCase()) : undefined;
        if (!item) throw notFound(MEDIA_MESSAGES.contentNotFound);
        if (!isVideoKind(item.kind)) throw invalid('contentItemId', MEDIA_MESSAGES.videoKindOnly);
        hint = item.id;
      }
      const encrypted = storedProfileOf(caller.site).isDRMEncryptionRequired === true;
      const row = await store.insertAsset({
        id: randomUUID(), siteId: caller.site.id, title: (input.title?.trim() || filename.replace(/\.[A-Za-z0-9]{1,5}$/, '')).slice(0, 200),
        status: 'waiting', source: 'upload', filename: filename.slice(0, 255), filetype: input.filetype.slice(0, 100), uploadSize: input.size,
        encrypted, encryptionKey: encrypted ? randomBytes(16).toString('hex') : null, policy: 'signed', contentItemHint: hint, createdBy: caller.user.id,
      });
      await audit(caller, caller.site.id, MEDIA_AUDIT.uploadCreated, row, { filename: row.filename, size: input.size });
      return row;
    },

    /** HEAD / PATCH / DELETE of an upload: the caller's site's asset still taking bytes (else 404 / refusal). */
    async uploadOf(caller: AuthContext, id: string, write: boolean): Promise<MediaAssetRow> {
      if (write) requireWrite(caller); else requireRead(caller);
      const row = await ownAsset(caller, id);
      if (row.source !== 'upload') throw notFound(MEDIA_MESSAGES.uploadNotFound);
      return row;
    },

    async uploadProgress(id: string, offset: number): Promise<void> {
      await store.updateAsset(id, { uploadedBytes: offset, status: 'uploading' }, { statuses: ['waiting', 'uploading'] });
    },

    /** The last byte arrived: ffprobe decides; a video is queued for encoding, anything else errors in words. */
    async uploadFinished(id: string, file: string, siteName: string): Promise<MediaAssetRow | undefined> {
      const row = await store.findAssetAnySite(id);
      if (!row || (row.status !== 'waiting' && row.status !== 'uploading')) return row;
      try {
        const probe = await deps.probe.probe(file, limitsFor(config, siteName));
        await deps.keepSource(row.siteId, row.id, file);
        const saved = await store.updateAsset(id, {
          status: 'preparing', uploadedBytes: probe.sizeBytes, uploadSize: probe.sizeBytes, durationSeconds: probe.durationSeconds,
          width: probe.rotation === 90 || probe.rotation === 270 ? probe.height : probe.width,
          height: probe.rotation === 90 || probe.rotation === 270 ? probe.width : probe.height,
          probe: { fps: probe.fps, rotation: probe.rotation, hasAudio: probe.hasAudio }, ladder: probe.ladder, errorMessage: null,
        }, { statuses: ['waiting', 'uploading'] });
        if (saved) {
          if (row.contentItemHint) await attach(null, row.siteId, row.contentItemHint, saved, true).catch((error: unknown) => log.warn({ err: String(error) }, 'attaching the uploaded video failed'));
          await deps.queue.enqueue(id);
        }
        return saved;
      } catch (error) {
        const words = deps.probe.inputError(error);
        if (!words) throw error;
        await deps.removeFiles(row.siteId, row.id).catch(() => undefined);
        return store.updateAsset(id, { status: 'errored', errorMessage: words, lastError: words, uploadedBytes: row.uploadSize ?? row.uploadedBytes });
      }
    },

    async cancel(caller: AuthContext, id: string): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      if (row.status === 'cancelled') return toAsset(caller, row);
      if (row.status === 'ready') throw conflict(MEDIA_MESSAGES.cannotCancel);
      const saved = await store.updateAsset(row.id, { status: 'cancelled', errorMessage: null, leaseUntil: null, attempt: row.attempt + 1 });
      await deps.removeFiles(row.siteId, row.id).catch((error: unknown) => log.warn({ err: String(error) }, 'media files removal failed'));
      await audit(caller, caller.site.id, MEDIA_AUDIT.cancelled, row, { status: row.status });
      return toAsset(caller, saved ?? row);
    },

    async retry(caller: AuthContext, id: string): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      if (row.status !== 'errored') throw conflict(MEDIA_MESSAGES.cannotRetry);
      if (row.ladder.length === 0) throw conflict(MEDIA_MESSAGES.retryNeedsFile);
      // Attempts count again from here (the folders keep numbering up: a retry never writes over a visible one).
      const saved = await store.updateAsset(row.id, {
        status: row.liveAttempt !== null ? 'viewable' : 'preparing', errorMessage: null, leaseUntil: null, probe: { ...row.probe, retryBase: row.attempt },
      }, { statuses: ['errored'] });
      await deps.queue.enqueue(row.id);
      await audit(caller, caller.site.id, MEDIA_AUDIT.retried, row, { lastError: row.errorMessage ?? row.lastError });
      return toAsset(caller, saved ?? row);
    },

    /** The site without encoding: an existing HLS address becomes a ready asset. */
    async attachExternal(caller: AuthContext, input: { title: string; hlsUrl: string }): Promise<MediaAsset> {
      requireWrite(caller);
      if (encodingEnabled(config, caller.site.siteInternalName)) throw conflict(MEDIA_MESSAGES.encodingOnExternal);
      const title = input.title.trim();
      if (!title) throw invalid('title', MEDIA_MESSAGES.titleRequired, { title: MEDIA_MESSAGES.titleRequired });
      const url = new URL(hlsAddress(input.hlsUrl));
      const row = await store.transaction(async (tx) => {
        const made = await tx.insertAsset({
          siteId: caller.site.id, title: title.slice(0, 200), status: 'ready', source: 'external', externalUrl: url.toString(),
          encrypted: false, policy: 'public', createdBy: caller.user.id,
        });
        await recordRevision(tx, {
          kind: 'media', objectId: made.id, objectName: made.title, siteId: made.siteId, actorUserId: caller.user.id, objectVersion: made.version,
          before: null, after: { title: made.title, externalUrl: made.externalUrl },
        });
        await audit(caller, caller.site.id, MEDIA_AUDIT.externalAttached, made, { hlsUrl: made.externalUrl }, tx);
        return made;
      });
      return toAsset(caller, row);
    },

    /** The HLS address of a video added from one (any site: the asset is external already). */
    async setExternalUrl(caller: AuthContext, id: string, input: { hlsUrl: string; version?: number }): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      if (row.source !== 'external') throw conflict(MEDIA_MESSAGES.externalOnly);
      checkVersion(row, input.version);
      const url = hlsAddress(input.hlsUrl);
      const saved = await editAsset(caller, row, {
        action: MEDIA_AUDIT.externalChanged, changes: { externalUrl: url },
        before: { externalUrl: row.externalUrl }, after: { externalUrl: url }, detail: { hlsUrl: url, previous: row.externalUrl },
      });
      return toAsset(caller, saved);
    },

    /**
     * The poster's time (seconds from 0 to the video's length): recorded at once (a revision), the
     * poster made again as a job from the kept source when the video is ready (an encode still
     * running makes it at the new time itself).
     */
    async setPosterTime(caller: AuthContext, id: string, input: { seconds: number; version?: number }): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      if (row.source === 'external') throw conflict(MEDIA_MESSAGES.posterExternal);
      if (row.status === 'errored' || row.status === 'cancelled') throw conflict(MEDIA_MESSAGES.posterNotNow);
      if (row.durationSeconds === null) throw conflict(MEDIA_MESSAGES.posterNeedsDuration);
      checkVersion(row, input.version);
      const seconds = input.seconds;
      if (!Number.isFinite(seconds) || seconds < 0 || seconds > row.durationSeconds) {
        const words = MEDIA_MESSAGES.posterTimeOutside(row.durationSeconds);
        throw invalid('seconds', words, { seconds: words });
      }
      const at = Math.round(seconds * 1000) / 1000;
      const saved = await editAsset(caller, row, {
        action: MEDIA_AUDIT.posterTimeSet, changes: { posterSeconds: at },
        before: { posterSeconds: row.posterSeconds }, after: { posterSeconds: at }, detail: { seconds: at },
      });
      if (saved.status === 'ready' && saved.liveAttempt !== null && row.posterSeconds !== at) await deps.queue.enqueuePoster(saved.id);
      return toAsset(caller, saved);
    },

    async playback(caller: AuthContext, id: string): Promise<MediaPlayback> {
      requireRead(caller);
      const row = await ownAsset(caller, id);
      if (row.source === 'external' && row.externalUrl) {
        return { hlsUrl: row.externalUrl, previewUrl: row.externalUrl, posterUrl: null, storyboardUrl: null, expiresAt: null, events: await previewEvents(row) };
      }
      if (row.liveAttempt === null || row.doneRungs.length === 0) throw conflict(MEDIA_MESSAGES.notPlayable);
      const { token, expiresAt } = await playToken(row.siteId, row.id);
      const local = playBase(caller, token, row.id, false);
      const onRendition = playBase(caller, token, row.id, true);
      return {
        hlsUrl: `${onRendition}master.m3u8`,
        previewUrl: `${local}master.m3u8`,
        posterUrl: row.posterReady ? `${local}poster.jpg` : null,
        storyboardUrl: row.storyboardReady ? `${local}storyboard.vtt` : null,
        expiresAt: expiresAt.toISOString(),
        events: await previewEvents(row),
      };
    },

    async putCaptions(caller: AuthContext, id: string, input: { language: string; label: string; format: 'vtt' | 'srt'; text: string }): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      const language = input.language.trim();
      if (!LANGUAGE.test(language)) throw invalid('language', MEDIA_MESSAGES.captionsLanguage, { language: MEDIA_MESSAGES.captionsLanguage });
      let vtt: string;
      try {
        vtt = deps.probe.captionsToVtt(input.text, input.format);
      } catch (error) {
        const words = deps.probe.inputError(error);
        if (!words) throw error;
        throw invalid('text', words, { text: words });
      }
      const label = input.label.trim() || language;
      const field = `captions.${language}`;
      const previous = await store.findCaption(row.id, language);
      const saved = await editAsset(caller, row, {
        action: MEDIA_AUDIT.captionsSaved, detail: { language, label },
        before: { [field]: captionSummary(previous) }, after: { [field]: captionSummary({ label, vtt }) },
        write: (tx) => tx.putCaption(caller.site.id, { assetId: row.id, language, label, vtt }),
      });
      return toAsset(caller, saved);
    },

    /** DELETE /v2.0/media/:id/captions/:language: one language's captions go (a revision keeps what they were). */
    async removeCaptions(caller: AuthContext, id: string, language: string, version?: number): Promise<MediaAsset> {
      requireWrite(caller);
      const row = await ownAsset(caller, id);
      checkVersion(row, version);
      const previous = LANGUAGE.test(language) ? await store.findCaption(row.id, language) : undefined;
      if (!previous) throw notFound(MEDIA_MESSAGES.captionsNotFound);
      const field = `captions.${language}`;
      const saved = await editAsset(caller, row, {
        action: MEDIA_AUDIT.captionsRemoved, detail: { language, label: previous.label },
        before: { [field]: captionSummary(previous) }, after: { [field]: null },
        write: async (tx) => {
          if (!await tx.deleteCaption(row.id, language)) throw notFound(MEDIA_MESSAGES.captionsNotFound);
        },
      });
      return toAsset(caller, saved);
    },

    /** The asset a valid play token names (its site's), or undefined. */
    async playedAsset(claims: PlayClaims): Promise<MediaAssetRow | undefined> {
      return store.findAsset(claims.siteId, claims.assetId);
    },

    /** The master playlist of what is visible now, with the captions as a subtitles group. */
    async master(row: MediaAssetRow): Promise<string> {
      const text = deps.probe.masterPlaylist(row.ladder, row.doneRungs);
      const captions = await store.captionsOf([row.id]);
      if (captions.length === 0) return text;
      const quote = (value: string) => value.replace(/["\n\r]/g, ' ');
      const media = captions.map((c, i) => `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="${quote(c.label)}",LANGUAGE="${c.language}",DEFAULT=NO,AUTOSELECT=${i === 0 ? 'YES' : 'NO'},URI="captions/${c.language}.m3u8"`);
      const lines = text.trimEnd().split('\n').map((line) => (line.startsWith('#EXT-X-STREAM-INF:') ? `${line},SUBTITLES="subs"` : line));
      const at = lines.findIndex((line) => line.startsWith('#EXT-X-STREAM-INF:'));
      lines.splice(at < 0 ? lines.length : at, 0, ...media);
      return `${lines.join('\n')}\n`;
    },

    /** A captions file as a one-segment HLS subtitles playlist. */
    captionPlaylist(durationSeconds: number, file: string): string {
      const duration = Math.max(1, Math.ceil(durationSeconds));
      return ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${duration}`, '#EXT-X-PLAYLIST-TYPE:VOD', `#EXTINF:${duration}.000,`, file, '#EXT-X-ENDLIST', ''].join('\n');
    },

    async captionText(claims: PlayClaims, language: string): Promise<string | null> {
      const row = await store.findCaption(claims.assetId, language);
      return row?.vtt ?? null;
    },

    /** GET /v2.0/content/:id/video: the item's video (null when none) and the item's version. */
    async getVideo(caller: AuthContext, contentId: string): Promise<{ contentId: string; mediaAssetId: string | null; version: number; asset: MediaAsset | null }> {
      requireRead(caller);
      const item = UUID.test(contentId) ? await store.findContent(caller.site.id, contentId.toLowerCase()) : undefined;
      if (!item) throw notFound(MEDIA_MESSAGES.contentNotFound);
      const asset = item.mediaAssetId ? await store.findAsset(caller.site.id, item.mediaAssetId) : undefined;
      return { contentId: item.id, mediaAssetId: item.mediaAssetId, version: item.version, asset: asset ? await toAsset(caller, asset) : null };
    },

    /** PUT /v2.0/content/:id/video: attach (or replace, or remove with null); one revision in the same transaction. */
    async setVideo(caller: AuthContext, contentId: string, assetId: string | null): Promise<{ contentId: string; mediaAssetId: string | null; version: number; asset: MediaAsset | null }> {
      requireWrite(caller);
      let asset: MediaAssetRow | null = null;
      if (assetId) {
        asset = await ownAsset(caller, assetId);
        if (asset.status === 'errored' || asset.status === 'cancelled') throw conflict(MEDIA_MESSAGES.videoNotPlayable);
      }
      const after = await attach(caller, caller.site.id, contentId, asset, false);
      return { contentId: after.id, mediaAssetId: after.mediaAssetId, version: after.version, asset: asset ? await toAsset(caller, asset) : null };
    },

    /**
     * The publish rule, per item: an attached video must be ready, or viewable where the site allows
     * it (AppCMS › Settings "publishViewableVideos" of its default network). Items already published
     * are not asked again. Answers the items refused, each with why in words.
     */
    publishRefusals,

    /**
     * The publish rule as a refusal (content.update and the bulk status hooks): one item's refusal says
     * its video's state; several items' lists each one with why, and nothing is published.
     */
    async assertPublishable(siteId: string, contentIds: string[]): Promise<void> {
      const refused = await publishRefusals(siteId, contentIds);
      if (refused.length === 0) return;
      if (contentIds.length === 1 && refused[0]) throw conflict(MEDIA_MESSAGES.publishNeedsReadyVideo(refused[0].status));
      throw conflict(MEDIA_MESSAGES.publishRefusedItems(refused));
    },

    /** Housekeeping: uploads untouched for `abandonedHours` lose their bytes and say why. */
    async cleanAbandoned(): Promise<number> {
      const before = new Date(now().getTime() - config.abandonedHours * 3600_000);
      const rows = await store.abandonedUploads(before, 100);
      for (const row of rows) {
        await deps.removeFiles(row.siteId, row.id).catch(() => undefined);
        const words = MEDIA_MESSAGES.uploadAbandoned(config.abandonedHours);
        await store.updateAsset(row.id, { status: 'errored', errorMessage: words, lastError: words }, { statuses: ['waiting', 'uploading'] });
      }
      return rows.length;
    },
  };

  async function publishRefusals(siteId: string, contentIds: string[]): Promise<{ id: string; title: string; status: string; reason: string }[]> {
    const refused: { id: string; title: string; status: string; reason: string }[] = [];
    let viewableAllowed: boolean | null = null;
    for (const id of contentIds) {
      const item = UUID.test(id) ? await store.findContent(siteId, id.toLowerCase()) : undefined;
      if (!item || !item.mediaAssetId || !isVideoKind(item.kind) || item.status === 'published') continue;
      const video = await store.findAsset(siteId, item.mediaAssetId);
      if (video?.status === 'ready') continue;
      if (video?.status === 'viewable') {
        viewableAllowed ??= await store.publishViewableVideos(siteId);
        if (viewableAllowed) continue;
      }
      const status = video ? video.status : 'missing';
      refused.push({ id: item.id, title: item.title, status, reason: MEDIA_MESSAGES.videoNotReadyReason(status) });
    }
    return refused;
  }

  async function attach(caller: AuthContext | null, siteId: string, contentId: string, asset: MediaAssetRow | null, onlyIfEmpty: boolean) {
    if (!UUID.test(contentId)) throw notFound(MEDIA_MESSAGES.contentNotFound);
    return store.transaction(async (tx) => {
      const item = await tx.findContent(siteId, contentId.toLowerCase(), true);
      if (!item) throw notFound(MEDIA_MESSAGES.contentNotFound);
      if (!isVideoKind(item.kind)) throw invalid('contentId', MEDIA_MESSAGES.videoKindOnly);
      const next = asset?.id ?? null;
      if (item.mediaAssetId === next || (onlyIfEmpty && item.mediaAssetId)) return item;
      const previous = item.mediaAssetId ? await tx.findAsset(siteId, item.mediaAssetId) : undefined;
      const after = await tx.setContentVideo(item, next);
      await recordRevision(tx, {
        kind: 'content', objectId: item.id, objectName: item.title, siteId, actorUserId: caller?.user.id ?? null, objectVersion: after.version,
        before: { video: previous?.title ?? null, mediaAssetId: item.mediaAssetId },
        after: { video: asset?.title ?? null, mediaAssetId: next },
        reason: next ? MEDIA_MESSAGES.videoAttached(asset?.title ?? '') : MEDIA_MESSAGES.videoRemoved,
      });
      await tx.insertAuditEvent({
        at: now(), action: next ? 'content.video_attached' : 'content.video_removed', actorUserId: caller?.user.id ?? null, siteId,
        ...auditObject({ kind: 'content', objectId: item.id, objectName: item.title }),
        detail: { contentId: item.id, assetId: next, previousAssetId: item.mediaAssetId },
      });
      return after;
    });
  }
}

export type MediaService = ReturnType<typeof createMediaService>;

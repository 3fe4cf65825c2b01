/**
 * The Media wiring file (issue 40): the video machines' real I/O over the media API
 * (common/media-contract.ts, server/http/media-routes.ts) and their page logic.
 *
 * - `upload`: tus-js-client (resumable: the upload's address is kept in localStorage by a fingerprint
 *   of the item, the file's name, size and date, so the same file chosen after a reload resumes where
 *   it stopped); progress and the created asset are told to the machine.
 * - `loadAsset`, `retryAsset`, `cancelAsset`, the list, playback, captions, external address, attach: JSON
 *   over fetch with the session's credentials (the media answers carry their own `status`, which the
 *   generic client renames, so they are read here).
 * - The preview's `engine`: hls.js, imported on first use (never in the sign-in page's first load), on
 *   the page's <video>; its `report` sends the player events to /v1/events with the preview key the
 *   playback answer carries.
 */
import { fromCallback, fromPromise, type AnyActorLogic } from 'xstate';
import { Upload, type DetailedError } from 'tus-js-client';
import { API_PATHS } from '../../common/constants';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../../common/ingest-contract';
import { MEDIA_PATHS, type MediaAsset, type MediaList, type MediaPlayback } from '../../common/media-contract';
import { isRecord } from '../../common/one-of';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import type { MediaUploadRequest } from '../../machines/media-asset.machine';
import { itemAssetMachine, itemVideoMachine, type CaptionsRequest } from '../../machines/media-item-video.machine';
import { libraryUploadMachine, mediaLibraryMachine, mediaListMachine } from '../../machines/media-library.machine';
import { mediaAssetMachine } from '../../machines/media-asset.machine';
import { parseStoryboard, type StoryboardCue } from '../../machines/media-storyboard';
import {
  mediaPlayerMachine, type EngineCommand, type EngineInput, type PlayerContext, type PlayerReport,
} from '../../machines/media-player.machine';
import { ApiError, authHeaders } from '../api/client';
import { readCredentials } from './session-store';

export interface MediaCredentials { accessToken: string; apiKey: string }
type ReadCredentials = () => MediaCredentials | null;

/** Bytes per tus PATCH: small enough that a dropped connection loses little, large enough to keep the line busy. */
export const MEDIA_CHUNK_BYTES = 2 * 1024 * 1024;
const MEDIA_MISSING_CREDENTIALS = 'You are signed out. Sign in again to continue.';

function requireCredentials(read: ReadCredentials): MediaCredentials {
  const credentials = read();
  if (!credentials) throw new ApiError(MEDIA_MISSING_CREDENTIALS, 401);
  return credentials;
}

function messageOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body.message === 'string' ? body.message : undefined;
}

/** A media API call: JSON both ways; a refusal throws the server's words with its status (0: not reached). */
async function mediaJson<T>(read: ReadCredentials, url: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { Accept: 'application/json', ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...authHeaders(requireCredentials(read)) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal ? { signal: init.signal } : {}),
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(error instanceof Error ? error.message : 'Network error', 0);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const body = parsedOr(text, {});
    throw new ApiError(messageOf(body) ?? `The server answered ${response.status}.`, response.status, body);
  }
  return jsonOf<T>(text);
}

/** The answer read as the contract's shape (the server's response schema names every property). */
function jsonOf<T>(text: string): T {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('The server\'s answer could not be read.', 502);
  }
}

function parsedOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

const assetUrl = (id: string, rest = '') => `${MEDIA_PATHS.asset}/${encodeURIComponent(id)}${rest}`;

/** The asset id of a tus upload address (`/v2.0/media/uploads/<id>`). */
export function assetIdOfUploadUrl(url: string | null): string | null {
  const id = url?.split('?')[0]?.split('/').filter(Boolean).at(-1);
  return id ? decodeURIComponent(id) : null;
}

/** The server's words of a tus failure, with its status (0 when the server was not reached). */
export function tusFailure(error: Error | DetailedError): ApiError {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return new ApiError(error.message, 0);
  let message: string | undefined;
  try {
    message = messageOf(JSON.parse(response.getBody()));
  } catch {
    message = undefined;
  }
  return new ApiError(message ?? error.message, response.getStatus());
}

const lastModifiedOf = (file: Blob) => (file instanceof File ? file.lastModified : 0);

/** One video sent with tus: created (the asset named), resumed when the same file was sent before, progress told. */
export function tusUpload(read: ReadCredentials, request: MediaUploadRequest, signal: AbortSignal, chunkSize = MEDIA_CHUNK_BYTES): Promise<{ assetId: string }> {
  return new Promise((resolve, reject) => {
    const credentials = requireCredentials(read);
    const upload = new Upload(request.file, {
      endpoint: MEDIA_PATHS.uploads,
      headers: authHeaders(credentials),
      metadata: {
        filename: request.fileName,
        filetype: request.file.type || 'application/octet-stream',
        ...(request.contentItemId ? { contentItemId: request.contentItemId } : {}),
      },
      chunkSize,
      retryDelays: [0, 1000, 3000, 5000],
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      fingerprint: async (file) => uploadFingerprint(request.contentItemId, request.fileName, file),
      onUploadUrlAvailable: () => {
        const assetId = assetIdOfUploadUrl(upload.url);
        if (assetId) request.progress.send({ type: 'upload.created', assetId });
      },
      onProgress: (loaded, total) => request.progress.send({ type: 'upload.progressed', loaded, total, at: Date.now() }),
      onSuccess: () => {
        const assetId = assetIdOfUploadUrl(upload.url);
        if (assetId) resolve({ assetId });
        else reject(new ApiError('The server did not name the upload.', 500));
      },
      onError: (error) => reject(tusFailure(error)),
    });
    signal.addEventListener('abort', () => { void upload.abort(false); reject(new ApiError('Upload cancelled', 0)); }, { once: true });
    upload.findPreviousUploads().then((previous) => {
      const last = previous.at(-1);
      if (last) upload.resumeFromPreviousUpload(last);
      if (!signal.aborted) upload.start();
    }, () => { if (!signal.aborted) upload.start(); });
  });
}

/** The tus fingerprint of a file sent for an owner (an item's id, or 'library' for the Media list's own uploads). */
export function uploadFingerprint(owner: string | null, fileName: string, file: Blob): string {
  return `${fingerprintPrefix(owner)}${fileName}:${file.size}:${lastModifiedOf(file)}`;
}

const fingerprintPrefix = (owner: string | null) => `cms-media:${owner ?? 'library'}:`;

/** What tus-js-client keeps of an unfinished upload (its urlStorage): the storage key and the asset its address names. */
export interface KeptUpload { key: string; assetId: string; createdAt: string }

type KeptStorage = Pick<Storage, 'length' | 'key' | 'getItem'>;

/**
 * The unfinished uploads of an owner that this browser kept (tus-js-client's urlStorage in localStorage:
 * `tus::<fingerprint>::<n>` → { uploadUrl, creationTime }), oldest first: after a reload they are listed
 * as interrupted, and the same file chosen again resumes from the server's offset.
 */
export function keptUploadsOf(owner: string | null, storage: KeptStorage | undefined = typeof localStorage === 'undefined' ? undefined : localStorage): KeptUpload[] {
  if (!storage) return [];
  const prefix = `tus::${fingerprintPrefix(owner)}`;
  const kept: KeptUpload[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const text = storage.getItem(key);
    const assetId = assetIdOfUploadUrl(readUploadUrl(text));
    if (assetId) kept.push({ key, assetId, createdAt: readCreationTime(text) });
  }
  return kept.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

function readCreationTime(text: string | null): string {
  try {
    const value: unknown = JSON.parse(text ?? 'null');
    return isRecord(value) && typeof value.creationTime === 'string' ? value.creationTime : '';
  } catch {
    return '';
  }
}

/** Forgets the kept tus address of a cancelled asset, so the same file later starts a new upload. */
function forgetUploadOf(assetId: string | null): void {
  if (!assetId || typeof localStorage === 'undefined') return;
  for (let i = localStorage.length - 1; i >= 0; i -= 1) {
    const key = localStorage.key(i);
    if (key?.startsWith('tus::') && assetIdOfUploadUrl(readUploadUrl(localStorage.getItem(key))) === assetId) localStorage.removeItem(key);
  }
}

function readUploadUrl(text: string | null): string | null {
  try {
    const value: unknown = JSON.parse(text ?? 'null');
    return isRecord(value) && typeof value.uploadUrl === 'string' ? value.uploadUrl : null;
  } catch {
    return null;
  }
}

/** The media API's I/O (tests give their own credentials reader; the browser reads the session's cookies). */
export function createMediaIo(read: ReadCredentials = readCredentials) {
  return {
    upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input, signal }) => tusUpload(read, input, signal)),
    loadAsset: fromPromise<MediaAsset, { assetId: string }>(({ input, signal }) => mediaJson(read, assetUrl(input.assetId), { signal })),
    retryAsset: fromPromise<MediaAsset, { assetId: string }>(({ input, signal }) => mediaJson(read, assetUrl(input.assetId, '/retry'), { method: 'POST', body: {}, signal })),
    cancelAsset: fromPromise<void, { assetId: string | null }>(async ({ input, signal }) => {
      forgetUploadOf(input.assetId);
      if (input.assetId) await mediaJson(read, assetUrl(input.assetId, '/cancel'), { method: 'POST', body: {}, signal });
    }),
    fetchPage: fromPromise<ListPage<MediaAsset>, ListQuery>(async ({ input, signal }) => {
      const params = new URLSearchParams({ start: String(input.offset), limit: String(input.limit) });
      if (input.search) params.set('q', input.search);
      if (input.filters.status) params.set('status', input.filters.status);
      const answer = await mediaJson<MediaList>(read, `${MEDIA_PATHS.list}?${params.toString()}`, { signal });
      return { items: answer.items, total: answer.total };
    }),
    /** The item's video: the site's videos name the items they are attached to. */
    loadItemVideo: fromPromise<{ assetId: string | null }, { contentItemId: string }>(async ({ input, signal }) => {
      // An upload to this item that a reload (or a closed tab) interrupted comes first: the panel lists it and
      // the same file chosen again resumes it. One the server no longer has, or that finished, is forgotten.
      for (const kept of keptUploadsOf(input.contentItemId).reverse()) {
        const asset = await mediaJson<MediaAsset>(read, assetUrl(kept.assetId), { signal }).catch((error: unknown) => {
          if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
          throw error;
        });
        if (asset && (asset.status === 'waiting' || asset.status === 'uploading')) return { assetId: asset.id };
        localStorage.removeItem(kept.key);
      }
      for (let start = 0; start < 2000; start += 100) {
        const page = await mediaJson<MediaList>(read, `${MEDIA_PATHS.list}?start=${start}&limit=100`, { signal });
        const found = page.items.find((asset) => asset.contentItemIds.includes(input.contentItemId));
        if (found) return { assetId: found.id };
        if (start + page.items.length >= page.total || page.items.length === 0) break;
      }
      return { assetId: null };
    }),
    loadChoices: fromPromise<MediaAsset[], void>(async ({ signal }) =>
      (await mediaJson<MediaList>(read, `${MEDIA_PATHS.list}?start=0&limit=100`, { signal })).items.filter((asset) => asset.status === 'ready' || asset.status === 'viewable')),
    attachVideo: fromPromise<{ version: number }, { contentItemId: string; assetId: string | null }>(async ({ input, signal }) => {
      const answer = await mediaJson<{ version: number }>(read, `${API_PATHS.content}/${encodeURIComponent(input.contentItemId)}/video`, { method: 'PUT', body: { assetId: input.assetId }, signal });
      return { version: answer.version };
    }),
    addExternal: fromPromise<MediaAsset, { title: string; hlsUrl: string }>(({ input, signal }) => mediaJson(read, MEDIA_PATHS.external, { body: input, signal })),
    addCaptions: fromPromise<{ label: string }, CaptionsRequest>(async ({ input, signal }) => {
      const { assetId, ...body } = input;
      await mediaJson(read, assetUrl(assetId, '/captions'), { body, signal });
      return { label: input.label || input.language };
    }),
    loadPlayback: fromPromise<MediaPlayback, { assetId: string }>(({ input, signal }) => mediaJson(read, assetUrl(input.assetId, '/playback'), { signal })),
    /** The storyboard's WebVTT (its address carries the playback token): its cues, none when the video has no storyboard. */
    loadStoryboard: fromPromise<StoryboardCue[], { url: string | null }>(async ({ input, signal }) => {
      if (!input.url) return [];
      const response = await fetch(input.url, { signal, credentials: 'same-origin' });
      if (!response.ok) throw new ApiError(`The server answered ${response.status}.`, response.status);
      return parseStoryboard(await response.text(), input.url);
    }),
  };
}

export type MediaIo = ReturnType<typeof createMediaIo>;

/** hls.js on the page's <video>, imported on first use; tells the machine levels, the level playing, time, play/pause, failures. */
export const hlsEngine = fromCallback<EngineCommand, EngineInput>(({ input, sendBack, receive }) => {
  const video = input.surface;
  if (!(video instanceof HTMLVideoElement)) {
    sendBack({ type: 'engine.failed', message: 'The player has no video element.' });
    return undefined;
  }
  let closed = false;
  let setLevel: (index: number) => void = () => {};
  let destroy: () => void = () => {};
  const listeners: [string, () => void][] = [
    ['timeupdate', () => sendBack({ type: 'engine.time', currentTime: video.currentTime, duration: Number.isFinite(video.duration) ? video.duration : 0 })],
    ['play', () => sendBack({ type: 'engine.playRequested', at: performance.now() })],
    ['playing', () => sendBack({ type: 'engine.playing', at: performance.now() })],
    // A stall for data (not the seek the person asked for): a rebuffer once playing.
    ['waiting', () => { if (!video.seeking) sendBack({ type: 'engine.waiting', at: performance.now() }); }],
    ['pause', () => sendBack({ type: 'engine.paused', at: performance.now() })],
    ['ended', () => sendBack({ type: 'engine.paused', at: performance.now() })],
  ];
  for (const [name, listener] of listeners) video.addEventListener(name, listener);
  void import('hls.js').then(({ default: Hls }) => {
    if (closed) return;
    if (!Hls.isSupported()) {
      // Safari plays HLS itself (no rendition control then).
      video.src = input.hlsUrl;
      return;
    }
    // The first (lowest) rendition first: it is the one ready earliest (viewable).
    const hls = new Hls({ startLevel: 0, capLevelToPlayerSize: false });
    hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => sendBack({ type: 'engine.levels', levels: data.levels.map((level) => ({ height: level.height, bitrate: level.bitrate })) }));
    hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => sendBack({ type: 'engine.level', index: data.level }));
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) sendBack({ type: 'engine.failed', message: `The video could not be played (${data.details}).` });
    });
    hls.loadSource(input.hlsUrl);
    hls.attachMedia(video);
    setLevel = (index) => { hls.currentLevel = index; };
    destroy = () => hls.destroy();
  }, () => sendBack({ type: 'engine.failed', message: 'The player could not be loaded. Reload the page.' }));
  receive((command) => {
    if (command.type === 'engine.setLevel') setLevel(command.index);
    else if (Number.isFinite(command.seconds)) video.currentTime = command.seconds;
  });
  return () => {
    closed = true;
    for (const [name, listener] of listeners) video.removeEventListener(name, listener);
    destroy();
  };
});

/** The host name of an address (relative to the page's), '' when there is none. */
function hostNameOf(url: string): string {
  try {
    return new URL(url, typeof location === 'undefined' ? 'http://localhost' : location.href).hostname;
  } catch {
    return '';
  }
}

/** A preview session as the apps' players report one (ids, counters), kept while the page plays. */
const sessions = new Map<string, { sessionId: string; seq: number }>();

/** The player event of a report, or null when the playback answer carries no preview key (no title). */
export function playerEventOf(report: PlayerReport, context: Pick<PlayerContext, 'playback'>, now = new Date()): PlayerEvent | null {
  const events = context.playback?.events;
  if (!events) return null;
  let session = sessions.get(report.assetId);
  if (report.kind === 'start' || !session) {
    session = { sessionId: crypto.randomUUID(), seq: 0 };
    sessions.set(report.assetId, session);
  }
  session.seq += 1;
  const base = { eventId: `${session.sessionId}:${session.seq}`, sessionId: session.sessionId, at: now.toISOString() };
  const watched = Math.max(0, Math.round(report.position));
  const kbps = report.bitrate === null ? 0 : Math.round(report.bitrate / 1000);
  if (report.kind === 'start') {
    return {
      type: 'session.start', ...base, subscriberId: events.subscriberId, contentId: events.contentId, networkId: events.networkId,
      deviceType: events.deviceType, country: events.country, isp: events.isp, cdn: events.cdn, startupMs: report.startupMs,
      // Issue 41's dimensions: the console's own player (QOE_CONSOLE_PLAYER), a video on demand, from the preview's host.
      playerName: events.playerName, playerVersion: events.playerVersion, streamType: 'vod', sourceHost: hostNameOf(context.playback?.previewUrl ?? ''),
    };
  }
  if (report.kind === 'heartbeat') {
    return { type: 'heartbeat', ...base, playheadSeconds: watched, watchedSeconds: watched, bitrateKbps: kbps, rebufferCount: report.rebufferCount, rebufferMs: report.rebufferMs };
  }
  sessions.delete(report.assetId);
  return { type: 'session.end', ...base, watchedSeconds: watched, rebufferCount: report.rebufferCount, rebufferMs: report.rebufferMs, avgBitrateKbps: kbps };
}

function sendPlayerEvent(report: PlayerReport | null, context: PlayerContext): void {
  if (!report) return;
  const event = playerEventOf(report, context);
  const key = context.playback?.events?.ingestionKey;
  if (!event || !key) return;
  // Fire and forget, as a player does: a lost event loses a figure, never the preview.
  void fetch(INGEST_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json', [INGEST_KEY_HEADER]: key }, body: JSON.stringify({ events: [event] }), keepalive: true })
    .catch(() => undefined);
}

/** The page logic of the Media area with the given I/O (tests hand in fakes). */
export function mediaPageLogic(io: Record<keyof MediaIo, AnyActorLogic> = createMediaIo()) {
  const lifecycle = { upload: io.upload, loadAsset: io.loadAsset, retryAsset: io.retryAsset, cancelAsset: io.cancelAsset };
  return {
    mediaLibrary: mediaLibraryMachine.provide({
      actors: {
        list: mediaListMachine.provide({ actors: { fetchPage: io.fetchPage } }),
        upload: libraryUploadMachine.provide({ actors: lifecycle }),
      },
    }),
    mediaAsset: mediaAssetMachine.provide({ actors: lifecycle }),
    mediaItemVideo: itemVideoMachine.provide({
      actors: {
        loadItemVideo: io.loadItemVideo, loadChoices: io.loadChoices, attachVideo: io.attachVideo, addExternal: io.addExternal, addCaptions: io.addCaptions,
        asset: itemAssetMachine.provide({ actors: lifecycle }),
      },
    }),
    mediaPlayer: mediaPlayerMachine.provide({
      actors: { loadPlayback: io.loadPlayback, loadStoryboard: io.loadStoryboard, engine: hlsEngine },
      actions: { report: ({ context }, params) => sendPlayerEvent(params, context) },
    }),
  };
}

let pages: ReturnType<typeof mediaPageLogic> | undefined;

/** The Media area's pages with their real I/O, made on first use (src/adapters/page-logic.ts). */
export function mediaPages(): ReturnType<typeof mediaPageLogic> {
  pages ??= mediaPageLogic();
  return pages;
}

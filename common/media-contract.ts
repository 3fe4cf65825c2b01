/**
 * Issue 40 (video): the media API as both sides see it. The server answers these shapes
 * (server/http/media-routes.ts), the console reads them (src/adapters/media-actors.ts); the words of
 * every state and error are in common/messages/media.ts.
 *
 * Lifecycle (server states, the console's machine mirrors them): waiting (asset created, no byte yet)
 * → uploading (tus upload in progress) → preparing (checked by ffprobe, encoding) → viewable (the
 * first rendition plays) → ready (every rendition, poster and storyboard done); errored (with a
 * reason in words, Retry) and cancelled from any state before ready.
 */
export const MEDIA_STATUSES = ['waiting', 'uploading', 'preparing', 'viewable', 'ready', 'errored', 'cancelled'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Where the media API lives (Content area: read to list and preview, write to upload and attach). */
export const MEDIA_PATHS = {
  /** GET: the site's videos, paged (query start, limit, q, status) → MediaList. */
  list: '/v2.0/media',
  /** tus 1.0 endpoint (creation, HEAD, PATCH, DELETE = cancel): Upload-Metadata filename, filetype, contentItemId (optional). */
  uploads: '/v2.0/media/uploads',
  /** POST { title, hlsUrl }: attach an existing HLS address (the site without encoding). */
  external: '/v2.0/media/external',
  /**
   * GET /:id → MediaAsset; POST /:id/retry; POST /:id/cancel; GET /:id/playback → MediaPlayback; POST /:id/captions.
   * (media-server's additions, each answering the MediaAsset; `version` optional, a stale one is a 409:)
   * DELETE /:id/captions/:language?version=; PUT /:id/poster { seconds, version? };
   * PUT /:id/external { hlsUrl, version? } (a video added from an HLS address). A video's History: GET /v1/revisions/media/:id.
   */
  asset: '/v2.0/media',
  /** Played files: /v2.0/media/play/<token>/<asset id>/master.m3u8 (the token in the path so relative segment URLs keep it). */
  play: '/v2.0/media/play',
} as const;

export interface MediaRendition {
  /** '240p' … '1080p' */
  name: string;
  width: number;
  height: number;
  /** Peak bits per second, as the master playlist says. */
  bandwidth: number;
  /** 0–100 */
  progress: number;
  done: boolean;
}

export interface MediaCaption {
  /** BCP 47 / ISO 639 language, e.g. 'en', 'fr'. */
  language: string;
  label: string;
  url: string;
}

export interface MediaAsset {
  id: string;
  title: string;
  status: MediaStatus;
  /** Why it errored, in words (null unless errored). */
  errorMessage: string | null;
  /** Overall 0–100: upload while uploading, encoding while preparing/viewable. */
  progress: number;
  uploadedBytes: number;
  sizeBytes: number | null;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  renditions: MediaRendition[];
  captions: MediaCaption[];
  posterUrl: string | null;
  /**
   * (media-server's addition) The poster's chosen time in seconds, null for the default (a tenth of the
   * duration, up to 10 s). Set with PUT MEDIA_PATHS.asset/:id/poster { seconds }: the poster is made again as a job.
   */
  posterSeconds?: number | null;
  /** 'upload' (encoded here) or 'external' (an HLS address attached on a site without encoding). */
  source: 'upload' | 'external';
  /** HLS AES-128 with a key per asset (site profile isDRMEncryptionRequired). */
  encrypted: boolean;
  /** 'signed': played only with a short-lived token. */
  policy: 'public' | 'signed';
  /** Content items this video is attached to. */
  contentItemIds: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface MediaList {
  items: MediaAsset[];
  total: number;
  start: number;
  limit: number;
}

export interface MediaPlayback {
  /** The master playlist's address (on the site's renditionUrl when set), token included when signed. */
  hlsUrl: string;
  /**
   * (media-server's extension) The same playlist on this server's own origin: what the console's
   * preview plays (the site's renditionUrl is a CDN in front of this server the console cannot count on).
   */
  previewUrl: string;
  posterUrl: string | null;
  /** WebVTT of storyboard thumbnails (scrubbing), null until ready. */
  storyboardUrl: string | null;
  /** When the token stops working (RFC 3339), null for public playback. */
  expiresAt: string | null;
  /**
   * (media-server's extension) What the console's preview sends its player events to /v1/events with
   * (common/ingest-contract.ts: session.start, heartbeats, session.end): the site's preview ingestion
   * key (header x-ingestion-key), the site's preview viewer, the content item the video is attached to.
   * null when the video is attached to no item (a session must name a title) or is an external address.
   */
  events: MediaPreviewEvents | null;
}

/** The console's preview player as Dashboard 360 sees it: its sessions' CDN is MEDIA_PREVIEW_PLAYER.cdn (filter QoS by CDN). */
export const MEDIA_PREVIEW_PLAYER = { name: 'CMS Tools preview', version: '1.0.0', cdn: 'CMS Tools preview', isp: 'CMS Tools console' } as const;

export interface MediaPreviewEvents {
  ingestionKey: string;
  subscriberId: string;
  contentId: string;
  /** The preview viewer's network (session.start networkId). */
  networkId: string;
  deviceType: 'web';
  country: string;
  /** MEDIA_PREVIEW_PLAYER.cdn / .isp: what marks these sessions as the console's. */
  cdn: string;
  isp: string;
  playerName: string;
  playerVersion: string;
}

/**
 * The video lifecycle machine's setup (machines/media-asset.machine.ts assembles it with its states):
 * types, I/O actors by name (provided by src/adapters/media-actors.ts), actions and guards.
 */
import { assign, emit, setup } from 'xstate';
import type { MediaAsset, MediaStatus } from '../common/media-contract';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

/** How often a video being prepared is read again (ms). */
export const MEDIA_POLL_MS = 2000;

/** The panel's own words (a refusal shows the server's message instead). */
export const MEDIA_ASSET_MESSAGES = {
  uploadFailed: 'The upload stopped: the server could not be reached. Retry resumes it where it stopped.',
  loadFailed: 'The video could not be read. Try again.',
  retryFailed: 'The encoding could not be started again. Try again.',
  cancelFailed: 'The upload was stopped here, but the server could not be told. It is cleaned up later.',
} as const;

export interface MediaAssetInput {
  /** The content item a new upload is attached to (null: the Media list's own upload). */
  contentItemId: string | null;
  /** The video to follow (an item's attached video, a Media page), or null for none yet. */
  assetId: string | null;
}

/** Bytes sent, and when (ms since the epoch) the upload reported them: the speed and the time left come from two reports. */
export interface UploadRate { startedAt: number; startBytes: number; at: number; loaded: number; total: number }

export interface MediaAssetContext extends MediaAssetInput {
  /** The file chosen, kept for Retry (the tus upload resumes where it stopped). */
  file: Blob | null;
  fileName: string;
  /** The server's record as last read; null before one is. */
  asset: MediaAsset | null;
  rate: UploadRate | null;
  error: string | null;
}

export type MediaUploadProgressed = { type: 'upload.progressed'; loaded: number; total: number; at: number };
/** The tus creation answered: the asset exists on the server (Cancel can name it). */
export type MediaUploadCreated = { type: 'upload.created'; assetId: string };

/** Whom the upload actor tells its progress and creation (the machine itself). */
export interface MediaUploadListener {
  send: (event: MediaUploadProgressed | MediaUploadCreated) => void;
}

export interface MediaUploadRequest { file: Blob; fileName: string; contentItemId: string | null; progress: MediaUploadListener }

export type MediaAssetEvent =
  | { type: 'media.choose'; file: Blob; fileName: string }
  | { type: 'media.cancel' }
  | { type: 'media.cancelConfirm' }
  | { type: 'media.cancelDismiss' }
  | { type: 'media.retry' }
  | { type: 'media.refresh' }
  | MediaUploadProgressed
  | MediaUploadCreated;

/** Told to listeners (the view) when the server's record changed status. */
export type MediaAssetEmitted = { type: 'media.status'; assetId: string; status: MediaStatus };

export const mediaAssetSetup = setup({
  types: machineTypes<{
    input: MediaAssetInput; context: MediaAssetContext; events: MediaAssetEvent; emitted: MediaAssetEmitted;
    children: { upload: 'upload'; loadAsset: 'loadAsset'; retryAsset: 'retryAsset'; cancelAsset: 'cancelAsset' };
  }>(),
  actors: {
    upload: providedLater<{ assetId: string }, MediaUploadRequest>('upload'),
    loadAsset: providedLater<MediaAsset, { assetId: string }>('loadAsset'),
    retryAsset: providedLater<MediaAsset, { assetId: string }>('retryAsset'),
    cancelAsset: providedLater<void, { assetId: string | null }>('cancelAsset'),
  },
  actions: {
    takeFile: assign((_, params: { file: Blob; fileName: string }) => ({
      file: params.file, fileName: params.fileName, rate: null, error: null, asset: null, assetId: null,
    })),
    takeAssetId: assign((_, params: { assetId: string }) => ({ assetId: params.assetId })),
    takeAsset: assign((_, params: { asset: MediaAsset }) => ({ asset: params.asset, assetId: params.asset.id, error: params.asset.errorMessage })),
    takeProgress: assign(({ context }, params: { loaded: number; total: number; at: number }) => ({
      rate: context.rate
        ? { ...context.rate, at: params.at, loaded: params.loaded, total: params.total }
        : { startedAt: params.at, startBytes: params.loaded, at: params.at, loaded: params.loaded, total: params.total },
    })),
    clearError: assign({ error: null }),
    forgetFile: assign({ file: null, rate: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureMessage(params.error, params.fallback) })),
    /** A new asset exists (upload created): a parent (the item panel, the Media list) provides it with sendParent. */
    changed: (_, params: { assetId: string }) => { void params; },
    /** The last byte arrived (the server checks and encodes it; an item's upload is attached by the server then): a parent provides it. */
    uploaded: (_, params: { assetId: string }) => { void params; },
    /** The upload started (true) or stopped (false): a parent (the item panel) provides it to ask before a leave stops it. */
    uploadRunning: (_, params: { on: boolean }) => { void params; },
    announceStatus: emit((_, params: { asset: MediaAsset }) => ({ type: 'media.status' as const, assetId: params.asset.id, status: params.asset.status })),
  },
  guards: {
    hasNoAsset: ({ context }) => context.assetId === null,
    hasFile: ({ context }) => context.file !== null,
    /** The server itself says the video errored (Retry asks it to encode again, no upload). */
    isServerError: ({ context }) => context.asset?.status === 'errored',
    isStatus: (_, params: { asset: MediaAsset; status: readonly MediaStatus[] }) => params.status.includes(params.asset.status),
  },
  delays: { poll: MEDIA_POLL_MS },
});

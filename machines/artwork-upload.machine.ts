/**
 * The item page's Artwork panel (issue 38): an item's artwork added or replaced after its creation.
 * A chosen file is checked and stored by the server (the artwork upload of Create New), then the
 * item is saved with its address (PATCH, the item's version); the page's facts and History read
 * again (the view relays `artwork.saved`, as the linked editors' versionMoved).
 *
 *   idle → uploading (cancel → idle) → saving → saved
 *                   ↘ failed (the server's message) ↙   Retry: the upload again, or only the save
 *
 * While uploading, the upload actor reports the bytes sent (`upload.progressed` with loaded/total, from
 * the XHR's `upload.onprogress`, issue 38): the panel shows a progress bar with its percent.
 *
 * Its I/O (`uploadArtwork`, `saveArtwork`) is provided by the Content wiring file (src/adapters/content-actors.ts).
 */
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ArtworkSlot } from '../common/content';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export interface ArtworkUploadInput {
  /** The item whose artwork this is. */
  id: string;
  /** Which artwork: the thumbnail (the item's artworkUrl) or the poster (posterUrl). */
  slot: ArtworkSlot;
}

export interface ArtworkUploadContext extends ArtworkUploadInput {
  /** The file chosen, kept for Retry; null when none is. */
  file: Blob | null;
  /** The address the upload answered, kept so a failed save retries the save alone. */
  url: string | null;
  /** The item's version the save names (the page's, given with each choice and Retry). */
  version: number;
  /** The server's message of the last failure. */
  error: string | null;
  /** Bytes of the file sent so far and in all (total 0 while the browser cannot tell); null before the first report. */
  progress: { loaded: number; total: number } | null;
}

/** The upload's report of the bytes sent so far. */
export type UploadProgressEvent = { type: 'upload.progressed'; loaded: number; total: number };

/** Whom the upload actor tells its progress (the machine itself). */
export interface UploadProgressListener {
  send: (event: UploadProgressEvent) => void;
}

export interface UploadArtworkPanelInput { slot: ArtworkSlot; file: Blob; progress: UploadProgressListener }

export type ArtworkUploadEvent =
  | { type: 'artwork.choose'; file: Blob; version: number }
  | { type: 'artwork.cancel' }
  | { type: 'artwork.retry'; version: number }
  | UploadProgressEvent;

/** Told to the page once the item is saved with its new artwork: its version moved from → to. */
export type ArtworkUploadEmitted = { type: 'artwork.saved'; from: number; to: number };

export interface SaveArtworkInput { id: string; slot: ArtworkSlot; url: string; version: number }

/** Shown when the server cannot be reached (a refusal shows the server's own message). */
export const ARTWORK_PANEL_MESSAGES = {
  uploadFailed: 'The artwork could not be uploaded. Try again.',
  saveFailed: 'The artwork could not be saved. Try again.',
} as const;

export const artworkUploadMachine = setup({
  types: machineTypes<{
    input: ArtworkUploadInput; context: ArtworkUploadContext; events: ArtworkUploadEvent; emitted: ArtworkUploadEmitted;
    children: { uploadArtwork: 'uploadArtwork'; saveArtwork: 'saveArtwork' };
  }>(),
  actors: {
    uploadArtwork: providedLater<{ url: string }, UploadArtworkPanelInput>('uploadArtwork'),
    saveArtwork: providedLater<{ version: number }, SaveArtworkInput>('saveArtwork'),
  },
  actions: {
    takeFile: assign((_, params: { file: Blob; version: number }) => ({ file: params.file, version: params.version, url: null, error: null, progress: null })),
    takeVersion: assign((_, params: { version: number }) => ({ version: params.version, error: null, progress: null })),
    takeProgress: assign((_, params: { loaded: number; total: number }) => ({ progress: { loaded: params.loaded, total: params.total } })),
    takeUrl: assign((_, params: { url: string }) => ({ url: params.url })),
    forgetFile: assign({ file: null, url: null, error: null, progress: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureMessage(params.error, params.fallback) })),
    announceSaved: emit((_, params: { from: number; to: number }) => ({ type: 'artwork.saved' as const, from: params.from, to: params.to })),
  },
  guards: {
    isUploaded: ({ context }) => context.url !== null,
  },
}).createMachine({
  id: 'artworkUpload',
  description: 'An item\'s artwork replaced: the file uploaded, then the item saved with its address.',
  context: ({ input }) => ({ id: input.id, slot: input.slot, file: null, url: null, version: 0, error: null, progress: null }),
  initial: 'idle',
  on: {
    'artwork.choose': {
      target: '.uploading',
      actions: { type: 'takeFile', params: ({ event }) => ({ file: event.file, version: event.version }) },
    },
  },
  states: {
    idle: {
      description: 'The current artwork (or the drawn poster) with "Upload artwork" / "Replace artwork".',
    },
    uploading: {
      description: 'The file is checked and stored by the server; Cancel stops it and keeps the artwork as it was.',
      invoke: {
        id: 'uploadArtwork',
        src: 'uploadArtwork',
        input: ({ context, self }) => ({ slot: context.slot, file: context.file!, progress: self }),
        onDone: { target: 'saving', actions: { type: 'takeUrl', params: ({ event }) => ({ url: event.output.url }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ARTWORK_PANEL_MESSAGES.uploadFailed }) } },
      },
      on: {
        'upload.progressed': { actions: { type: 'takeProgress', params: ({ event }) => ({ loaded: event.loaded, total: event.total }) } },
        'artwork.cancel': { target: 'idle', actions: 'forgetFile' },
      },
    },
    saving: {
      description: 'The item is saved with the stored artwork\'s address (its version checked).',
      invoke: {
        id: 'saveArtwork',
        src: 'saveArtwork',
        input: ({ context }) => ({ id: context.id, slot: context.slot, url: context.url!, version: context.version }),
        onDone: {
          target: 'saved',
          actions: [{ type: 'announceSaved', params: ({ context, event }) => ({ from: context.version, to: event.output.version }) }, 'forgetFile'],
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ARTWORK_PANEL_MESSAGES.saveFailed }) } },
      },
      on: {
        // The save is under way: choosing another file waits for it.
        'artwork.choose': {},
      },
    },
    saved: {
      description: 'The new artwork is the item\'s; the page reads its facts and History again.',
    },
    failed: {
      description: 'The upload or the save was refused or failed: the server\'s message, and Retry.',
      on: {
        'artwork.retry': [
          { guard: 'isUploaded', target: 'saving', actions: { type: 'takeVersion', params: ({ event }) => ({ version: event.version }) } },
          { target: 'uploading', actions: { type: 'takeVersion', params: ({ event }) => ({ version: event.version }) } },
        ],
        'artwork.cancel': { target: 'idle', actions: 'forgetFile' },
      },
    },
  },
});

export type ArtworkUploadMachine = typeof artworkUploadMachine;
export type ArtworkUploadRef = ActorRefFrom<ArtworkUploadMachine>;
type Snapshot = SnapshotFrom<ArtworkUploadMachine>;

export const selectArtworkPhase = (s: Snapshot) => s.value as 'idle' | 'uploading' | 'saving' | 'saved' | 'failed';
export const selectArtworkError = (s: Snapshot) => s.context.error;
/**
 * The upload's percent (0–100, whole) while uploading: 0 before the first report, null while the browser
 * cannot tell the total (the bar then shows no value).
 */
export const selectUploadPercent = (s: Snapshot): number | null => {
  if (!s.matches('uploading')) return null;
  const progress = s.context.progress;
  if (progress === null) return 0;
  if (progress.total <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((progress.loaded / progress.total) * 100)));
};

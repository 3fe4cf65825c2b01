/**
 * The item page's Artwork panel (issue 38): an item's artwork added or replaced after its creation.
 * A chosen file is checked and stored by the server (the artwork upload of Create New), then the
 * item is saved with its address (PATCH, the item's version); the page's facts and History read
 * again (the view relays `artwork.saved`, as the linked editors' versionMoved).
 *
 *   idle → uploading (cancel → idle) → saving → saved
 *                   ↘ failed (the server's message) ↙   Retry: the upload again, or only the save
 *
 * Its I/O (`uploadArtwork`, `saveArtwork`) is provided by the Content wiring file (src/adapters/content-actors.ts).
 */
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ArtworkSlot } from '../common/content';
import { failureMessage } from './failure-message';
import { typed } from './setup-types';
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
}

export type ArtworkUploadEvent =
  | { type: 'artwork.choose'; file: Blob; version: number }
  | { type: 'artwork.cancel' }
  | { type: 'artwork.retry'; version: number };

/** Told to the page once the item is saved with its new artwork: its version moved from → to. */
export type ArtworkUploadEmitted = { type: 'artwork.saved'; from: number; to: number };

export interface SaveArtworkInput { id: string; slot: ArtworkSlot; url: string; version: number }

/** Shown when the server cannot be reached (a refusal shows the server's own message). */
export const ARTWORK_PANEL_MESSAGES = {
  uploadFailed: 'The artwork could not be uploaded. Try again.',
  saveFailed: 'The artwork could not be saved. Try again.',
} as const;

export const artworkUploadMachine = setup({
  types: {
    input: typed<ArtworkUploadInput>(),
    context: typed<ArtworkUploadContext>(),
    events: typed<ArtworkUploadEvent>(),
    emitted: typed<ArtworkUploadEmitted>(),
  },
  actors: {
    uploadArtwork: providedLater<{ url: string }, { slot: ArtworkSlot; file: Blob }>('uploadArtwork'),
    saveArtwork: providedLater<{ version: number }, SaveArtworkInput>('saveArtwork'),
  },
  actions: {
    takeFile: assign((_, params: { file: Blob; version: number }) => ({ file: params.file, version: params.version, url: null, error: null })),
    takeVersion: assign((_, params: { version: number }) => ({ version: params.version, error: null })),
    takeUrl: assign((_, params: { url: string }) => ({ url: params.url })),
    forgetFile: assign({ file: null, url: null, error: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureMessage(params.error, params.fallback) })),
    announceSaved: emit((_, params: { from: number; to: number }) => ({ type: 'artwork.saved' as const, from: params.from, to: params.to })),
  },
  guards: {
    isUploaded: ({ context }) => context.url !== null,
  },
}).createMachine({
  id: 'artworkUpload',
  description: 'An item\'s artwork replaced: the file uploaded, then the item saved with its address.',
  context: ({ input }) => ({ id: input.id, slot: input.slot, file: null, url: null, version: 0, error: null }),
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
        input: ({ context }) => ({ slot: context.slot, file: context.file! }),
        onDone: { target: 'saving', actions: { type: 'takeUrl', params: ({ event }) => ({ url: event.output.url }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ARTWORK_PANEL_MESSAGES.uploadFailed }) } },
      },
      on: {
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

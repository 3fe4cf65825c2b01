/**
 * One video's lifecycle in the console (issue 40): the server's states mirrored, with the upload
 * itself in between.
 *
 *   empty ─choose→ uploading (tus: resumable, progress with speed and time left; Cancel asks first)
 *        → preparing (read again every MEDIA_POLL_MS) → viewable (the first rendition plays) → ready
 *   errored (the server's words, or the upload's) ─Retry→ retrying (encode again) | uploading (resume)
 *   cancelled; interrupted: an upload of an earlier page (reload) waiting for the same file again.
 *
 * Its I/O (`upload` over tus-js-client, `loadAsset`, `retryAsset`, `cancelAsset`) is provided by the
 * Media wiring file (src/adapters/media-actors.ts). A parent (the item's video panel, the Media list)
 * provides `changed` to hear of a new asset.
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { MediaAsset, MediaStatus } from '../common/media-contract';
import { MEDIA_ASSET_MESSAGES, mediaAssetSetup } from './media-asset.setup';

export * from './media-asset.setup';

type Own = 'loading' | 'preparing' | 'viewable';
const ROOT = '#mediaAsset';

/**
 * A new file replaces what is shown (an item's old video stays on the server); not offered while one
 * is on its way, being cancelled or retried.
 */
const CHOOSE = {
  target: `${ROOT}.uploading`,
  actions: { type: 'takeFile' as const, params: ({ event }: { event: { file: Blob; fileName: string } }) => ({ file: event.file, fileName: event.fileName }) },
};

/** Where a read of the asset goes by its status (from `own`: its own status keeps polling). */
function afterRead(own: Own) {
  const to = (state: MediaStatus | 'interrupted') => (state === own ? 'waiting' : `${ROOT}.${state}`);
  const rule = (status: readonly MediaStatus[], target: string) => ({
    guard: { type: 'isStatus' as const, params: ({ event }: { event: { output: MediaAsset } }) => ({ asset: event.output, status }) },
    target,
    actions: [
      { type: 'takeAsset' as const, params: ({ event }: { event: { output: MediaAsset } }) => ({ asset: event.output }) },
      { type: 'announceStatus' as const, params: ({ event }: { event: { output: MediaAsset } }) => ({ asset: event.output }) },
    ],
  });
  return [
    rule(['ready'], to('ready')),
    rule(['viewable'], to('viewable')),
    rule(['preparing'], to('preparing')),
    rule(['errored'], to('errored')),
    rule(['cancelled'], to('cancelled')),
    rule(['waiting', 'uploading'], to('interrupted')),
  ];
}

/** Preparing and viewable read the asset again until it moves on. */
function polling(own: 'preparing' | 'viewable', description: string) {
  return {
    description,
    initial: 'waiting' as const,
    states: {
      waiting: {
        description: 'Until the next read.',
        after: { poll: { target: 'reading' } },
      },
      reading: {
        description: 'The asset is read again (its status, per-rendition progress).',
        invoke: {
          id: 'loadAsset' as const,
          src: 'loadAsset' as const,
          input: ({ context }: { context: { assetId: string | null } }) => ({ assetId: context.assetId ?? '' }),
          onDone: afterRead(own),
          // A read that failed (a dropped connection) is tried again at the next tick.
          onError: { target: 'waiting' },
        },
      },
    },
  };
}

export const mediaAssetMachine = mediaAssetSetup.createMachine({
  id: 'mediaAsset',
  description: 'A video: chosen, uploaded (resumable), prepared by the server, viewable, ready; or errored with words, or cancelled.',
  context: ({ input }) => ({ ...input, file: null, fileName: '', asset: null, rate: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The video is read from the server (none to follow: straight to empty).',
      always: { guard: 'hasNoAsset', target: 'empty' },
      invoke: {
        id: 'loadAsset',
        src: 'loadAsset',
        input: ({ context }) => ({ assetId: context.assetId ?? '' }),
        onDone: afterRead('loading'),
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: MEDIA_ASSET_MESSAGES.loadFailed }) } },
      },
    },
    failed: {
      description: 'The video could not be read: the message and Try again.',
      on: { 'media.retry': { target: 'loading', actions: 'clearError' }, 'media.choose': CHOOSE },
    },
    empty: {
      description: 'No video yet: a writer chooses a file.',
      on: { 'media.choose': CHOOSE },
    },
    interrupted: {
      description: 'An upload started earlier (before a reload) stopped: choosing the same file resumes it.',
      on: { 'media.choose': CHOOSE },
    },
    uploading: {
      description: 'The file is sent in chunks (tus); the bar shows the bytes, the speed and the time left.',
      entry: { type: 'uploadRunning', params: { on: true } },
      exit: { type: 'uploadRunning', params: { on: false } },
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context, self }) => ({ file: context.file ?? new Blob([]), fileName: context.fileName, contentItemId: context.contentItemId, progress: self }),
        onDone: {
          target: 'preparing',
          actions: [{ type: 'takeAssetId', params: ({ event }) => event.output }, 'forgetFile', { type: 'uploaded', params: ({ event }) => event.output }],
        },
        onError: { target: 'errored', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: MEDIA_ASSET_MESSAGES.uploadFailed }) } },
      },
      on: {
        'upload.progressed': { actions: { type: 'takeProgress', params: ({ event }) => event } },
        'upload.created': {
          actions: [{ type: 'takeAssetId', params: ({ event }) => event }, { type: 'changed', params: ({ event }) => event }],
        },
      },
      initial: 'sending',
      states: {
        sending: {
          description: 'Bytes on their way; Cancel asks first.',
          on: { 'media.cancel': { target: 'confirmingCancel' } },
        },
        confirmingCancel: {
          description: '"Cancel this upload?" while the bytes keep going.',
          on: {
            'media.cancelConfirm': { target: `${ROOT}.cancelling` },
            'media.cancelDismiss': { target: 'sending' },
          },
        },
      },
    },
    cancelling: {
      description: 'The upload is stopped here and the server told to drop it.',
      invoke: {
        id: 'cancelAsset',
        src: 'cancelAsset',
        input: ({ context }) => ({ assetId: context.assetId }),
        onDone: { target: 'cancelled', actions: 'forgetFile' },
        onError: { target: 'cancelled', actions: ['forgetFile', { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: MEDIA_ASSET_MESSAGES.cancelFailed }) }] },
      },
    },
    preparing: { ...polling('preparing', 'The server checks the file (ffprobe) and encodes it; progress per rendition.'), on: { 'media.choose': CHOOSE } },
    viewable: { ...polling('viewable', 'The first rendition plays; the others are still encoding.'), on: { 'media.choose': CHOOSE } },
    ready: {
      description: 'Every rendition, the poster and the storyboard are done.',
      on: { 'media.refresh': { target: 'loading' }, 'media.choose': CHOOSE },
    },
    errored: {
      description: 'The server\'s reason in words (or the upload\'s): Retry encodes again, or resumes the upload.',
      on: {
        'media.retry': [
          { guard: 'isServerError', target: 'retrying' },
          { guard: 'hasFile', target: 'uploading', actions: 'clearError' },
        ],
        'media.choose': CHOOSE,
      },
    },
    retrying: {
      description: 'The server is asked to encode the kept file again.',
      invoke: {
        id: 'retryAsset',
        src: 'retryAsset',
        input: ({ context }) => ({ assetId: context.assetId ?? '' }),
        onDone: { target: 'preparing', actions: { type: 'takeAsset', params: ({ event }) => ({ asset: event.output }) } },
        onError: { target: 'errored', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: MEDIA_ASSET_MESSAGES.retryFailed }) } },
      },
    },
    cancelled: {
      description: 'The upload was cancelled; another file can be chosen.',
      on: { 'media.choose': CHOOSE },
    },
  },
});

export type MediaAssetMachine = typeof mediaAssetMachine;
export type MediaAssetRef = ActorRefFrom<MediaAssetMachine>;
type Snapshot = SnapshotFrom<MediaAssetMachine>;

export type MediaPhase = 'loading' | 'failed' | 'empty' | 'interrupted' | 'uploading' | 'cancelling' | MediaStatus | 'retrying';

const PHASES = ['loading', 'failed', 'empty', 'interrupted', 'uploading', 'cancelling', 'preparing', 'viewable', 'ready', 'errored', 'retrying', 'cancelled'] as const;

export function selectMediaPhase(s: Snapshot): MediaPhase {
  return PHASES.find((phase) => s.matches(phase)) ?? 'loading';
}
export const selectMediaAsset = (s: Snapshot) => s.context.asset;
export const selectMediaError = (s: Snapshot) => s.context.error;
export const selectIsConfirmingCancel = (s: Snapshot) => s.matches({ uploading: 'confirmingCancel' });
/** Whether a file may be chosen now (not while one is on its way, being cancelled, or retried). */
export const selectCanChoose = (s: Snapshot) => !s.matches('uploading') && !s.matches('cancelling') && !s.matches('retrying') && !s.matches('loading');

export interface UploadFigures {
  /** 0–100, whole; null before the first report. */
  percent: number | null;
  /** Bytes per second over this upload so far; null until two reports a moment apart. */
  bytesPerSecond: number | null;
  /** Seconds left at that speed; null when unknown. */
  secondsLeft: number | null;
}

/** The bar's figures while uploading. */
export function selectUploadFigures(s: Snapshot): UploadFigures {
  const rate = s.context.rate;
  if (!rate || rate.total <= 0) return { percent: rate ? null : 0, bytesPerSecond: null, secondsLeft: null };
  const percent = Math.min(100, Math.max(0, Math.floor((rate.loaded / rate.total) * 100)));
  const elapsed = rate.at - rate.startedAt;
  const sent = rate.loaded - rate.startBytes;
  if (elapsed < 250 || sent <= 0) return { percent, bytesPerSecond: null, secondsLeft: null };
  const bytesPerSecond = (sent / elapsed) * 1000;
  return { percent, bytesPerSecond, secondsLeft: Math.ceil((rate.total - rate.loaded) / bytesPerSecond) };
}

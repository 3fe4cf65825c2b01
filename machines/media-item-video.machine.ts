/**
 * The content item's Video panel (issue 40): the item's video as a `mediaAsset` child (upload,
 * preparing → viewable → ready, errored with Retry), and what a writer does to it besides: attach one
 * from Media, attach an existing HLS address (the site without encoding), add captions per language.
 *
 *   loading → showing.idle ⇄ picking → choosing → attaching → loading (the new video read)
 *                         ⇄ addingExternal → attaching;  ⇄ savingCaptions
 *   loading ↘ failed (Try again)
 *
 * A new upload is attached by the server (the tus Upload-Metadata names the item); replacing keeps the
 * old asset, and the item's History records the change. Its I/O is provided by src/adapters/media-actors.ts.
 */
import { assign, emit, sendParent, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { MediaAsset } from '../common/media-contract';
import { failureMessage } from './failure-message';
import { mediaAssetMachine } from './media-asset.machine';
import { videoFormsMachine, type VideoFormsSubmitted } from './media-video-forms.machine';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export const ITEM_VIDEO_MESSAGES = {
  loadFailed: 'The item\'s video could not be read. Try again.',
  choicesFailed: 'The site\'s videos could not be read. Try again.',
  attachFailed: 'The video could not be attached. Try again.',
  externalFailed: 'The address could not be attached. Try again.',
  captionsFailed: 'The captions could not be saved. Try again.',
  captionsSaved: (label: string) => `Captions saved (${label}).`,
} as const;

export interface ItemVideoInput { contentItemId: string }

export interface CaptionsRequest { assetId: string; language: string; label: string; format: 'vtt' | 'srt'; text: string }

export interface ItemVideoContext extends ItemVideoInput {
  /** The item's attached video, null for none. */
  assetId: string | null;
  /** The video to attach next (picked from Media, or the external address just created). */
  pending: string | null;
  /** The site's videos to pick from. */
  choices: MediaAsset[];
  error: string | null;
  notice: string | null;
}

export type ItemVideoEvent =
  | { type: 'video.pick' }
  | { type: 'video.pickCancel' }
  | { type: 'video.attach'; assetId: string }
  | { type: 'video.external'; title: string; hlsUrl: string }
  | { type: 'video.reload' }
  /** From the `asset` child: a new upload created the asset (the server attached it). */
  | { type: 'video.created'; assetId: string }
  /** From the `asset` child: the upload's last byte arrived; the server attached it to the item (one more version). */
  | { type: 'video.uploaded'; assetId: string }
  /** From the `asset` child: its upload started or stopped (the leave question asks while it runs). */
  | { type: 'video.uploading'; on: boolean }
  | { type: 'captions.add'; language: string; label: string; format: 'vtt' | 'srt'; text: string };

/** Told to the page: the item's video changed (its History has a new revision); `version`: the item's version after it. */
export type ItemVideoEmitted = { type: 'video.attached'; assetId: string | null; version: number | null };

/** The small forms as this panel's child: what they submit comes here (captions.add, video.external). */
export const itemFormsMachine = videoFormsMachine.provide({ actions: { submit: sendParent((_, params: VideoFormsSubmitted) => params) } });

/** The lifecycle machine as this panel's child: a created upload is reported to the panel. */
export const itemAssetMachine = mediaAssetMachine.provide({
  actions: {
    changed: sendParent((_, params: { assetId: string }) => ({ type: 'video.created' as const, assetId: params.assetId })),
    uploaded: sendParent((_, params: { assetId: string }) => ({ type: 'video.uploaded' as const, assetId: params.assetId })),
    uploadRunning: sendParent((_, params: { on: boolean }) => ({ type: 'video.uploading' as const, on: params.on })),
  },
});

export const itemVideoMachine = setup({
  types: machineTypes<{
    input: ItemVideoInput; context: ItemVideoContext; events: ItemVideoEvent; emitted: ItemVideoEmitted;
    children: { forms: 'forms'; loadItemVideo: 'loadItemVideo'; asset: 'asset'; loadChoices: 'loadChoices'; attachVideo: 'attachVideo'; addExternal: 'addExternal'; addCaptions: 'addCaptions' };
  }>(),
  actors: {
    loadItemVideo: providedLater<{ assetId: string | null }, { contentItemId: string }>('loadItemVideo'),
    asset: itemAssetMachine,
    forms: itemFormsMachine,
    loadChoices: providedLater<MediaAsset[], void>('loadChoices'),
    attachVideo: providedLater<{ version: number }, { contentItemId: string; assetId: string | null }>('attachVideo'),
    addExternal: providedLater<MediaAsset, { title: string; hlsUrl: string }>('addExternal'),
    addCaptions: providedLater<{ label: string }, CaptionsRequest>('addCaptions'),
  },
  actions: {
    takeAssetId: assign((_, params: { assetId: string | null }) => ({ assetId: params.assetId, pending: null })),
    takeChoices: assign((_, params: { choices: MediaAsset[] }) => ({ choices: params.choices })),
    takePending: assign((_, params: { assetId: string }) => ({ pending: params.assetId, error: null, notice: null })),
    clearMessages: assign({ error: null, notice: null }),
    setNotice: assign((_, params: { notice: string }) => ({ notice: params.notice, error: null })),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureMessage(params.error, params.fallback), notice: null })),
    refreshAsset: sendTo('asset', { type: 'media.refresh' }),
    tellForms: sendTo('forms', (_, params: { on: boolean }) => ({ type: 'forms.uploading' as const, on: params.on })),
    clearForm: sendTo('forms', (_, params: { form: 'captions' | 'external' }) => ({ type: 'forms.clear' as const, form: params.form })),
    announceAttached: emit((_, params: { assetId: string | null; version: number | null }) => ({ type: 'video.attached' as const, assetId: params.assetId, version: params.version })),
  },
  guards: {
    hasAssetId: ({ context }) => context.assetId !== null,
  },
}).createMachine({
  id: 'mediaItemVideo',
  description: 'An item\'s video: upload, attach from Media or an HLS address, captions.',
  context: ({ input }) => ({ contentItemId: input.contentItemId, assetId: null, pending: null, choices: [], error: null, notice: null }),
  // The small forms and the leave question live as long as the panel (machines/media-video-forms.machine.ts).
  invoke: { id: 'forms', src: 'forms' },
  on: {
    'video.uploading': { actions: { type: 'tellForms', params: ({ event }) => event } },
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'Which video the item has is read.',
      invoke: {
        id: 'loadItemVideo',
        src: 'loadItemVideo',
        input: ({ context }) => ({ contentItemId: context.contentItemId }),
        onDone: { target: 'showing', actions: { type: 'takeAssetId', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ITEM_VIDEO_MESSAGES.loadFailed }) } },
      },
    },
    failed: {
      description: 'The item\'s video could not be read: the message and Try again.',
      on: { 'video.reload': { target: 'loading', actions: 'clearMessages' } },
    },
    showing: {
      description: 'The video (the `asset` child: player, upload, status) and the writer\'s controls.',
      invoke: {
        id: 'asset',
        src: 'asset',
        input: ({ context }) => ({ contentItemId: context.contentItemId, assetId: context.assetId }),
      },
      on: {
        // The server attaches the upload to the item once its last byte arrives (the item's version then moves).
        'video.created': { actions: { type: 'takeAssetId', params: ({ event }) => event } },
        // The upload's last byte arrived: the item is saved with it (a new item's video is already attached by
        // the server, then nothing changes; a replacement is attached here, with its History revision), and the
        // page's editor and History follow the item's version.
        'video.uploaded': { target: '.attaching', actions: { type: 'takePending', params: ({ event }) => event } },
      },
      initial: 'idle',
      states: {
        idle: {
          description: 'Upload, Choose from Media, an HLS address (encoding off), captions.',
          on: {
            'video.pick': { target: 'picking', actions: 'clearMessages' },
            'video.external': { target: 'addingExternal', actions: 'clearMessages' },
            'captions.add': { guard: 'hasAssetId', target: 'savingCaptions', actions: 'clearMessages' },
          },
        },
        picking: {
          description: 'The site\'s videos are read to choose from.',
          invoke: {
            id: 'loadChoices',
            src: 'loadChoices',
            onDone: { target: 'choosing', actions: { type: 'takeChoices', params: ({ event }) => ({ choices: event.output }) } },
            onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ITEM_VIDEO_MESSAGES.choicesFailed }) } },
          },
        },
        choosing: {
          description: 'A list of the site\'s videos: Attach one, or Cancel.',
          on: {
            'video.attach': { target: 'attaching', actions: { type: 'takePending', params: ({ event }) => event } },
            'video.pickCancel': { target: 'idle' },
          },
        },
        addingExternal: {
          description: 'An existing HLS address becomes a video of the site (encoding turned off).',
          invoke: {
            id: 'addExternal',
            src: 'addExternal',
            input: ({ event }) => (event.type === 'video.external' ? { title: event.title, hlsUrl: event.hlsUrl } : { title: '', hlsUrl: '' }),
            onDone: { target: 'attaching', actions: [{ type: 'takePending', params: ({ event }) => ({ assetId: event.output.id }) }, { type: 'clearForm', params: { form: 'external' as const } }] },
            onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ITEM_VIDEO_MESSAGES.externalFailed }) } },
          },
        },
        attaching: {
          description: 'The item is saved with the chosen video (a History revision; the old one stays in Media).',
          invoke: {
            id: 'attachVideo',
            src: 'attachVideo',
            input: ({ context }) => ({ contentItemId: context.contentItemId, assetId: context.pending }),
            onDone: {
              target: '#mediaItemVideo.loading',
              actions: { type: 'announceAttached', params: ({ context, event }) => ({ assetId: context.pending, version: event.output.version }) },
            },
            onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ITEM_VIDEO_MESSAGES.attachFailed }) } },
          },
        },
        savingCaptions: {
          description: 'A WebVTT or SRT file is stored for one language (SRT converted by the server).',
          invoke: {
            id: 'addCaptions',
            src: 'addCaptions',
            input: ({ context, event }) => (event.type === 'captions.add'
              ? { assetId: context.assetId ?? '', language: event.language, label: event.label, format: event.format, text: event.text }
              : { assetId: context.assetId ?? '', language: '', label: '', format: 'vtt' as const, text: '' }),
            onDone: {
              target: 'idle',
              actions: [
                'refreshAsset',
                { type: 'setNotice', params: ({ event }) => ({ notice: ITEM_VIDEO_MESSAGES.captionsSaved(event.output.label) }) },
                { type: 'clearForm', params: { form: 'captions' as const } },
              ],
            },
            onError: { target: 'idle', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: ITEM_VIDEO_MESSAGES.captionsFailed }) } },
          },
        },
      },
    },
  },
});

export type ItemVideoMachine = typeof itemVideoMachine;
export type ItemVideoRef = ActorRefFrom<ItemVideoMachine>;
type Snapshot = SnapshotFrom<ItemVideoMachine>;

/** The video's lifecycle child while the panel shows it (undefined while loading or failed). */
export const selectItemVideoAsset = (s: Snapshot) => s.children.asset;
/** The panel's small forms and its leave question (always there while the panel runs). */
export const selectItemVideoForms = (s: Snapshot) => s.children.forms;
export const selectItemVideoError = (s: Snapshot) => s.context.error;
export const selectItemVideoNotice = (s: Snapshot) => s.context.notice;
export const selectItemVideoChoices = (s: Snapshot) => s.context.choices;
export const selectItemVideoBusy = (s: Snapshot) =>
  s.matches({ showing: 'picking' }) || s.matches({ showing: 'attaching' }) || s.matches({ showing: 'addingExternal' }) || s.matches({ showing: 'savingCaptions' });
export const selectIsChoosing = (s: Snapshot) => s.matches({ showing: 'choosing' });
export const selectItemVideoPhase = (s: Snapshot): 'loading' | 'failed' | 'showing' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'showing';

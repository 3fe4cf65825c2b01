/**
 * The console's preview player (issue 40): the playback address read (a short-lived token when the
 * video is signed), then hls.js attached to the page's <video> (the `engine`, loaded lazily by the
 * Media wiring file, never in the sign-in page's first load). It plays from the first rendition,
 * follows the rendition playing, lets the person pick one (or Auto), and reports itself as the apps'
 * players do (start, a heartbeat every PREVIEW_HEARTBEAT_MS while playing, end) through the provided
 * `report` action, under the player name 'CMS Tools preview'.
 *
 *   loading → waitingSurface (until the view gives its <video>) → attached.paused ⇄ attached.playing ⇄ attached.rebuffering
 *
 * It measures itself as a player does: the startup time (play asked → first frames) in the start, the
 * rebuffers (stalls once playing) and their time in the heartbeats and the end. Scrubbing shows the
 * storyboard's thumbnail of the time (the WebVTT with #xywh read once, `loadStoryboard`).
 *   loading | attached ↘ failed (Try again)
 */
import { assign, fromCallback, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { MediaPlayback } from '../common/media-contract';
import { failureMessage } from './failure-message';
import { machineTypes } from './machine-types';
import { storyboardCueAt, type StoryboardCue } from './media-storyboard';
import { providedLater } from './unprovided';

export const PREVIEW_PLAYER_NAME = 'CMS Tools preview';
export const PREVIEW_HEARTBEAT_MS = 10_000;

export const PLAYER_MESSAGES = {
  loadFailed: 'The video\'s playback address could not be read. Try again.',
} as const;

export interface PlayerLevel { height: number; bitrate: number }

export type EngineEvent =
  | { type: 'engine.levels'; levels: PlayerLevel[] }
  | { type: 'engine.level'; index: number }
  | { type: 'engine.time'; currentTime: number; duration: number }
  /** The video was asked to play (its `play` event); `at`: ms on the page's clock (performance.now). */
  | { type: 'engine.playRequested'; at: number }
  /** Frames are moving (its `playing` event). */
  | { type: 'engine.playing'; at: number }
  /** Playback stopped for data (its `waiting` event): a rebuffer once playing. */
  | { type: 'engine.waiting'; at: number }
  | { type: 'engine.paused'; at: number }
  | { type: 'engine.failed'; message: string };

/** What the machine tells its engine: a rendition by index, or -1 for Auto. */
export type EngineCommand = { type: 'engine.setLevel'; index: number } | { type: 'engine.seek'; seconds: number };

export interface EngineInput { surface: object; hlsUrl: string }

export type PlayerEvent =
  | { type: 'player.mount'; surface: object }
  | { type: 'player.rendition'; index: number }
  | { type: 'player.retry' }
  | { type: 'player.leave' }
  /** The person drags the preview's scrubber: the storyboard's thumbnail of that time shows, the video seeks. */
  | { type: 'player.scrub'; seconds: number }
  | { type: 'player.scrubEnd' }
  | EngineEvent;

export interface PlayerInput { assetId: string }

export interface PlayerContext extends PlayerInput {
  surface: object | null;
  playback: MediaPlayback | null;
  levels: PlayerLevel[];
  /** The rendition playing (-1 before the engine says). */
  level: number;
  /** The rendition the person chose, -1 for Auto. */
  chosen: number;
  currentTime: number;
  duration: number;
  error: string | null;
  /** A start was reported (the end follows it). */
  started: boolean;
  /** When play was asked for (ms, the page's clock), until the first frames: the startup time. */
  requestedAt: number | null;
  startupMs: number;
  /** Stalls once playing, and their time (ms); `stalledAt` while one lasts. */
  rebufferCount: number;
  rebufferMs: number;
  stalledAt: number | null;
  /** The storyboard's thumbnails (none until read, or when the video has none). */
  storyboard: StoryboardCue[];
  /** The time being scrubbed to, null when not scrubbing. */
  scrubbing: number | null;
}

export interface PlayerReport {
  kind: 'start' | 'heartbeat' | 'end'; assetId: string; position: number; duration: number; bitrate: number | null;
  /** From play asked to the first frames (ms). */
  startupMs: number;
  rebufferCount: number;
  rebufferMs: number;
}

export const mediaPlayerMachine = setup({
  types: machineTypes<{
    input: PlayerInput; context: PlayerContext; events: PlayerEvent;
    children: { loadPlayback: 'loadPlayback'; engine: 'engine'; loadStoryboard: 'loadStoryboard' };
  }>(),
  actors: {
    loadPlayback: providedLater<MediaPlayback, { assetId: string }>('loadPlayback'),
    /** The storyboard's cues ([] when the video has none). */
    loadStoryboard: providedLater<StoryboardCue[], { url: string | null }>('loadStoryboard'),
    engine: fromCallback<EngineCommand, EngineInput>(() => undefined),
  },
  actions: {
    takePlayback: assign((_, params: { playback: MediaPlayback }) => ({ playback: params.playback, error: null })),
    takeSurface: assign((_, params: { surface: object }) => ({ surface: params.surface })),
    takeLevels: assign((_, params: { levels: PlayerLevel[] }) => ({ levels: params.levels })),
    takeLevel: assign((_, params: { index: number }) => ({ level: params.index })),
    takeTime: assign((_, params: { currentTime: number; duration: number }) => ({ currentTime: params.currentTime, duration: params.duration })),
    choose: assign((_, params: { index: number }) => ({ chosen: params.index })),
    tellEngine: sendTo('engine', (_, params: { index: number }) => ({ type: 'engine.setLevel' as const, index: params.index })),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({ error: failureMessage(params.error, params.fallback) })),
    clearError: assign({ error: null }),
    markStarted: assign({ started: true }),
    /** Sends a player event to /v1/events (provided by the wiring file; nothing by default); null: nothing to report. */
    report: (_, params: PlayerReport | null) => { void params; },
    markEnded: assign({ started: false }),
    takeRequest: assign(({ context }, params: { at: number }) => ({ requestedAt: context.requestedAt ?? params.at })),
    takeStartup: assign(({ context }, params: { at: number }) => ({
      startupMs: context.requestedAt === null ? 0 : Math.max(0, Math.round(params.at - context.requestedAt)), requestedAt: null,
    })),
    stall: assign((_, params: { at: number }) => ({ stalledAt: params.at })),
    unstall: assign(({ context }, params: { at: number }) => ({
      rebufferCount: context.rebufferCount + 1,
      rebufferMs: context.rebufferMs + (context.stalledAt === null ? 0 : Math.max(0, Math.round(params.at - context.stalledAt))),
      stalledAt: null,
    })),
    takeStoryboard: assign((_, params: { cues: StoryboardCue[] }) => ({ storyboard: params.cues })),
    scrub: assign((_, params: { seconds: number }) => ({ scrubbing: params.seconds })),
    endScrub: assign({ scrubbing: null }),
    seek: sendTo('engine', (_, params: { seconds: number }) => ({ type: 'engine.seek' as const, seconds: params.seconds })),
  },
  guards: {
    hasSurface: ({ context }) => context.surface !== null,
    isStarted: ({ context }) => context.started,
  },
  delays: { heartbeat: PREVIEW_HEARTBEAT_MS },
}).createMachine({
  id: 'mediaPlayer',
  description: 'The preview: playback address, hls.js on the page\'s video, renditions, player events.',
  context: ({ input }) => ({
    assetId: input.assetId, surface: null, playback: null, levels: [], level: -1, chosen: -1, currentTime: 0, duration: 0, error: null, started: false,
    requestedAt: null, startupMs: 0, rebufferCount: 0, rebufferMs: 0, stalledAt: null, storyboard: [], scrubbing: null,
  }),
  initial: 'loading',
  on: {
    'player.mount': { actions: { type: 'takeSurface', params: ({ event }) => event } },
    // The page goes (the view's unmount): a started session reports its end as the player leaves.
    'player.leave': { target: '.left' },
  },
  states: {
    loading: {
      description: 'The playback address (and its token) is read.',
      invoke: {
        id: 'loadPlayback',
        src: 'loadPlayback',
        input: ({ context }) => ({ assetId: context.assetId }),
        onDone: { target: 'waitingSurface', actions: { type: 'takePlayback', params: ({ event }) => ({ playback: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error, fallback: PLAYER_MESSAGES.loadFailed }) } },
      },
    },
    waitingSurface: {
      description: 'Until the page has drawn its video element.',
      always: { guard: 'hasSurface', target: 'attached' },
      on: { 'player.mount': { target: 'attached', actions: { type: 'takeSurface', params: ({ event }) => event } } },
    },
    attached: {
      description: 'hls.js plays the master playlist on the video; renditions known and switchable.',
      invoke: [
        {
          id: 'engine',
          src: 'engine',
          input: ({ context }) => ({ surface: context.surface ?? {}, hlsUrl: context.playback?.previewUrl ?? '' }),
        },
        {
          id: 'loadStoryboard',
          src: 'loadStoryboard',
          input: ({ context }) => ({ url: context.playback?.storyboardUrl ?? null }),
          onDone: { actions: { type: 'takeStoryboard', params: ({ event }) => ({ cues: event.output }) } },
          // No storyboard read: scrubbing shows no thumbnail, the preview plays on.
        },
      ],
      // Leaving the player after a start: the session's end is reported.
      exit: [{ type: 'report', params: ({ context }) => (context.started ? reportOf('end', context) : null) }, 'markEnded'],
      on: {
        'engine.levels': { actions: { type: 'takeLevels', params: ({ event }) => event } },
        'engine.level': { actions: { type: 'takeLevel', params: ({ event }) => event } },
        'engine.time': { actions: { type: 'takeTime', params: ({ event }) => event } },
        'player.rendition': { actions: [{ type: 'choose', params: ({ event }) => event }, { type: 'tellEngine', params: ({ event }) => event }] },
        'player.scrub': { actions: [{ type: 'scrub', params: ({ event }) => event }, { type: 'seek', params: ({ event }) => event }] },
        'player.scrubEnd': { actions: 'endScrub' },
        'engine.playRequested': { actions: { type: 'takeRequest', params: ({ event }) => event } },
        'engine.failed': { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: new Error(event.message), fallback: event.message }) } },
      },
      initial: 'paused',
      states: {
        paused: {
          description: 'Not playing (before the first play, paused, ended).',
          on: {
            'engine.playing': [
              { guard: 'isStarted', target: 'playing' },
              {
                target: 'playing',
                actions: ['markStarted', { type: 'takeStartup', params: ({ event }) => event }, { type: 'report', params: ({ context }) => reportOf('start', context) }],
              },
            ],
          },
        },
        playing: {
          description: 'Playing: a heartbeat every PREVIEW_HEARTBEAT_MS.',
          after: { heartbeat: { target: 'playing', reenter: true, actions: { type: 'report', params: ({ context }) => reportOf('heartbeat', context) } } },
          on: {
            'engine.paused': { target: 'paused' },
            'engine.waiting': { target: 'rebuffering', actions: { type: 'stall', params: ({ event }) => event } },
          },
        },
        rebuffering: {
          description: 'Stopped for data while playing: counted as a rebuffer with its time when frames move again (or it is paused).',
          on: {
            'engine.playing': { target: 'playing', actions: { type: 'unstall', params: ({ event }) => event } },
            'engine.paused': { target: 'paused', actions: { type: 'unstall', params: ({ event }) => event } },
          },
        },
      },
    },
    failed: {
      description: 'The address could not be read or the stream failed: the message and Try again.',
      on: { 'player.retry': { target: 'loading', actions: 'clearError' } },
    },
    left: {
      description: 'The page was left: nothing plays, nothing more is reported.',
      type: 'final',
    },
  },
});

function reportOf(kind: PlayerReport['kind'], context: PlayerContext): PlayerReport {
  return {
    kind, assetId: context.assetId, position: context.currentTime, duration: context.duration, bitrate: context.levels[context.level]?.bitrate ?? null,
    startupMs: context.startupMs, rebufferCount: context.rebufferCount, rebufferMs: context.rebufferMs,
  };
}

export type MediaPlayerMachine = typeof mediaPlayerMachine;
export type MediaPlayerRef = ActorRefFrom<MediaPlayerMachine>;
type Snapshot = SnapshotFrom<MediaPlayerMachine>;

const PLAYER_PHASES = ['loading', 'waitingSurface', 'attached', 'failed', 'left'] as const;
export const selectPlayerPhase = (s: Snapshot): (typeof PLAYER_PHASES)[number] => PLAYER_PHASES.find((phase) => s.matches(phase)) ?? 'left';
export const selectPlayerLevels = (s: Snapshot) => s.context.levels;
export const selectPlayerLevel = (s: Snapshot) => s.context.level;
export const selectPlayerChosen = (s: Snapshot) => s.context.chosen;
export const selectPlayerError = (s: Snapshot) => s.context.error;
export const selectPlayerPlayback = (s: Snapshot) => s.context.playback;
export const selectPlayerTime = (s: Snapshot) => ({ currentTime: s.context.currentTime, duration: s.context.duration });
/** The thumbnail of the time being scrubbed to (null when not scrubbing or without a storyboard). */
export const selectScrubThumbnail = (s: Snapshot) => (s.context.scrubbing === null ? null : storyboardCueAt(s.context.storyboard, s.context.scrubbing));
export const selectScrubbing = (s: Snapshot) => s.context.scrubbing;
export const selectPlayerQuality = (s: Snapshot) => ({ startupMs: s.context.startupMs, rebufferCount: s.context.rebufferCount, rebufferMs: s.context.rebufferMs });

import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, waitFor } from 'xstate';
import {
  mediaPlayerMachine, PLAYER_MESSAGES, PREVIEW_HEARTBEAT_MS, selectPlayerChosen, selectPlayerError, selectPlayerLevel, selectPlayerLevels,
  selectPlayerPhase, selectPlayerPlayback, selectPlayerQuality, selectPlayerTime, selectScrubThumbnail, type EngineCommand, type EngineEvent, type EngineInput, type PlayerReport,
} from './media-player.machine';
import { parseStoryboard } from './media-storyboard';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { mediaPlayback } from './test-harness/media-fixtures';

describe('media player machine', () => {
  it('attaches the engine to the page\'s video with the playback address, follows renditions and time, and reports start, heartbeats and end', async () => {
    const clock = new SimulatedClock();
    const commands: EngineCommand[] = [];
    let engineInput: EngineInput | undefined;
    let tell: (event: EngineEvent) => void = () => {};
    const reports: (PlayerReport | null)[] = [];
    const logic = mediaPlayerMachine.provide({
      actors: {
        loadPlayback: fakeActor(() => mediaPlayback()),
        loadStoryboard: fakeActor(() => []),
        engine: fromCallback<EngineCommand, EngineInput>(({ input, sendBack, receive }) => {
          engineInput = input;
          tell = sendBack;
          receive((command) => commands.push(command));
        }),
      },
      actions: { report: (_, params) => { reports.push(params); } },
    });
    const surface = { kind: 'video element' };
    const actor = createActor(logic, { input: { assetId: 'asset-1' }, clock }).start();
    expect(selectPlayerPhase(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (s) => s.matches('waitingSurface'));
    expect(selectPlayerPlayback(actor.getSnapshot())?.previewUrl).toBe('/v2.0/media/play/tok/asset-1/master.m3u8');
    actor.send({ type: 'player.mount', surface });
    expect(selectPlayerPhase(actor.getSnapshot())).toBe('attached');
    expect(engineInput).toEqual({ surface, hlsUrl: '/v2.0/media/play/tok/asset-1/master.m3u8' });
    tell({ type: 'engine.levels', levels: [{ height: 240, bitrate: 400_000 }, { height: 1080, bitrate: 5_000_000 }] });
    tell({ type: 'engine.level', index: 0 });
    tell({ type: 'engine.time', currentTime: 1.5, duration: 10 });
    expect(selectPlayerLevels(actor.getSnapshot())).toHaveLength(2);
    expect(selectPlayerLevel(actor.getSnapshot())).toBe(0);
    expect(selectPlayerTime(actor.getSnapshot())).toEqual({ currentTime: 1.5, duration: 10 });
    tell({ type: 'engine.playRequested', at: 1000 });
    tell({ type: 'engine.playing', at: 1420 });
    expect(reports).toEqual([{ kind: 'start', assetId: 'asset-1', position: 1.5, duration: 10, bitrate: 400_000, startupMs: 420, rebufferCount: 0, rebufferMs: 0 }]);
    clock.increment(PREVIEW_HEARTBEAT_MS);
    clock.increment(PREVIEW_HEARTBEAT_MS);
    expect(reports.map((r) => r?.kind)).toEqual(['start', 'heartbeat', 'heartbeat']);
    actor.send({ type: 'player.rendition', index: 1 });
    expect(commands).toEqual([{ type: 'engine.setLevel', index: 1 }]);
    expect(selectPlayerChosen(actor.getSnapshot())).toBe(1);
    tell({ type: 'engine.paused', at: 30_000 });
    clock.increment(PREVIEW_HEARTBEAT_MS);
    tell({ type: 'engine.playing', at: 41_000 });
    // A second play is the same session: no second start.
    expect(reports.map((r) => r?.kind)).toEqual(['start', 'heartbeat', 'heartbeat']);
    actor.send({ type: 'player.leave' });
    expect(selectPlayerPhase(actor.getSnapshot())).toBe('left');
    expect(reports.at(-1)?.kind).toBe('end');
  });

  it('a stream that fails shows its words; Try again reads the address again; a surface known early attaches at once', async () => {
    let fail = true;
    let tell: (event: EngineEvent) => void = () => {};
    const reports: (PlayerReport | null)[] = [];
    const logic = mediaPlayerMachine.provide({
      actors: {
        loadPlayback: fakeActor(() => { if (fail) throw Object.assign(new Error('down'), { status: 0 }); return mediaPlayback(); }),
        engine: fromCallback<EngineCommand, EngineInput>(({ sendBack }) => { tell = sendBack; }),
        loadStoryboard: fakeActor(() => []),
      },
      actions: { report: (_, params) => { reports.push(params); } },
    });
    const actor = createActor(logic, { input: { assetId: 'asset-1' } }).start();
    actor.send({ type: 'player.mount', surface: {} });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectPlayerError(actor.getSnapshot())).toBe(PLAYER_MESSAGES.loadFailed);
    fail = false;
    actor.send({ type: 'player.retry' });
    await waitFor(actor, (s) => s.matches('attached'));
    tell({ type: 'engine.failed', message: 'The stream could not be played (manifest load error).' });
    expect(selectPlayerError(actor.getSnapshot())).toBe('The stream could not be played (manifest load error).');
    // Never started: leaving reports nothing.
    expect(reports).toEqual([null]);
  });
});

describe('media player machine: the preview measures itself and scrubs with the storyboard', () => {
  it('reports the real startup time, then each stall once playing as a rebuffer with its time (heartbeat and end carry them)', async () => {
    const clock = new SimulatedClock();
    let tell: (event: EngineEvent) => void = () => {};
    const reports: PlayerReport[] = [];
    const logic = mediaPlayerMachine.provide({
      actors: {
        loadPlayback: fakeActor(() => mediaPlayback()), loadStoryboard: fakeActor(() => []),
        engine: fromCallback<EngineCommand, EngineInput>(({ sendBack }) => { tell = sendBack; }),
      },
      actions: { report: (_, params) => { if (params) reports.push(params); } },
    });
    const actor = createActor(logic, { input: { assetId: 'asset-1' }, clock }).start();
    actor.send({ type: 'player.mount', surface: {} });
    await waitFor(actor, (s) => s.matches('attached'));
    // A stall before the first frames is the startup, not a rebuffer.
    tell({ type: 'engine.playRequested', at: 5000 });
    tell({ type: 'engine.waiting', at: 5100 });
    tell({ type: 'engine.playing', at: 5750 });
    expect(reports.map((r) => [r.kind, r.startupMs, r.rebufferCount, r.rebufferMs])).toEqual([['start', 750, 0, 0]]);
    tell({ type: 'engine.waiting', at: 8000 });
    expect(actor.getSnapshot().matches({ attached: 'rebuffering' })).toBe(true);
    tell({ type: 'engine.playing', at: 8300 });
    tell({ type: 'engine.waiting', at: 9000 });
    tell({ type: 'engine.paused', at: 9200 });
    expect(selectPlayerQuality(actor.getSnapshot())).toEqual({ startupMs: 750, rebufferCount: 2, rebufferMs: 500 });
    tell({ type: 'engine.playing', at: 10_000 });
    clock.increment(PREVIEW_HEARTBEAT_MS);
    actor.send({ type: 'player.leave' });
    expect(reports.map((r) => [r.kind, r.rebufferCount, r.rebufferMs])).toEqual([['start', 0, 0], ['heartbeat', 2, 500], ['end', 2, 500]]);
  });

  it('scrubbing shows the storyboard\'s thumbnail of that time and seeks the video; letting go hides it', async () => {
    const commands: EngineCommand[] = [];
    const cues = parseStoryboard('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nstoryboard.jpg#xywh=0,0,160,90\n\n00:00:02.000 --> 00:00:04.000\nstoryboard.jpg#xywh=160,0,160,90\n',
      '/v2.0/media/play/tok/asset-1/storyboard.vtt');
    let asked: { url: string | null } | undefined;
    const logic = mediaPlayerMachine.provide({
      actors: {
        loadPlayback: fakeActor(() => mediaPlayback({ storyboardUrl: '/v2.0/media/play/tok/asset-1/storyboard.vtt' })),
        loadStoryboard: fakeActor((input: { url: string | null }) => { asked = input; return cues; }),
        engine: fromCallback<EngineCommand, EngineInput>(({ receive }) => { receive((command) => commands.push(command)); }),
      },
    });
    const actor = createActor(logic, { input: { assetId: 'asset-1' } }).start();
    actor.send({ type: 'player.mount', surface: {} });
    await waitFor(actor, (s) => s.context.storyboard.length === 2);
    expect(asked).toEqual({ url: '/v2.0/media/play/tok/asset-1/storyboard.vtt' });
    expect(selectScrubThumbnail(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'player.scrub', seconds: 2.5 });
    expect(selectScrubThumbnail(actor.getSnapshot())).toEqual({ start: 2, end: 4, image: '/v2.0/media/play/tok/asset-1/storyboard.jpg', x: 160, y: 0, width: 160, height: 90 });
    expect(commands).toEqual([{ type: 'engine.seek', seconds: 2.5 }]);
    actor.send({ type: 'player.scrubEnd' });
    expect(selectScrubThumbnail(actor.getSnapshot())).toBeNull();
  });
});

describe('media player machine: every path', () => {
  const events = [
    { type: 'player.mount', surface: {} }, { type: 'player.rendition', index: 1 }, { type: 'player.retry' }, { type: 'player.leave' },
    { type: 'engine.levels', levels: [] }, { type: 'engine.level', index: 0 }, { type: 'engine.time', currentTime: 1, duration: 2 },
    { type: 'engine.playing', at: 2 }, { type: 'engine.paused', at: 3 }, { type: 'engine.failed', message: 'x' },
    { type: 'engine.playRequested', at: 1 }, { type: 'engine.waiting', at: 4 }, { type: 'player.scrub', seconds: 3 }, { type: 'player.scrubEnd' },
    { type: 'xstate.done.actor.loadStoryboard', output: [] },
    { type: 'xstate.done.actor.loadPlayback', output: mediaPlayback() }, { type: 'xstate.error.actor.loadPlayback', error: new Error('x') },
    { type: 'xstate.after.heartbeat.mediaPlayer.attached.playing' },
  ];
  itReachesEveryStateAndTransition(mediaPlayerMachine, {
    events,
    input: { assetId: 'asset-1' },
    serializeState: (s) => JSON.stringify([s.value, s.context.surface !== null, s.context.started]),
    logic: mediaPlayerMachine.provide({ actors: { loadPlayback: pendingActor(), loadStoryboard: pendingActor(), engine: fromCallback(() => undefined) } }),
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor, type AnyMachineSnapshot } from 'xstate';
import {
  MEDIA_ASSET_MESSAGES, MEDIA_POLL_MS, mediaAssetMachine, selectCanChoose, selectIsConfirmingCancel, selectMediaAsset, selectMediaError,
  selectMediaPhase, selectUploadFigures, type MediaAssetEmitted, type MediaUploadRequest,
} from './media-asset.machine';
import type { MediaAsset } from '../common/media-contract';
import { createCoverage, mergeReports } from './test-harness/coverage';
import { coveringPaths, drivePath, pathTitle } from './test-harness/paths';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { mediaAsset } from './test-harness/media-fixtures';

const file = new Blob(['video bytes']);
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

describe('media asset machine', () => {
  it('uploads a chosen file (progress with speed and time left), then follows the server through preparing, viewable and ready', async () => {
    const clock = new SimulatedClock();
    let request: MediaUploadRequest | undefined;
    let finish: (value: { assetId: string }) => void = () => {};
    const statuses: MediaAsset['status'][] = ['preparing', 'viewable', 'ready'];
    const logic = mediaAssetMachine.provide({
      actors: {
        upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise((resolve) => { finish = resolve; }); }),
        loadAsset: fakeActor(() => mediaAsset({ status: statuses.shift() ?? 'ready' })),
        retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    const actor = createActor(logic, { input: { contentItemId: 'item-1', assetId: null }, clock }).start();
    const seen: MediaAssetEmitted[] = [];
    actor.on('media.status', (event) => seen.push(event));
    expect(selectMediaPhase(actor.getSnapshot())).toBe('empty');
    expect(selectCanChoose(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'media.choose', file, fileName: 'clip.mp4' });
    expect(selectMediaPhase(actor.getSnapshot())).toBe('uploading');
    expect(selectCanChoose(actor.getSnapshot())).toBe(false);
    expect(selectUploadFigures(actor.getSnapshot())).toEqual({ percent: 0, bytesPerSecond: null, secondsLeft: null });
    await waitFor(actor, () => request !== undefined);
    expect(request).toMatchObject({ file, fileName: 'clip.mp4', contentItemId: 'item-1' });
    request?.progress.send({ type: 'upload.created', assetId: 'asset-1' });
    expect(actor.getSnapshot().context.assetId).toBe('asset-1');
    request?.progress.send({ type: 'upload.progressed', loaded: 1000, total: 10_000, at: 1000 });
    expect(selectUploadFigures(actor.getSnapshot())).toEqual({ percent: 10, bytesPerSecond: null, secondsLeft: null });
    request?.progress.send({ type: 'upload.progressed', loaded: 3000, total: 10_000, at: 2000 });
    // 2000 bytes in one second: 7000 left take 4 s (rounded up).
    expect(selectUploadFigures(actor.getSnapshot())).toEqual({ percent: 30, bytesPerSecond: 2000, secondsLeft: 4 });
    finish({ assetId: 'asset-1' });
    await waitFor(actor, (s) => s.matches('preparing'));
    clock.increment(MEDIA_POLL_MS);
    await waitFor(actor, (s) => s.matches({ preparing: 'waiting' }) && s.context.asset !== null);
    clock.increment(MEDIA_POLL_MS);
    await waitFor(actor, (s) => s.matches('viewable'));
    clock.increment(MEDIA_POLL_MS);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectMediaAsset(actor.getSnapshot())?.status).toBe('ready');
    expect(seen.map((e) => e.status)).toEqual(['preparing', 'viewable', 'ready']);
    expect(actor.getSnapshot().context.file).toBeNull();
  });

  it('follows an attached video: errored shows the server\'s words; Retry asks the server to encode again', async () => {
    const clock = new SimulatedClock();
    const logic = mediaAssetMachine.provide({
      actors: {
        upload: pendingActor(),
        loadAsset: fakeActor(() => mediaAsset({ status: 'errored', errorMessage: 'Encoding stopped at 40 %: out of memory.' })),
        retryAsset: fakeActor(() => mediaAsset({ status: 'preparing' })), cancelAsset: pendingActor(),
      },
    });
    const actor = createActor(logic, { input: { contentItemId: 'item-1', assetId: 'asset-1' }, clock }).start();
    await waitFor(actor, (s) => s.matches('errored'));
    expect(selectMediaError(actor.getSnapshot())).toBe('Encoding stopped at 40 %: out of memory.');
    actor.send({ type: 'media.retry' });
    await waitFor(actor, (s) => s.matches('preparing'));
    expect(selectMediaError(actor.getSnapshot())).toBeNull();
  });

  it('a dropped upload keeps the file: Retry sends it again (tus resumes); a refused one shows the server\'s message', async () => {
    let calls = 0;
    const logic = mediaAssetMachine.provide({
      actors: {
        upload: fromPromise<{ assetId: string }, MediaUploadRequest>(async () => {
          calls += 1;
          if (calls === 1) throw refusal(0, 'Failed to fetch');
          if (calls === 2) throw refusal(400, 'Encoding is turned off for this site.');
          return { assetId: 'asset-9' };
        }),
        loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    const actor = createActor(logic, { input: { contentItemId: null, assetId: null } }).start();
    actor.send({ type: 'media.choose', file, fileName: 'clip.mp4' });
    await waitFor(actor, (s) => s.matches('errored'));
    expect(selectMediaError(actor.getSnapshot())).toBe(MEDIA_ASSET_MESSAGES.uploadFailed);
    actor.send({ type: 'media.retry' });
    await waitFor(actor, (s) => s.matches('errored') && s.context.error !== MEDIA_ASSET_MESSAGES.uploadFailed);
    expect(selectMediaError(actor.getSnapshot())).toBe('Encoding is turned off for this site.');
    actor.send({ type: 'media.retry' });
    await waitFor(actor, (s) => s.matches('preparing'));
    expect(actor.getSnapshot().context.assetId).toBe('asset-9');
  });

  it('Cancel asks first; Keep uploading goes on; confirmed, the upload stops (signal aborted) and the server is told', async () => {
    let aborted = false;
    let cancelled: string | null | undefined;
    const logic = mediaAssetMachine.provide({
      actors: {
        upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input, signal }) => new Promise((_, reject) => {
          input.progress.send({ type: 'upload.created', assetId: 'asset-3' });
          signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
        })),
        loadAsset: pendingActor(), retryAsset: pendingActor(),
        cancelAsset: fakeActor((input: { assetId: string | null }) => { cancelled = input.assetId; }),
      },
    });
    const actor = createActor(logic, { input: { contentItemId: null, assetId: null } }).start();
    actor.send({ type: 'media.choose', file, fileName: 'clip.mp4' });
    actor.send({ type: 'media.cancel' });
    expect(selectIsConfirmingCancel(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'media.cancelDismiss' });
    expect(actor.getSnapshot().matches({ uploading: 'sending' })).toBe(true);
    expect(aborted).toBe(false);
    actor.send({ type: 'media.cancel' });
    actor.send({ type: 'media.cancelConfirm' });
    expect(aborted).toBe(true);
    await waitFor(actor, (s) => s.matches('cancelled'));
    expect(cancelled).toBe('asset-3');
    expect(actor.getSnapshot().context.file).toBeNull();
  });

  it('an upload of an earlier page (reload) is interrupted: choosing the file again resumes it; a failed read offers Try again', async () => {
    let fail = true;
    const logic = mediaAssetMachine.provide({
      actors: {
        upload: pendingActor(),
        loadAsset: fakeActor(() => { if (fail) throw refusal(0, 'Failed to fetch'); return mediaAsset({ status: 'uploading', progress: 48 }); }),
        retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    const actor = createActor(logic, { input: { contentItemId: 'item-1', assetId: 'asset-1' } }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectMediaError(actor.getSnapshot())).toBe(MEDIA_ASSET_MESSAGES.loadFailed);
    fail = false;
    actor.send({ type: 'media.retry' });
    await waitFor(actor, (s) => s.matches('interrupted'));
    expect(selectMediaAsset(actor.getSnapshot())?.progress).toBe(48);
    actor.send({ type: 'media.choose', file, fileName: 'clip.mp4' });
    expect(selectMediaPhase(actor.getSnapshot())).toBe('uploading');
  });

  it('a file chosen while one is on its way is not taken', () => {
    const actor = createActor(mediaAssetMachine.provide({ actors: { upload: pendingActor(), loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor() } }), {
      input: { contentItemId: null, assetId: null },
    }).start();
    actor.send({ type: 'media.choose', file, fileName: 'a.mp4' });
    actor.send({ type: 'media.choose', file: new Blob(['other']), fileName: 'b.mp4' });
    expect(actor.getSnapshot().context.fileName).toBe('a.mp4');
  });
});

describe('media asset machine: every path', () => {
  const asset = (status: MediaAsset['status']) => mediaAsset({ status });
  const events = [
    { type: 'media.choose', file, fileName: 'clip.mp4' }, { type: 'media.cancel' }, { type: 'media.cancelConfirm' }, { type: 'media.cancelDismiss' },
    { type: 'media.retry' }, { type: 'media.refresh' },
    { type: 'upload.progressed', loaded: 1, total: 4, at: 1 }, { type: 'upload.created', assetId: 'asset-1' },
    { type: 'xstate.done.actor.upload', output: { assetId: 'asset-1' } }, { type: 'xstate.error.actor.upload', error: new Error('x') },
    ...(['ready', 'viewable', 'preparing', 'errored', 'cancelled', 'uploading'] as const).map((status) => ({ type: 'xstate.done.actor.loadAsset', output: asset(status) })),
    { type: 'xstate.error.actor.loadAsset', error: new Error('x') },
    { type: 'xstate.done.actor.retryAsset', output: asset('preparing') }, { type: 'xstate.error.actor.retryAsset', error: new Error('x') },
    { type: 'xstate.done.actor.cancelAsset' }, { type: 'xstate.error.actor.cancelAsset', error: new Error('x') },
    { type: 'xstate.after.poll.mediaAsset.preparing.waiting' }, { type: 'xstate.after.poll.mediaAsset.viewable.waiting' },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => JSON.stringify([snapshot.value, snapshot.context.file !== null, snapshot.context.asset?.status ?? null]);
  const logic = mediaAssetMachine.provide({ actors: { upload: pendingActor(), loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor() } });
  const inputs = [{ contentItemId: 'item-1', assetId: 'asset-1' }, { contentItemId: null, assetId: null }];
  const runs = inputs.map((input) => ({ input, paths: coveringPaths(mediaAssetMachine, { events, input, serializeState }) }));
  it.each(runs.flatMap(({ input, paths }) => paths.map((path) => [`${input.assetId ?? 'none'}: ${pathTitle(path)}`, input, path] as const)))('reaches %s', (_, input, path) => {
    expect(drivePath(logic, path, { input }).value).toEqual(path.state.value);
  });
  // With a video to follow and without one (the first state decides by the input): together every state and transition.
  it('covers every state and every transition of the machine', () => {
    const reports = runs.map(({ input, paths }) => {
      const coverage = createCoverage(mediaAssetMachine);
      for (const path of paths) drivePath(logic, path, { input, inspect: coverage.inspect });
      return coverage.report();
    });
    const merged = mergeReports(reports);
    expect(merged.states.missing).toEqual([]);
    expect(merged.transitions.missing).toEqual([]);
  });
});

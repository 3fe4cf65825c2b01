import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import {
  ARTWORK_PANEL_MESSAGES, artworkUploadMachine, selectArtworkError, selectArtworkPhase,
  selectUploadPercent, type ArtworkUploadEmitted, type SaveArtworkInput, type UploadArtworkPanelInput,
} from './artwork-upload.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const URL_A = `/v2.0/appcms/files/11111111-2222-4333-8444-555555555555/${'a'.repeat(64)}.png`;
/** A refusal as the API client throws it: the server's message and its HTTP status (0: unreachable). */
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });
const file = new Blob(['png'], { type: 'image/png' });

function start(upload: (input: { slot: string; file: Blob }) => unknown, save: (input: SaveArtworkInput) => unknown) {
  const uploadFn = vi.fn(upload);
  const saveFn = vi.fn(save);
  const actor = createActor(artworkUploadMachine.provide({ actors: { uploadArtwork: fakeActor(uploadFn), saveArtwork: fakeActor(saveFn) } }), {
    input: { id: 'item-1', slot: 'thumbnail' },
  });
  const saved: ArtworkUploadEmitted[] = [];
  actor.on('artwork.saved', (event) => saved.push(event));
  actor.start();
  return { actor, uploadFn, saveFn, saved };
}

describe('artwork upload machine', () => {
  it('uploads the chosen file, saves the item with its address and version, and tells the page the version moved', async () => {
    const { actor, uploadFn, saveFn, saved } = start(() => ({ url: URL_A, width: 640, height: 360 }), () => ({ version: 8 }));
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('idle');
    actor.send({ type: 'artwork.choose', file, version: 7 });
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('uploading');
    await waitFor(actor, (s) => s.matches('saved'));
    expect(uploadFn).toHaveBeenCalledWith({ slot: 'thumbnail', file, progress: actor });
    expect(saveFn).toHaveBeenCalledWith({ id: 'item-1', slot: 'thumbnail', url: URL_A, version: 7 });
    expect(saved).toEqual([{ type: 'artwork.saved', from: 7, to: 8 }]);
    expect(actor.getSnapshot().context).toMatchObject({ file: null, url: null, error: null });
  });

  it('a refused upload shows the server\'s message; Retry uploads the same file again with the page\'s version', async () => {
    let refuse = true;
    const { actor, uploadFn, saveFn } = start(() => {
      if (refuse) throw refusal(400, 'A thumbnail must be 16:9 (this image is 400 × 600 pixels).');
      return { url: URL_A };
    }, () => ({ version: 10 }));
    actor.send({ type: 'artwork.choose', file, version: 3 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectArtworkError(actor.getSnapshot())).toBe('A thumbnail must be 16:9 (this image is 400 × 600 pixels).');
    expect(saveFn).not.toHaveBeenCalled();
    refuse = false;
    actor.send({ type: 'artwork.retry', version: 9 });
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('uploading');
    expect(selectArtworkError(actor.getSnapshot())).toBeNull();
    await waitFor(actor, (s) => s.matches('saved'));
    expect(uploadFn).toHaveBeenCalledTimes(2);
    expect(saveFn).toHaveBeenCalledWith({ id: 'item-1', slot: 'thumbnail', url: URL_A, version: 9 });
  });

  it('a failed save keeps the uploaded address: Retry saves again without uploading', async () => {
    let refuse = true;
    const { actor, uploadFn, saveFn } = start(() => ({ url: URL_A }), () => {
      if (refuse) throw refusal(409, 'Someone else changed this item.');
      return { version: 5 };
    });
    actor.send({ type: 'artwork.choose', file, version: 3 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectArtworkError(actor.getSnapshot())).toBe('Someone else changed this item.');
    refuse = false;
    actor.send({ type: 'artwork.retry', version: 4 });
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('saving');
    await waitFor(actor, (s) => s.matches('saved'));
    expect(uploadFn).toHaveBeenCalledTimes(1);
    expect(saveFn).toHaveBeenLastCalledWith({ id: 'item-1', slot: 'thumbnail', url: URL_A, version: 4 });
  });

  it('an unreachable server reads as the panel\'s own message', async () => {
    const { actor } = start(() => { throw refusal(0, 'Failed to fetch'); }, () => ({ version: 2 }));
    actor.send({ type: 'artwork.choose', file, version: 1 });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectArtworkError(actor.getSnapshot())).toBe(ARTWORK_PANEL_MESSAGES.uploadFailed);
    const save = start(() => ({ url: URL_A }), () => { throw refusal(0, 'Failed to fetch'); });
    save.actor.send({ type: 'artwork.choose', file, version: 1 });
    await waitFor(save.actor, (s) => s.matches('failed'));
    expect(selectArtworkError(save.actor.getSnapshot())).toBe(ARTWORK_PANEL_MESSAGES.saveFailed);
  });

  it('Cancel while uploading stops the upload (its signal aborted) and nothing is saved', async () => {
    let aborted = false;
    const saveFn = vi.fn();
    const logic = artworkUploadMachine.provide({
      actors: {
        uploadArtwork: fromPromise<{ url: string }, UploadArtworkPanelInput>(({ signal }) => new Promise((_, reject) => {
          signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
        })),
        saveArtwork: fakeActor(saveFn),
      },
    });
    const actor = createActor(logic, { input: { id: 'item-1', slot: 'poster' } }).start();
    actor.send({ type: 'artwork.choose', file, version: 1 });
    actor.send({ type: 'artwork.cancel' });
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('idle');
    expect(aborted).toBe(true);
    expect(actor.getSnapshot().context.file).toBeNull();
    expect(saveFn).not.toHaveBeenCalled();
  });

  it('a choice while saving waits for the save', async () => {
    const actor = createActor(artworkUploadMachine.provide({ actors: { uploadArtwork: fakeActor(() => ({ url: URL_A })), saveArtwork: pendingActor() } }), {
      input: { id: 'item-1', slot: 'thumbnail' },
    }).start();
    actor.send({ type: 'artwork.choose', file, version: 1 });
    await waitFor(actor, (s) => s.matches('saving'));
    actor.send({ type: 'artwork.choose', file: new Blob(['other']), version: 1 });
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('saving');
    expect(actor.getSnapshot().context.file).toBe(file);
  });
});

describe('artwork upload machine: the upload\'s progress (issue 38)', () => {
  it('follows the bytes the upload reports, as a whole percent; Cancel still stops it', async () => {
    let report: UploadArtworkPanelInput['progress'] | undefined;
    let aborted = false;
    const logic = artworkUploadMachine.provide({
      actors: {
        uploadArtwork: fromPromise<{ url: string }, UploadArtworkPanelInput>(({ input, signal }) => new Promise((_, reject) => {
          report = input.progress;
          signal.addEventListener('abort', () => { aborted = true; reject(new Error('aborted')); });
        })),
        saveArtwork: pendingActor(),
      },
    });
    const actor = createActor(logic, { input: { id: 'item-1', slot: 'thumbnail' } }).start();
    expect(selectUploadPercent(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'artwork.choose', file, version: 1 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(0);
    await waitFor(actor, () => report !== undefined);
    report?.send({ type: 'upload.progressed', loaded: 512, total: 2048 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(25);
    report?.send({ type: 'upload.progressed', loaded: 2047, total: 2048 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(99);
    // A browser that cannot tell the total: no value.
    report?.send({ type: 'upload.progressed', loaded: 100, total: 0 });
    expect(selectUploadPercent(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'artwork.cancel' });
    expect(aborted).toBe(true);
    expect(selectArtworkPhase(actor.getSnapshot())).toBe('idle');
    expect(actor.getSnapshot().context.progress).toBeNull();
    expect(selectUploadPercent(actor.getSnapshot())).toBeNull();
  });

  it('a new choice or a Retry starts the count again; a report outside an upload changes nothing', () => {
    const actor = createActor(artworkUploadMachine.provide({ actors: { uploadArtwork: pendingActor(), saveArtwork: pendingActor() } }), {
      input: { id: 'item-1', slot: 'poster' },
    }).start();
    actor.send({ type: 'upload.progressed', loaded: 1, total: 2 });
    expect(actor.getSnapshot().context.progress).toBeNull();
    actor.send({ type: 'artwork.choose', file, version: 1 });
    actor.send({ type: 'upload.progressed', loaded: 1, total: 2 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(50);
    actor.send({ type: 'artwork.choose', file, version: 1 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(0);
  });
});

describe('artwork upload machine: every path', () => {
  const events = [
    { type: 'upload.progressed', loaded: 1, total: 4 },
    { type: 'artwork.choose', file, version: 1 }, { type: 'artwork.cancel' }, { type: 'artwork.retry', version: 2 },
    { type: 'xstate.done.actor.uploadArtwork', output: { url: URL_A } },
    { type: 'xstate.error.actor.uploadArtwork', error: new Error('refused') },
    { type: 'xstate.done.actor.saveArtwork', output: { version: 2 } },
    { type: 'xstate.error.actor.saveArtwork', error: new Error('refused') },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => JSON.stringify([snapshot.value, snapshot.context.url !== null]);
  itReachesEveryStateAndTransition(artworkUploadMachine, {
    events,
    serializeState,
    input: { id: 'item-1', slot: 'thumbnail' },
    logic: artworkUploadMachine.provide({ actors: { uploadArtwork: pendingActor(), saveArtwork: pendingActor() } }),
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  ITEM_VIDEO_MESSAGES, itemAssetMachine, itemVideoMachine, selectIsChoosing, selectItemVideoAsset, selectItemVideoBusy, selectItemVideoChoices,
  selectItemVideoError, selectItemVideoForms, selectItemVideoNotice, selectItemVideoPhase, type CaptionsRequest, type ItemVideoEmitted,
} from './media-item-video.machine';
import { selectIsConfirmingVideoLeave, selectVideoFormValues, selectVideoLeaveReason, VIDEO_FORM_DEFAULTS } from './media-video-forms.machine';
import type { MediaUploadRequest } from './media-asset.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { mediaAsset } from './test-harness/media-fixtures';

const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });
const idleAsset = itemAssetMachine.provide({ actors: { upload: pendingActor(), loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor() } });

function start(overrides: Record<string, unknown> = {}) {
  const attached: (string | null)[] = [];
  const logic = itemVideoMachine.provide({
    actors: {
      loadItemVideo: fakeActor(() => ({ assetId: null })),
      asset: idleAsset,
      loadChoices: fakeActor(() => [mediaAsset({ id: 'asset-7', title: 'Trailer' })]),
      attachVideo: fakeActor((input: { assetId: string | null }) => { attached.push(input.assetId); return { version: 5 }; }),
      addExternal: fakeActor(() => mediaAsset({ id: 'asset-x', source: 'external' })),
      addCaptions: fakeActor((input: CaptionsRequest) => ({ label: input.label })),
      ...overrides,
    },
  });
  const actor = createActor(logic, { input: { contentItemId: 'item-1' } });
  const told: ItemVideoEmitted[] = [];
  actor.on('video.attached', (event) => told.push(event));
  actor.start();
  return { actor, attached, told };
}

describe('item video panel machine', () => {
  it('reads the item\'s video and runs its lifecycle child with the item and the asset', async () => {
    const { actor } = start({ loadItemVideo: fakeActor(() => ({ assetId: 'asset-1' })) });
    await waitFor(actor, (s) => s.matches('showing'));
    expect(selectItemVideoPhase(actor.getSnapshot())).toBe('showing');
    expect(selectItemVideoAsset(actor.getSnapshot())?.getSnapshot().context).toMatchObject({ contentItemId: 'item-1', assetId: 'asset-1' });
  });

  it('attaches a video picked from Media, tells the page, and reads the item\'s video again', async () => {
    let reads = 0;
    const { actor, attached, told } = start({ loadItemVideo: fakeActor(() => { reads += 1; return { assetId: reads > 1 ? 'asset-7' : null }; }) });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'video.pick' });
    await waitFor(actor, selectIsChoosing);
    expect(selectItemVideoChoices(actor.getSnapshot()).map((a) => a.title)).toEqual(['Trailer']);
    actor.send({ type: 'video.attach', assetId: 'asset-7' });
    expect(selectItemVideoBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('showing') && s.context.assetId === 'asset-7');
    expect(attached).toEqual(['asset-7']);
    expect(told).toEqual([{ type: 'video.attached', assetId: 'asset-7', version: 5 }]);
  });

  it('the site without encoding attaches an HLS address: the new asset is created, then attached', async () => {
    const { actor, attached } = start();
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'video.external', title: 'Feed', hlsUrl: 'https://cdn.example/a/master.m3u8' });
    await waitFor(actor, () => attached.length > 0);
    expect(attached).toEqual(['asset-x']);
  });

  it('a new upload of the child is the item\'s video at once (the server attached it)', async () => {
    let request: MediaUploadRequest | undefined;
    const asset = itemAssetMachine.provide({
      actors: {
        upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise(() => {}); }),
        loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    const { actor, told } = start({ asset });
    await waitFor(actor, (s) => s.matches('showing'));
    selectItemVideoAsset(actor.getSnapshot())?.send({ type: 'media.choose', file: new Blob(['v']), fileName: 'clip.mp4' });
    await waitFor(actor, () => request !== undefined);
    expect(request?.contentItemId).toBe('item-1');
    request?.progress.send({ type: 'upload.created', assetId: 'asset-new' });
    expect(actor.getSnapshot().context.assetId).toBe('asset-new');
    // Attached by the server when the last byte arrives, not yet.
    expect(told).toEqual([]);
  });

  it('an upload\'s last byte: the item is saved with it (a replacement too), the page is told the item\'s version', async () => {
    const asset = itemAssetMachine.provide({
      actors: {
        upload: fakeActor(() => ({ assetId: 'asset-up' })), loadAsset: fakeActor((input: { assetId: string }) => mediaAsset({ id: input.assetId, status: 'ready' })),
        retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    let reads = 0;
    const { actor, told, attached } = start({ asset, loadItemVideo: fakeActor(() => { reads += 1; return { assetId: reads > 1 ? 'asset-up' : 'asset-old' }; }) });
    await waitFor(actor, (s) => s.matches('showing'));
    selectItemVideoAsset(actor.getSnapshot())?.send({ type: 'media.choose', file: new Blob(['v']), fileName: 'clip.mp4' });
    await waitFor(actor, () => told.length > 0);
    expect(attached).toEqual(['asset-up']);
    expect(told).toEqual([{ type: 'video.attached', assetId: 'asset-up', version: 5 }]);
    await waitFor(actor, (s) => s.matches('showing') && s.context.assetId === 'asset-up');
  });

  it('captions are saved for the video (a notice with their label); none without a video; a refusal in words', async () => {
    let refuse = false;
    const { actor } = start({
      loadItemVideo: fakeActor(() => ({ assetId: 'asset-1' })),
      addCaptions: fakeActor((input: CaptionsRequest) => { if (refuse) throw refusal(400, 'The captions are not WebVTT or SRT.'); return { label: input.label }; }),
    });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'captions.add', language: 'fr', label: 'Français', format: 'srt', text: '1\n00:00:00,000 --> 00:00:01,000\nBonjour\n' });
    await waitFor(actor, (s) => s.matches({ showing: 'idle' }) && s.context.notice !== null);
    expect(selectItemVideoNotice(actor.getSnapshot())).toBe(ITEM_VIDEO_MESSAGES.captionsSaved('Français'));
    refuse = true;
    actor.send({ type: 'captions.add', language: 'fr', label: 'Français', format: 'srt', text: 'nonsense' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectItemVideoError(actor.getSnapshot())).toBe('The captions are not WebVTT or SRT.');
    const none = start();
    await waitFor(none.actor, (s) => s.matches('showing'));
    none.actor.send({ type: 'captions.add', language: 'en', label: 'English', format: 'vtt', text: 'WEBVTT\n' });
    expect(none.actor.getSnapshot().matches({ showing: 'idle' })).toBe(true);
  });

  it('an upload on its way makes a navigation ask first ("Leaving stops the upload"); once it ended, nothing is asked', async () => {
    let finish: (value: { assetId: string }) => void = () => {};
    const asset = itemAssetMachine.provide({
      actors: {
        upload: fromPromise<{ assetId: string }, MediaUploadRequest>(() => new Promise((resolve) => { finish = resolve; })),
        loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
      },
    });
    const { actor } = start({ asset });
    await waitFor(actor, (s) => s.matches('showing'));
    const forms = selectItemVideoForms(actor.getSnapshot());
    selectItemVideoAsset(actor.getSnapshot())?.send({ type: 'media.choose', file: new Blob(['v']), fileName: 'clip.mp4' });
    forms?.send({ type: 'forms.navigate' });
    expect(forms && selectIsConfirmingVideoLeave(forms.getSnapshot())).toBe(true);
    expect(forms && selectVideoLeaveReason(forms.getSnapshot())).toBe('upload');
    forms?.send({ type: 'forms.stay' });
    finish({ assetId: 'asset-new' });
    await waitFor(actor, () => selectItemVideoAsset(actor.getSnapshot())?.getSnapshot().matches('preparing') ?? false);
    forms?.send({ type: 'forms.navigate' });
    expect(forms && selectIsConfirmingVideoLeave(forms.getSnapshot())).toBe(false);
  });

  it('the typed captions language and label, and the typed HLS address, are what the panel saves; a success clears the form', async () => {
    const saved: CaptionsRequest[] = [];
    const added: { title: string; hlsUrl: string }[] = [];
    const { actor, attached } = start({
      loadItemVideo: fakeActor(() => ({ assetId: 'asset-1' })),
      addCaptions: fakeActor((input: CaptionsRequest) => { saved.push(input); return { label: input.label }; }),
      addExternal: fakeActor((input: { title: string; hlsUrl: string }) => { added.push(input); return mediaAsset({ id: 'asset-x', source: 'external' }); }),
    });
    await waitFor(actor, (s) => s.matches('showing'));
    const forms = selectItemVideoForms(actor.getSnapshot());
    forms?.send({ type: 'forms.field', field: 'captionsLanguage', value: 'pt-BR' });
    forms?.send({ type: 'forms.field', field: 'captionsLabel', value: 'Português' });
    forms?.send({ type: 'forms.submitCaptions', format: 'vtt', text: 'WEBVTT\n' });
    await waitFor(actor, (s) => s.context.notice !== null);
    expect(saved).toEqual([{ assetId: 'asset-1', language: 'pt-BR', label: 'Português', format: 'vtt', text: 'WEBVTT\n' }]);
    expect(forms && selectVideoFormValues(forms.getSnapshot())).toEqual(VIDEO_FORM_DEFAULTS);
    forms?.send({ type: 'forms.field', field: 'externalTitle', value: 'Feed' });
    forms?.send({ type: 'forms.field', field: 'externalUrl', value: 'https://cdn.example/a/master.m3u8' });
    forms?.send({ type: 'forms.submitExternal' });
    await waitFor(actor, () => attached.length > 0);
    expect(added).toEqual([{ title: 'Feed', hlsUrl: 'https://cdn.example/a/master.m3u8' }]);
    expect(forms && selectVideoFormValues(forms.getSnapshot())).toEqual(VIDEO_FORM_DEFAULTS);
  });

  it('a failed read offers Try again', async () => {
    let fail = true;
    const { actor } = start({ loadItemVideo: fakeActor(() => { if (fail) throw refusal(0, 'down'); return { assetId: null }; }) });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectItemVideoError(actor.getSnapshot())).toBe(ITEM_VIDEO_MESSAGES.loadFailed);
    fail = false;
    actor.send({ type: 'video.reload' });
    await waitFor(actor, (s) => s.matches('showing'));
  });
});

describe('item video panel machine: every path', () => {
  const events = [
    { type: 'video.pick' }, { type: 'video.pickCancel' }, { type: 'video.attach', assetId: 'asset-7' },
    { type: 'video.external', title: 'Feed', hlsUrl: 'https://cdn.example/master.m3u8' }, { type: 'video.reload' },
    { type: 'video.created', assetId: 'asset-2' }, { type: 'video.uploading', on: true }, { type: 'video.uploaded', assetId: 'asset-3' },
    { type: 'captions.add', language: 'en', label: 'English', format: 'vtt', text: 'WEBVTT\n' },
    { type: 'xstate.done.actor.loadItemVideo', output: { assetId: 'asset-1' } }, { type: 'xstate.error.actor.loadItemVideo', error: new Error('x') },
    { type: 'xstate.done.actor.loadChoices', output: [] }, { type: 'xstate.error.actor.loadChoices', error: new Error('x') },
    { type: 'xstate.done.actor.attachVideo', output: { version: 4 } }, { type: 'xstate.error.actor.attachVideo', error: new Error('x') },
    { type: 'xstate.done.actor.addExternal', output: mediaAsset({ id: 'asset-x' }) }, { type: 'xstate.error.actor.addExternal', error: new Error('x') },
    { type: 'xstate.done.actor.addCaptions', output: { label: 'English' } }, { type: 'xstate.error.actor.addCaptions', error: new Error('x') },
  ];
  itReachesEveryStateAndTransition(itemVideoMachine, {
    events,
    input: { contentItemId: 'item-1' },
    logic: itemVideoMachine.provide({
      actors: { loadItemVideo: pendingActor(), asset: idleAsset, loadChoices: pendingActor(), attachVideo: pendingActor(), addExternal: pendingActor(), addCaptions: pendingActor() },
    }),
  });
});

import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { MEDIA_MESSAGES, MEDIA_UPLOAD_WORDS } from '../../../common/messages/media';
import { mediaAssetMachine, type MediaUploadRequest } from '../../../machines/media-asset.machine';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { mediaAsset } from '../../../machines/test-harness/media-fixtures';
import { VideoLifecycle } from './VideoLifecycle';

const started: AnyActorRef[] = [];
afterEach(() => { cleanup(); for (const actor of started.splice(0)) actor.stop(); });

function lifecycle(actors: Parameters<typeof mediaAssetMachine.provide>[0]['actors'], assetId: string | null = null) {
  const actor = createActor(mediaAssetMachine.provide({ actors }), { input: { contentItemId: 'item-1', assetId } }).start();
  started.push(actor);
  return actor;
}

describe('VideoLifecycle (issue 40)', () => {
  it('a writer chooses a file: the bar, its percent, speed and time left; Cancel asks first and Keep uploading goes on', async () => {
    let request: MediaUploadRequest | undefined;
    const asset = lifecycle({
      upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise(() => {}); }),
      loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
    });
    render(<VideoLifecycle asset={asset} writable encodingEnabled />);
    expect(screen.getByText('No video yet.')).toBeTruthy();
    await userEvent.upload(screen.getByLabelText('Upload a video'), new File(['video bytes'], 'clip.mp4', { type: 'video/mp4' }));
    await waitFor(() => expect(request).toBeDefined());
    request?.progress.send({ type: 'upload.progressed', loaded: 1_000_000, total: 10_000_000, at: 1000 });
    request?.progress.send({ type: 'upload.progressed', loaded: 3_000_000, total: 10_000_000, at: 2000 });
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('30'));
    expect(screen.getByText(/^Uploading 30 % · .+\/s, about 4 s left$/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(screen.getByRole('group', { name: 'Cancel this upload? The bytes sent so far are dropped.' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Keep uploading' }));
    expect(screen.getByRole('button', { name: 'Cancel upload' })).toBeTruthy();
    expect(screen.getByLabelText('Upload a video').hasAttribute('disabled')).toBe(true);
  });

  it('a reader sees an errored video\'s words without Retry or a file control', async () => {
    const asset = lifecycle({
      upload: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
      loadAsset: fakeActor(() => mediaAsset({ status: 'errored', errorMessage: 'The file is not a video.' })),
    }, 'asset-1');
    render(<VideoLifecycle asset={asset} writable={false} encodingEnabled />);
    expect((await screen.findByRole('alert')).textContent).toBe('The file is not a video.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByLabelText(/Upload a video|Replace the video/)).toBeNull();
  });

  it('shows each rendition\'s progress while preparing; on the site without encoding a writer is told so instead of a file control', async () => {
    const asset = lifecycle({
      upload: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
      loadAsset: fakeActor(() => mediaAsset({
        status: 'preparing', progress: 40,
        renditions: [{ name: '240p', width: 426, height: 240, bandwidth: 500_000, progress: 100, done: true }, { name: '720p', width: 1280, height: 720, bandwidth: 3_000_000, progress: 20, done: false }],
      })),
    }, 'asset-1');
    render(<VideoLifecycle asset={asset} writable encodingEnabled={false} />);
    expect((await screen.findByTestId('video-status')).textContent).toMatch(/ · 40 %$/);
    expect(screen.getByRole('list', { name: 'Renditions' }).textContent).toBe('240p: done720p: 20 %');
    expect(screen.getByText(MEDIA_MESSAGES.encodingOff)).toBeTruthy();
    expect(screen.queryByLabelText(/Upload a video|Replace the video/)).toBeNull();
  });

  it('an upload a reload interrupted is listed in words with what the server kept; the same file chosen again continues it', async () => {
    let request: MediaUploadRequest | undefined;
    const asset = lifecycle({
      upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise(() => {}); }),
      loadAsset: fakeActor(() => mediaAsset({ id: 'asset-9', title: 'harbour', status: 'uploading', progress: 47 })), retryAsset: pendingActor(), cancelAsset: pendingActor(),
    }, 'asset-9');
    render(<VideoLifecycle asset={asset} writable encodingEnabled />);
    expect((await screen.findByTestId('upload-interrupted')).textContent).toBe(MEDIA_UPLOAD_WORDS.interrupted('harbour', 47));
    await userEvent.upload(screen.getByLabelText(MEDIA_UPLOAD_WORDS.chooseAgain), new File(['video bytes'], 'harbour.mp4', { type: 'video/mp4' }));
    await waitFor(() => expect(request?.fileName).toBe('harbour.mp4'));
    expect(request?.contentItemId).toBe('item-1');
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromCallback } from 'xstate';
import type { Roles } from '../../../common/contract';
import type { EngineCommand, EngineInput } from '../../../machines/media-player.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { mediaPlayback } from '../../../machines/test-harness/media-fixtures';
import { signedInAs } from '../../test-harness/content-fixtures';
import { mediaTestPages } from '../../test-harness/media-pages';
import { renderView } from '../../test-harness/render-view';
import { parseStoryboard } from '../../../machines/media-storyboard';
import { PLAYER_TEXT, VideoPlayer } from './VideoPlayer';

const reader = { auth: { readStoredSession: fakeActor(() => signedInAs({ Content: 'read' } as Roles)) } };

describe('VideoPlayer (issue 40)', () => {
  it('hands its <video> to the engine with the console\'s own playlist, and shows the rendition playing and the time', async () => {
    let tell: (event: { type: 'engine.level'; index: number } | { type: 'engine.time'; currentTime: number; duration: number }) => void = () => {};
    let surface: unknown = null;
    let address = '';
    const engine = fromCallback<EngineCommand, EngineInput>(({ sendBack, input }) => {
      surface = input.surface;
      address = input.hlsUrl;
      sendBack({ type: 'engine.levels', levels: [{ height: 240, bitrate: 400_000 }, { height: 720, bitrate: 2_500_000 }] });
      tell = sendBack;
    });
    const pages = mediaTestPages({ loadPlayback: fakeActor(() => mediaPlayback()) }, engine);
    await renderView(<VideoPlayer assetId="asset-1" title="Storm Coast trailer" />, { url: '/content/media/asset-1', pages, actors: reader });
    const video = await screen.findByLabelText('Preview: Storm Coast trailer');
    await waitFor(() => expect(surface).toBe(video));
    expect(address).toBe(mediaPlayback().previewUrl);
    expect(address).not.toBe(mediaPlayback().hlsUrl);
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Auto', '240p · 400 kbps', '720p · 2500 kbps']));
    tell({ type: 'engine.level', index: 1 });
    tell({ type: 'engine.time', currentTime: 65, duration: 130 });
    await waitFor(() => expect(screen.getByTestId('preview-level').textContent).toBe('Playing: 720p'));
    expect(screen.getByTestId('preview-time').textContent).toBe('1:05 / 2:10');
  });

  it('says in words when the video cannot be played, and Try again asks for the address again', async () => {
    let reads = 0;
    const engine = fromCallback<EngineCommand, EngineInput>(({ sendBack }) => {
      sendBack({ type: 'engine.failed', message: 'The video could not be played (manifestLoadError).' });
    });
    const pages = mediaTestPages({ loadPlayback: fakeActor(() => { reads += 1; return mediaPlayback(); }) }, engine);
    await renderView(<VideoPlayer assetId="asset-1" title="Storm Coast trailer" />, { url: '/content/media/asset-1', pages, actors: reader });
    expect((await screen.findByRole('alert')).textContent).toContain('The video could not be played (manifestLoadError).');
    expect(reads).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(reads).toBe(2));
  });

  it('dragging its scrubber shows the storyboard\'s thumbnail of that time (sprite and offset from the cue) and seeks the video', async () => {
    const commands: EngineCommand[] = [];
    let tell: (event: { type: 'engine.time'; currentTime: number; duration: number }) => void = () => {};
    const engine = fromCallback<EngineCommand, EngineInput>(({ sendBack, receive }) => { tell = sendBack; receive((command) => commands.push(command)); });
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nstoryboard.jpg#xywh=0,0,160,90\n\n00:00:05.000 --> 00:00:10.000\nstoryboard.jpg#xywh=160,0,160,90\n';
    const pages = mediaTestPages({
      loadPlayback: fakeActor(() => mediaPlayback({ storyboardUrl: '/v2.0/media/play/tok/asset-1/storyboard.vtt' })),
      loadStoryboard: fakeActor((input: { url: string | null }) => parseStoryboard(vtt, input.url ?? '')),
    }, engine);
    await renderView(<VideoPlayer assetId="asset-1" title="Storm Coast trailer" />, { url: '/content/media/asset-1', pages, actors: reader });
    await screen.findByLabelText('Preview: Storm Coast trailer');
    await waitFor(() => expect(commands).toEqual([]));
    tell({ type: 'engine.time', currentTime: 1, duration: 10 });
    const scrubber = await screen.findByRole<HTMLInputElement>('slider', { name: PLAYER_TEXT.scrub });
    await waitFor(() => expect(scrubber.disabled).toBe(false));
    fireEvent.change(scrubber, { target: { value: '7' } });
    const thumbnail = await screen.findByRole('img', { name: PLAYER_TEXT.thumbnail('0:07') });
    expect(thumbnail.style.backgroundImage).toBe('url("/v2.0/media/play/tok/asset-1/storyboard.jpg")');
    expect(thumbnail.style.backgroundPosition).toBe('-160px 0px');
    expect(thumbnail.style.width).toBe('160px');
    expect(commands).toEqual([{ type: 'engine.seek', seconds: 7 }]);
    fireEvent.pointerUp(scrubber);
    await waitFor(() => expect(screen.queryByTestId('scrub-thumbnail')).toBeNull());
  });
});

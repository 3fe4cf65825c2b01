import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromCallback } from 'xstate';
import type { Roles } from '../../../common/contract';
import { MEDIA_MESSAGES, MEDIA_UPLOAD_WORDS } from '../../../common/messages/media';
import type { EngineCommand, EngineInput } from '../../../machines/media-player.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { mediaAsset, mediaPlayback } from '../../../machines/test-harness/media-fixtures';
import { signedInAs } from '../../test-harness/content-fixtures';
import { mediaTestPages } from '../../test-harness/media-pages';
import { renderView } from '../../test-harness/render-view';
import { ITEM_VIDEO_TEXT, ItemVideoPanel } from './ItemVideoPanel';
import { LIFECYCLE_TEXT } from './VideoLifecycle';
import { PLAYER_TEXT } from './VideoPlayer';

const ITEM = { id: '00000000-0000-4000-8000-000000000001', kind: 'episode' as const, title: 'Storm Coast 1', version: 3 };
const as = (level: 'read' | 'write', encodingEnabled = true) => ({
  auth: { readStoredSession: fakeActor(() => ({ ...signedInAs({ Content: level } as Roles), encodingEnabled })) },
});
/** hls.js stand-in: tells two renditions, the first playing. */
const engine = fromCallback<EngineCommand, EngineInput>(({ sendBack }) => {
  sendBack({ type: 'engine.levels', levels: [{ height: 240, bitrate: 400_000 }, { height: 1080, bitrate: 5_000_000 }] });
  sendBack({ type: 'engine.level', index: 0 });
});

describe('ItemVideoPanel (issue 40)', () => {
  it('a reader sees the item\'s ready video in the player with its facts, and no upload, attach or captions control', async () => {
    const pages = mediaTestPages({
      loadItemVideo: fakeActor(() => ({ assetId: 'asset-1' })),
      loadAsset: fakeActor(() => mediaAsset()),
      loadPlayback: fakeActor(() => mediaPlayback()),
    }, engine);
    await renderView(<ItemVideoPanel item={ITEM} writable={false} />, { pages, actors: as('read') });
    expect(await screen.findByLabelText(`${PLAYER_TEXT.video}: ${ITEM.title}`)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('preview-level').textContent).toBe('Playing: 240p'));
    expect(screen.getByText('1920 × 1080')).toBeTruthy();
    expect(screen.getByText('240p, 1080p')).toBeTruthy();
    expect(screen.queryByLabelText(LIFECYCLE_TEXT.replace)).toBeNull();
    expect(screen.queryByRole('button', { name: ITEM_VIDEO_TEXT.choose })).toBeNull();
    expect(screen.queryByLabelText(ITEM_VIDEO_TEXT.captionsFile)).toBeNull();
  });

  it('a writer without a video uploads one or attaches one from Media; publishing\'s need is said while it is not ready', async () => {
    const attached: (string | null)[] = [];
    const pages = mediaTestPages({
      loadItemVideo: fakeActor(() => ({ assetId: attached.at(-1) ?? null })),
      loadChoices: fakeActor(() => [mediaAsset({ id: 'asset-7', title: 'Trailer', status: 'viewable' })]),
      attachVideo: fakeActor((input: { assetId: string | null }) => { attached.push(input.assetId); return { version: 4 }; }),
      loadAsset: fakeActor(() => mediaAsset({ id: 'asset-7', title: 'Trailer', status: 'viewable' })),
      loadPlayback: fakeActor(() => mediaPlayback()),
    }, engine);
    await renderView(<ItemVideoPanel item={ITEM} writable />, { pages, actors: as('write') });
    expect(await screen.findByLabelText(LIFECYCLE_TEXT.upload)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: ITEM_VIDEO_TEXT.choose }));
    await userEvent.click(await screen.findByRole('button', { name: ITEM_VIDEO_TEXT.attach('Trailer') }));
    await waitFor(() => expect(attached).toEqual(['asset-7']));
    expect(await screen.findByTestId('publish-needs')).toHaveProperty('textContent', `${ITEM_VIDEO_TEXT.publishNeeds} (Viewable (more renditions coming))`);
    expect(screen.getByLabelText(LIFECYCLE_TEXT.replace)).toBeTruthy();
  });

  it('the site without encoding says so and offers the HLS address form instead of an upload', async () => {
    const pages = mediaTestPages({ loadItemVideo: fakeActor(() => ({ assetId: null })) });
    await renderView(<ItemVideoPanel item={ITEM} writable />, { pages, actors: as('write', false) });
    expect(await screen.findByText(MEDIA_MESSAGES.encodingOff)).toBeTruthy();
    expect(screen.queryByLabelText(LIFECYCLE_TEXT.upload)).toBeNull();
    expect(screen.getByLabelText(ITEM_VIDEO_TEXT.externalUrl)).toBeTruthy();
  });

  it('keeps the typed HLS address in the panel\'s machine: a navigation asks "Unsaved changes" (Stay keeps it), Attach sends what was typed', async () => {
    const added: { title: string; hlsUrl: string }[] = [];
    const pages = mediaTestPages({
      loadItemVideo: fakeActor(() => ({ assetId: null })),
      addExternal: fakeActor((input: { title: string; hlsUrl: string }) => { added.push(input); return mediaAsset({ id: 'asset-x', source: 'external' }); }),
    });
    const view = await renderView(<ItemVideoPanel item={ITEM} writable />, { pages, actors: as('write', false), url: '/content/episode/x' });
    await view.user.type(await screen.findByLabelText(ITEM_VIDEO_TEXT.externalTitle), 'Feed');
    await view.user.type(screen.getByLabelText(ITEM_VIDEO_TEXT.externalUrl), 'https://cdn.example/a/master.m3u8');
    await view.navigate('/content');
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(view.location()).toBe('/content/episode/x');
    expect(screen.getByLabelText<HTMLInputElement>(ITEM_VIDEO_TEXT.externalUrl).value).toBe('https://cdn.example/a/master.m3u8');
    await view.user.click(screen.getByRole('button', { name: ITEM_VIDEO_TEXT.externalSubmit }));
    await waitFor(() => expect(added).toEqual([{ title: 'Feed', hlsUrl: 'https://cdn.example/a/master.m3u8' }]));
  });

  it('while an upload is on its way a navigation asks first: "Leaving stops the upload"; Leave goes', async () => {
    const pages = mediaTestPages({ loadItemVideo: fakeActor(() => ({ assetId: null })) });
    const view = await renderView(<ItemVideoPanel item={ITEM} writable />, { pages, actors: as('write'), url: '/content/episode/x' });
    await view.user.upload(await screen.findByLabelText(LIFECYCLE_TEXT.upload), new File(['video bytes'], 'clip.mp4', { type: 'video/mp4' }));
    expect(await screen.findByRole('progressbar', { name: LIFECYCLE_TEXT.progress })).toBeTruthy();
    await view.navigate('/content');
    const dialog = await screen.findByRole('dialog', { name: ITEM_VIDEO_TEXT.leaveUploadTitle });
    expect(within(dialog).getByText(MEDIA_UPLOAD_WORDS.leaveStopsUpload)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(view.location()).toBe('/content'));
  });

  it('shows nothing for a series (no video of its own)', async () => {
    const pages = mediaTestPages();
    await renderView(<ItemVideoPanel item={{ ...ITEM, kind: 'series' }} writable />, { pages, actors: as('write') });
    expect(screen.queryByRole('heading', { name: ITEM_VIDEO_TEXT.title })).toBeNull();
  });
});

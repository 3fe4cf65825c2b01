import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromCallback } from 'xstate';
import type { Roles } from '../../../common/contract';
import { MEDIA_MESSAGES } from '../../../common/messages/media';
import type { EngineCommand, EngineInput } from '../../../machines/media-player.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { mediaAsset, mediaPlayback } from '../../../machines/test-harness/media-fixtures';
import { signedInAs } from '../../test-harness/content-fixtures';
import { mediaTestPages } from '../../test-harness/media-pages';
import { renderView } from '../../test-harness/render-view';
import { MediaAssetPage } from './MediaAssetPage';

const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });

describe('MediaAssetPage (issue 40)', () => {
  it('shows a ready video\'s facts and plays it; a rendition picked is told to the player', async () => {
    const commands: EngineCommand[] = [];
    const engine = fromCallback<EngineCommand, EngineInput>(({ sendBack, receive, input }) => {
      expect(input.hlsUrl).toBe('/v2.0/media/play/tok/asset-1/master.m3u8');
      sendBack({ type: 'engine.levels', levels: [{ height: 240, bitrate: 400_000 }, { height: 1080, bitrate: 5_000_000 }] });
      receive((command) => commands.push(command));
    });
    const pages = mediaTestPages({ loadAsset: fakeActor(() => mediaAsset({ title: 'Storm Coast trailer', encrypted: true })), loadPlayback: fakeActor(() => mediaPlayback()) }, engine);
    await renderView(<MediaAssetPage />, { url: '/content/media/asset-1', pages, actors: as('read') });
    expect(await screen.findByRole('heading', { name: 'Storm Coast trailer' })).toBeTruthy();
    expect(screen.getByText('10 s')).toBeTruthy();
    expect(screen.getByText(MEDIA_MESSAGES.drmNotice)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(screen.getByLabelText('Rendition'), '1');
    expect(commands).toEqual([{ type: 'engine.setLevel', index: 1 }]);
  });

  it('a video still preparing says it cannot be played yet; an errored one shows its words and Retry for a writer', async () => {
    const pages = mediaTestPages({ loadAsset: fakeActor(() => mediaAsset({ status: 'errored', errorMessage: 'The video has no picture (it holds sound only).' })) });
    await renderView(<MediaAssetPage />, { url: '/content/media/asset-1', pages, actors: as('write') });
    expect(await screen.findByText('The video has no picture (it holds sound only).')).toBeTruthy();
    expect(screen.getByText(MEDIA_MESSAGES.notPlayable)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

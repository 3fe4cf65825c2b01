import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Roles } from '../../../common/contract';
import type { ListQuery } from '../../../machines/list.machine';
import type { MediaUploadRequest } from '../../../machines/media-asset.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { mediaAsset } from '../../../machines/test-harness/media-fixtures';
import { signedInAs } from '../../test-harness/content-fixtures';
import { mediaTestPages } from '../../test-harness/media-pages';
import { renderView } from '../../test-harness/render-view';
import { LIFECYCLE_TEXT } from './VideoLifecycle';
import { MediaLibraryPage } from './MediaLibraryPage';

const as = (level: 'read' | 'write') => ({ auth: { readStoredSession: fakeActor(() => signedInAs({ Content: level } as Roles)) } });
const rows = [mediaAsset({ id: 'a-1', title: 'Storm Coast trailer' }), mediaAsset({ id: 'a-2', title: 'Harbour lights', status: 'preparing', durationSeconds: 75, sizeBytes: 5 * 1024 * 1024 })];

describe('MediaLibraryPage (issue 40)', () => {
  it('lists the site\'s videos with status, duration, resolution and size; a writer uploads a new one with a progress bar', async () => {
    const queries: ListQuery[] = [];
    let request: MediaUploadRequest | undefined;
    const pages = mediaTestPages({
      fetchPage: fakeActor((query: ListQuery) => { queries.push(query); return { items: rows, total: 2 }; }),
      upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise(() => {}); }),
    });
    await renderView(<MediaLibraryPage />, { url: '/content/media', pages, actors: as('write') });
    const link = await screen.findByRole('link', { name: 'Harbour lights' });
    expect(link.getAttribute('href')).toBe('/content/media/a-2');
    const row = link.closest('tr')!;
    expect(within(row).getByText('Preparing')).toBeTruthy();
    expect(within(row).getByText('1 min 15 s')).toBeTruthy();
    expect(within(row).getByText('5 MB')).toBeTruthy();
    await userEvent.upload(screen.getByLabelText(LIFECYCLE_TEXT.upload), new File(['video'], 'clip.mp4', { type: 'video/mp4' }));
    await waitFor(() => expect(request?.fileName).toBe('clip.mp4'));
    expect(request?.contentItemId).toBeNull();
    request?.progress.send({ type: 'upload.progressed', loaded: 50, total: 100, at: 1000 });
    const bar = await screen.findByRole('progressbar', { name: LIFECYCLE_TEXT.progress });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    request?.progress.send({ type: 'upload.created', assetId: 'a-9' });
    // A created upload reloads the list and links to its page.
    await waitFor(() => expect(queries.length).toBe(2));
    expect(screen.getByRole('link', { name: /Open the video/ }).getAttribute('href')).toBe('/content/media/a-9');
  });

  it('filters by status and searches by title on the server', async () => {
    const queries: ListQuery[] = [];
    const pages = mediaTestPages({ fetchPage: fakeActor((query: ListQuery) => { queries.push(query); return { items: rows, total: 2 }; }) });
    await renderView(<MediaLibraryPage />, { url: '/content/media', pages, actors: as('write') });
    await screen.findByRole('link', { name: 'Harbour lights' });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'ready');
    await waitFor(() => expect(queries.at(-1)?.filters).toEqual({ status: 'ready' }));
    await userEvent.type(screen.getByLabelText('Search by title'), 'storm');
    await waitFor(() => expect(queries.at(-1)?.search).toBe('storm'));
  });

  it('a reader sees the list but no upload', async () => {
    const pages = mediaTestPages({ fetchPage: fakeActor(() => ({ items: rows, total: 2 })) });
    await renderView(<MediaLibraryPage />, { url: '/content/media', pages, actors: as('read') });
    await screen.findByRole('link', { name: 'Storm Coast trailer' });
    expect(screen.queryByLabelText(LIFECYCLE_TEXT.upload)).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Upload a new video' })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { libraryUploadMachine, mediaLibraryMachine, type MediaLibraryEvent, mediaListMachine, selectLibraryUpload, selectMediaList } from './media-library.machine';
import type { MediaUploadRequest } from './media-asset.machine';
import type { ListQuery } from './list.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import { mediaAsset } from './test-harness/media-fixtures';

describe('media library machine', () => {
  it('lists the site\'s videos by the query, and reads them again once a new upload is created', async () => {
    const queries: ListQuery[] = [];
    let request: MediaUploadRequest | undefined;
    const logic = mediaLibraryMachine.provide({
      actors: {
        list: mediaListMachine.provide({
          actors: { fetchPage: fromPromise(async ({ input }: { input: ListQuery }) => { queries.push(input); return { items: [mediaAsset()], total: 1 }; }) },
        }),
        upload: libraryUploadMachine.provide({
          actors: {
            upload: fromPromise<{ assetId: string }, MediaUploadRequest>(({ input }) => { request = input; return new Promise(() => {}); }),
            loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor(),
          },
        }),
      },
    });
    const actor = createActor(logic, { input: { filters: { status: 'ready' }, search: 'clip' } }).start();
    const list = selectMediaList(actor.getSnapshot());
    await waitFor(list, (s) => s.matches('ready'));
    expect(queries[0]).toMatchObject({ search: 'clip', filters: { status: 'ready' }, offset: 0 });
    selectLibraryUpload(actor.getSnapshot()).send({ type: 'media.choose', file: new Blob(['v']), fileName: 'clip.mp4' });
    await waitFor(actor, () => request !== undefined);
    expect(request?.contentItemId).toBeNull();
    request?.progress.send({ type: 'upload.created', assetId: 'asset-2' });
    await waitFor(list, () => queries.length === 2);
    expect(queries).toHaveLength(2);
  });
});

describe('media library machine: every path', () => {
  const events: MediaLibraryEvent[] = [{ type: 'media.created', assetId: 'asset-2' }];
  itReachesEveryStateAndTransition(mediaLibraryMachine, {
    events,
    input: {},
    logic: mediaLibraryMachine.provide({
      actors: {
        list: mediaListMachine.provide({ actors: { fetchPage: pendingActor() } }),
        upload: libraryUploadMachine.provide({ actors: { upload: pendingActor(), loadAsset: pendingActor(), retryAsset: pendingActor(), cancelAsset: pendingActor() } }),
      },
    }),
  });
});

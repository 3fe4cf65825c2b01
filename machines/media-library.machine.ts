/**
 * Content › Media (issue 40): the site's videos, paged by the server with a search and a status
 * filter (the `list` child, createListMachine), and an upload of a new video not yet attached to an
 * item (the `upload` child, the video lifecycle machine). A created upload reloads the list, as does
 * each status the upload reads while it is prepared (the row's status follows).
 *
 * Its I/O (the list's fetchPage, the upload's actors) is provided by src/adapters/media-actors.ts.
 */
import { sendParent, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { MediaAsset } from '../common/media-contract';
import { createListMachine, type ListInput } from './list.machine';
import { mediaAssetMachine } from './media-asset.machine';
import { machineTypes } from './machine-types';
import { runningChild } from './running-child';

/** The list of the site's videos (rows are the server's MediaAsset). */
export const mediaListMachine = createListMachine<MediaAsset>();

/** The Media list's own upload: a created asset is reported to the page. */
export const libraryUploadMachine = mediaAssetMachine.provide({
  actions: { changed: sendParent((_, params: { assetId: string }) => ({ type: 'media.created' as const, assetId: params.assetId })) },
});

export type MediaLibraryEvent = { type: 'media.created'; assetId: string };

export const mediaLibraryMachine = setup({
  types: machineTypes<{
    input: ListInput; context: { listInput: ListInput }; events: MediaLibraryEvent;
    children: { list: 'list'; upload: 'upload' };
  }>(),
  actors: { list: mediaListMachine, upload: libraryUploadMachine },
  actions: {
    reloadList: sendTo('list', { type: 'list.reload' }),
  },
}).createMachine({
  id: 'mediaLibrary',
  description: 'The site\'s videos with a search, a status filter and pages, and an upload of a new one.',
  context: ({ input }) => ({ listInput: input }),
  invoke: [
    { id: 'list', src: 'list', input: ({ context }) => context.listInput },
    { id: 'upload', src: 'upload', input: { contentItemId: null, assetId: null } },
  ],
  initial: 'browsing',
  states: {
    browsing: {
      description: 'The list and the upload panel; a new upload shows in the list at once.',
      on: { 'media.created': { actions: 'reloadList' } },
    },
  },
});

export type MediaLibraryMachine = typeof mediaLibraryMachine;
type Snapshot = SnapshotFrom<MediaLibraryMachine>;
export type MediaListRef = ActorRefFrom<typeof mediaListMachine>;

export const selectMediaList = (s: Snapshot) => runningChild(s.children.list, 'list');
export const selectLibraryUpload = (s: Snapshot) => runningChild(s.children.upload, 'upload');

/** Create New's `uploading` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup, KEEP_DRAFT } from './content-create.actions';

export const uploadingState = contentCreateSetup.createStateConfig({
  description: 'One artwork file is checked and stored by the server; the form stays editable.',
  invoke: {
    id: 'uploadArtwork',
    src: 'uploadArtwork',
    input: ({ context }) => ({ slot: context.uploadingSlot!, file: context.uploadingFile! }),
    onDone: { target: 'editing', actions: [{ type: 'storeArtwork', params: ({ event }) => ({ artwork: event.output }) }, KEEP_DRAFT] },
    onError: { target: 'editing', actions: { type: 'storeUploadError', params: ({ event }) => ({ error: event.error }) } },
  },
  on: {
    'create.change': { actions: ['setValue', KEEP_DRAFT] },
    // A file is being stored: Cancel and navigations wait for it (the question comes once it is back).
    'create.cancel': {},
    'create.navigate': {},
  },
});

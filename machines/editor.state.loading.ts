/** The editor's `loading` state (assembled in ./editor.machine.ts). */
import { OWN_MESSAGES } from '../common/messages';
import { editorSetup } from './editor.actions';
import { errorMessage } from './notify';

export const loadingState = editorSetup.createStateConfig({
  description: 'Reading the record. The way back is offered while it loads, so leaving is too.',
  on: { 'editor.leave': { target: 'left', actions: 'leave' } },
  invoke: {
    id: 'load',
    src: 'load',
    input: ({ context }) => ({ id: context.id, ...(context.scope ? { scope: context.scope } : {}) }),
    onDone: { target: 'editing', actions: { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) } },
    onError: [
      { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
      { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.editorLoadFailed) }) } },
    ],
  },
});

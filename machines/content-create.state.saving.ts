/** Create New's `saving` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';
import { createRequestOf } from './content-create.setup';

export const savingState = contentCreateSetup.createStateConfig({
  description: 'The new item is with the server.',
  on: {
    // The item is being created: it will exist, and its page opens.
    'create.cancel': {},
    'create.navigate': {},
  },
  invoke: {
    id: 'createItem',
    src: 'createItem',
    input: ({ context }) => createRequestOf(context),
    onDone: { target: 'created', actions: { type: 'storeCreated', params: ({ event }) => ({ item: event.output }) } },
    onError: { target: 'editing', actions: { type: 'storeCreateError', params: ({ event }) => ({ error: event.error }) } },
  },
});

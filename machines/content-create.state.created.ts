/** Create New's `created` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const createdState = contentCreateSetup.createStateConfig({
  description: 'The item exists; its page opens.',
  entry: ['forgetDraft', { type: 'openCreated', params: ({ context }) => ({ item: context.created }) }],
  on: { 'create.cancel': {} },
});

/** Create New's `loading` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const loadingState = contentCreateSetup.createStateConfig({
  description: 'The series an episode can belong to and the site time zone are read.',
  invoke: {
    id: 'loadSetup',
    src: 'loadSetup',
    onDone: { target: 'editing', actions: { type: 'storeSetup', params: ({ event }) => ({ setup: event.output }) } },
    onError: { target: 'loadFailed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: event.error }) } },
  },
});

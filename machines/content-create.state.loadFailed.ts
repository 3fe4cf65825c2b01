/** Create New's `loadFailed` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const loadFailedState = contentCreateSetup.createStateConfig({
  description: 'What the form needs could not be read; trying again may help (a network failure).',
  on: { 'create.retry': { target: 'loading' } },
});

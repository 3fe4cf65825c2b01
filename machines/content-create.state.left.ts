/** Create New's `left` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const leftState = contentCreateSetup.createStateConfig({
  description: 'The person left the form.',
  type: 'final',
});

/** The editor's `left` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const leftState = editorSetup.createStateConfig({
  description: 'The person left the page.',
  type: 'final',
});

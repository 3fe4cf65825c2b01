/** The editor's `notFound` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const notFoundState = editorSetup.createStateConfig({
  description: 'No such record (or not on this site): nothing to edit.',
  on: { 'editor.leave': { target: 'left', actions: 'leave' } },
});

/** The editor's `loadFailed` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const loadFailedState = editorSetup.createStateConfig({
  description: 'The record could not be read; the person may try again.',
  on: {
    'editor.reload': 'loading',
    'editor.leave': { target: 'left', actions: 'leave' },
  },
});

/** The editor's `conflict` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const conflictState = editorSetup.createStateConfig({
  description: 'Someone else saved first: the draft cannot be saved over their version; reload (discarding it) or leave.',
  on: {
    'editor.reload': 'loading',
    'editor.leave': { target: 'confirmingLeave' },
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
});

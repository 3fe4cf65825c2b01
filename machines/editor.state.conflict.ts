/** The editor's `conflict` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { draftOwner } from './editor.setup';

export const conflictState = editorSetup.createStateConfig({
  description: 'Someone else saved first: the draft cannot be saved over their version; reload (discarding it) or leave.',
  on: {
    // Reload discards the draft: its kept copy goes too (it was typed on a version that is gone).
    'editor.reload': { target: 'loading', actions: { type: 'forgetDraft', params: ({ context }) => draftOwner(context) } },
    'editor.leave': { target: 'confirmingLeave' },
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
});

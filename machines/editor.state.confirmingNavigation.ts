/** The editor's `confirmingNavigation` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';

export const confirmingNavigationState = editorSetup.createStateConfig({
  description: 'Unsaved changes and the person went elsewhere (a tab, the back button): the router waits while they confirm leaving (the changes are discarded) or stay.',
  on: {
    // Leaving discards the changes: their kept draft goes too.
    'editor.leaveConfirm': { target: 'left', actions: { type: 'forgetDraft', params: ({ context }) => draftOwner(context) } },
    'editor.leaveCancel': { target: 'editing' },
    // The record moved by a save on this page: the version follows, and so does the kept draft.
    'editor.recordMoved': {
      guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
      actions: [
        { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
        { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
      ],
    },
  },
});

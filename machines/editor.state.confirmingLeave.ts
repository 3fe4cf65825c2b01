/** The editor's `confirmingLeave` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';

export const confirmingLeaveState = editorSetup.createStateConfig({
  description: 'Unsaved changes: the person confirms leaving (they are discarded) or stays.',
  on: {
    // Leaving discards the changes: their kept draft goes too.
    'editor.leaveConfirm': { target: 'left', actions: [{ type: 'forgetDraft', params: ({ context }) => draftOwner(context) }, 'leave'] },
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

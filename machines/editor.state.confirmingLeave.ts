/** The editor's `confirmingLeave` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const confirmingLeaveState = editorSetup.createStateConfig({
  description: 'Unsaved changes: the person confirms leaving (they are discarded) or stays.',
  on: {
    // Leaving discards the changes: their kept draft goes too.
    'editor.leaveConfirm': { target: 'left', actions: [{ type: 'forgetDraft', params: ({ context }) => ({ id: context.id }) }, 'leave'] },
    'editor.leaveCancel': { target: 'editing' },
    'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
  },
});

/** The editor's `confirmingLeave` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const confirmingLeaveState = editorSetup.createStateConfig({
  description: 'Unsaved changes: the person confirms leaving (they are discarded) or stays.',
  on: {
    'editor.leaveConfirm': { target: 'left', actions: 'leave' },
    'editor.leaveCancel': { target: 'editing' },
    'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
  },
});

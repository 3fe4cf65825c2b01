/** The editor's `confirmingNavigation` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const confirmingNavigationState = editorSetup.createStateConfig({
  description: 'Unsaved changes and the person went elsewhere (a tab, the back button): the router waits while they confirm leaving (the changes are discarded) or stay.',
  on: {
    // Leaving discards the changes: their kept draft goes too.
    'editor.leaveConfirm': { target: 'left', actions: { type: 'forgetDraft', params: ({ context }) => ({ id: context.id }) } },
    'editor.leaveCancel': { target: 'editing' },
    'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
  },
});

/** The editor's `failed` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const failedState = editorSetup.createStateConfig({
  description: 'The save failed (refused or unreachable); the draft is kept to try again or change.',
  on: {
    'editor.save': 'saving',
    'editor.change': { target: 'editing', actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError'] },
    'editor.discard': { target: 'editing', actions: 'discardDraft' },
    'editor.leave': { target: 'confirmingLeave' },
    'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
});

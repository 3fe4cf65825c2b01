/** The editor's `saved` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';

export const savedState = editorSetup.createStateConfig({
  description: 'The changes are stored; the form shows the new values until the next change.',
  on: {
    // The page's other editor saved this record since: read it again.
    'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, target: 'loading' },
    'editor.change': { target: 'editing', actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
    'editor.leave': { target: 'left', actions: 'leave' },
  },
});

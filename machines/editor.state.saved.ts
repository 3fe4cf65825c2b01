/** The editor's `saved` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';

export const savedState = editorSetup.createStateConfig({
  description: 'The changes are stored; the form shows the new values until the next change.',
  on: {
    // The page's other editor saved this record since: read it again, the form still editable.
    'editor.recordMoved': {
      guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
      target: 'rereading',
      actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
    },
    'editor.change': {
      target: 'editing',
      actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) }],
    },
    'editor.leave': { target: 'left', actions: 'leave' },
  },
});

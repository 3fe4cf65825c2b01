/** The editor's `failed` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';

export const failedState = editorSetup.createStateConfig({
  description: 'The save failed (refused or unreachable); the draft is kept to try again or change.',
  on: {
    'editor.save': 'saving',
    'editor.change': {
      target: 'editing',
      actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError', { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) }],
    },
    // The discarded changes' kept draft goes too (it would bring them back on a reload).
    'editor.discard': { target: 'editing', actions: ['discardDraft', { type: 'forgetDraft', params: ({ context }) => draftOwner(context) }] },
    'editor.leave': { target: 'confirmingLeave' },
    // The record moved by a save on this page: the version follows, and so does the kept draft.
    'editor.recordMoved': {
      guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
      actions: [
        { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
        { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
      ],
    },
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
});

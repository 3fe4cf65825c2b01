/** The editor's `editing` state (assembled in ./editor.machine.ts). */
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';

export const editingState = editorSetup.createStateConfig({
  description: 'The form shows the draft; changes are kept until saved or discarded.',
  on: {
    // The page's other editor saved this record: without changes here, read it again with the form
    // still editable (its other fields, e.g. a status the availability set, show as stored; what is
    // typed meanwhile stays); with changes, keep them and move the version (and the kept draft), so
    // Save is not refused for a save made on this same page (so too while a failed save or a leave
    // question keeps the changes).
    'editor.recordMoved': [
      {
        guard: { type: 'isCleanAt', params: ({ event }) => ({ version: event.from }) },
        target: 'rereading',
        actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
      },
      {
        guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
        actions: [
          { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
          { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
        ],
      },
    ],
    'editor.change': {
      actions: [
        { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError',
        { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
      ],
    },
    'editor.discard': { actions: ['discardDraft', { type: 'forgetDraft', params: ({ context }) => draftOwner(context) }] },
    'editor.save': [
      { guard: 'hasMissingRequired', actions: 'setMissingError' },
      { guard: 'breaksFieldRules', actions: 'checkDraft' },
      { guard: 'isDirty', target: 'saving' },
    ],
    'editor.leave': [
      { guard: 'isDirty', target: 'confirmingLeave' },
      { target: 'left', actions: 'leave' },
    ],
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
});

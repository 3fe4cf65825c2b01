/**
 * The editor's `rereading` state (assembled in ./editor.machine.ts; issue 38). The page's other editor
 * (the item's availability) or its artwork panel saved this record: the editor reads it again while the
 * form stays editable. Typing goes on (and is kept across a reload); the answer is merged, the way
 * Directus and react-admin do: the fields changed since the last read keep what was typed, the rest
 * take the stored values, and the version moves to the one read.
 */
import { OWN_MESSAGES } from '../common/messages';
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';
import { errorMessage } from './notify';

export const rereadingState = editorSetup.createStateConfig({
  description: 'Another save of this record on the page: reading it again while the form stays editable; what was typed is kept over what is read.',
  on: {
    'editor.change': {
      actions: [
        { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError',
        { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
      ],
    },
    'editor.discard': { actions: ['discardDraft', { type: 'forgetDraft', params: ({ context }) => draftOwner(context) }] },
    // Saved again meanwhile: read again from the start, at the version it moved to.
    'editor.recordMoved': {
      guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
      target: 'rereading',
      reenter: true,
      actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
    },
    'editor.leave': [
      { guard: 'isDirty', target: 'confirmingLeave' },
      { target: 'left', actions: 'leave' },
    ],
    'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
  },
  invoke: {
    id: 'load',
    src: 'load',
    input: ({ context }) => ({ id: context.id, ...(context.scope ? { scope: context.scope } : {}) }),
    onDone: {
      target: 'editing',
      actions: [
        { type: 'mergeRecord', params: ({ event }) => ({ record: event.output }) },
        // The kept draft follows the version read (or goes, when nothing typed differs from it).
        { type: 'keepDraft', params: ({ context }) => ({ ...draftOwner(context), version: context.version, changes: changedFields(context) }) },
      ],
    },
    // Not read: the draft stays as typed, at the version the record moved to; the form says so.
    onError: { target: 'editing', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.editorLoadFailed) }) } },
  },
});

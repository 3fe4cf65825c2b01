/** The editor's `saving` state (assembled in ./editor.machine.ts). */
import { OWN_MESSAGES } from '../common/messages';
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';
import { errorMessage } from './notify';

export const savingState = editorSetup.createStateConfig({
  description: 'Writing the changed fields with the version they were read at. Leaving is taken at once: nothing can be typed meanwhile, and the answer is not waited for.',
  on: {
    // Back (or Close) pressed while the changes are with the server (issue 38): the form is locked, so
    // nothing typed would be lost; leave at once. Leaving stops the save's answer here, so a late
    // answer brings nothing back (no Saved, no opened record). The kept draft stays until the store
    // knows the save is stored (src/adapters/form-drafts.ts drops it then, or at the next read).
    'editor.leave': { target: 'left', actions: 'leave' },
  },
  invoke: {
    id: 'save',
    src: 'save',
    input: ({ context }) => ({
      id: context.id, version: context.version, changes: changedFields(context), draft: context.draft, ...(context.scope ? { scope: context.scope } : {}),
    }),
    onDone: [
      {
        guard: { type: 'isCreated', params: ({ context, event }) => ({ before: context.id, after: event.output.id }) },
        target: 'saved',
        actions: [
          { type: 'forgetDraft', params: ({ context }) => draftOwner(context) },
          { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) },
          'announceSaved',
          { type: 'openCreated', params: ({ event }) => ({ id: event.output.id! }) },
        ],
      },
      {
        target: 'saved',
        actions: [
          { type: 'forgetDraft', params: ({ context }) => draftOwner(context) },
          { type: 'reportVersionMoved', params: ({ event }) => ({ to: event.output.version }) },
          { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) },
          'announceSaved',
        ],
      },
    ],
    onError: [
      { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'conflict', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.contentConflict) }) } },
      {
        target: 'failed',
        actions: [
          { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.editorSaveFailed) }) },
          { type: 'storeFieldErrors', params: ({ event }) => ({ error: event.error }) },
        ],
      },
    ],
  },
});

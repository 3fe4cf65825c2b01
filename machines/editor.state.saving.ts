/** The editor's `saving` state (assembled in ./editor.machine.ts). */
import { OWN_MESSAGES } from '../common/messages';
import { editorSetup } from './editor.actions';
import { changedFields, draftOwner } from './editor.setup';
import { errorMessage } from './notify';

export const savingState = editorSetup.createStateConfig({
  description: 'Writing the changed fields with the version they were read at.',
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

/** Create New's `editing` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup, KEEP_DRAFT } from './content-create.actions';

export const editingState = contentCreateSetup.createStateConfig({
  description: 'The operator fills in the form and uploads artwork; each change is kept for the tab.',
  on: {
    'create.kind': { actions: ['setKind', KEEP_DRAFT] },
    'create.change': { actions: ['setValue', KEEP_DRAFT] },
    'create.cancel': [
      { guard: 'hasTypedInput', target: 'confirmingLeave' },
      { target: 'left', actions: ['forgetDraft', 'leave'] },
    ],
    'create.navigate': { guard: 'hasTypedInput', target: 'confirmingNavigation' },
    'create.upload': { target: 'uploading', actions: { type: 'markUploading', params: ({ event }) => ({ slot: event.slot, file: event.file }) } },
    'create.submit': [
      { guard: 'incomplete', actions: 'showMissing' },
      { target: 'saving', actions: 'clearErrors' },
    ],
  },
});

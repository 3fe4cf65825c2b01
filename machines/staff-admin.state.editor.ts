/** The Staff page's `editor` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';
import type { StaffDialogInput } from './staff-dialog.machine';

export const editorState = staffAdminSetup.createStateConfig({
  description: 'The create/edit dialog child is open; its outcome decides what follows (saved → notice and reload; reload → reload).',
  invoke: {
    id: 'dialog',
    src: 'staffDialog',
    input: ({ context }): StaffDialogInput => ({
      member: context.dialogFor, grantable: context.access?.grantable ?? {}, smsRequiredBySite: context.access?.secondFactor.rule === 'required',
      keptDraft: context.dialogDraft,
    }),
    onDone: [
      {
        guard: { type: 'dialogSaved', params: ({ event }) => ({ outcome: event.output }) },
        target: 'idle',
        actions: [
          { type: 'storeSaved', params: ({ event }) => ({ outcome: event.output }) },
          'reloadList',
        ],
      },
      { guard: { type: 'dialogAskedReload', params: ({ event }) => ({ outcome: event.output }) }, target: 'idle', actions: 'reloadList' },
      { target: 'idle' },
    ],
  },
});

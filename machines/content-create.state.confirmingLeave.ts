/** Create New's `confirmingLeave` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const confirmingLeaveState = contentCreateSetup.createStateConfig({
  description: 'Typed input and the person pressed Cancel: they confirm leaving (the form is discarded) or stay.',
  on: {
    'create.leaveConfirm': { target: 'left', actions: ['forgetDraft', 'leave'] },
    'create.leaveCancel': { target: 'editing' },
    'create.cancel': {},
  },
});

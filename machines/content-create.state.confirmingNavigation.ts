/** Create New's `confirmingNavigation` state (assembled in ./content-create.machine.ts). */
import { contentCreateSetup } from './content-create.actions';

export const confirmingNavigationState = contentCreateSetup.createStateConfig({
  description: 'Typed input and the person went elsewhere (a tab, the back button): the router waits while they confirm leaving (the form is discarded) or stay.',
  on: {
    'create.leaveConfirm': { target: 'left', actions: 'forgetDraft' },
    'create.leaveCancel': { target: 'editing' },
    'create.cancel': {},
  },
});

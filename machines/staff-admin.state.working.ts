/** The Staff page's `working` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';

export const workingState = staffAdminSetup.createStateConfig({
  description: 'The confirmed action is with the server; when done, a notice and the list read again.',
  tags: ['saving'],
  invoke: {
    id: 'runAction',
    src: 'runAction',
    input: ({ context }) => ({ action: context.pending!, phoneNumber: context.phoneDraft.trim() }),
    onDone: [
      {
        guard: 'changedRule',
        target: 'idle',
        actions: [{ type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) }, 'clearPending', 'reloadList', 'tellRuleHistory'],
      },
      { target: 'idle', actions: [{ type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) }, 'clearPending', 'reloadList'] },
    ],
    onError: { target: 'idle', actions: [{ type: 'storeFailureNotice', params: ({ event }) => ({ error: event.error }) }, 'clearPending'] },
  },
});

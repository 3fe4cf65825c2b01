/** The Staff page's `confirming` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';

export const confirmingState = staffAdminSetup.createStateConfig({
  description: 'A dialog asks to confirm the chosen action (with a new mobile number for a second-factor reset).',
  on: {
    'confirm.phone': { actions: { type: 'setPhoneDraft', params: ({ event }) => ({ value: event.value }) } },
    'confirm.accept': [
      { guard: 'needsPhone', actions: 'showPhoneError' },
      { target: 'working' },
    ],
    'confirm.cancel': { target: 'idle', actions: 'clearPending' },
  },
});

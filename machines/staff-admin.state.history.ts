/** The Staff page's `history` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';

export const historyState = staffAdminSetup.createStateConfig({
  description: "A dialog shows one account's History (its revisions, read-only: a staff account cannot be restored).",
  invoke: {
    id: 'staffHistory',
    src: 'staffHistory',
    input: ({ context }) => ({ kind: 'staff' as const, objectId: context.historyOf?.id ?? '' }),
  },
  on: { 'staffHistory.close': { target: 'idle', actions: 'closeHistory' } },
});

/**
 * The first step of the sign-in machine (issue 26: the `auth` machine's restore child): read the
 * session an earlier sign-in stored, and without one, whether a sign-in was waiting for its second
 * factor when the page reloaded. Invoked by `auth` in `restoring`; it finishes with what it found and
 * `auth` decides where that leads (signed in, the enrolment, the code step, or the sign-in form). A
 * store that cannot be read counts as nothing stored.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { doneOutput } from './actor-results';
import type { PendingTwoFactor, Session } from './auth.types';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export type { PendingTwoFactor } from './auth.types';

export interface AuthRestoreOutput {
  session: Session | null;
  pendingStep: PendingTwoFactor | null;
}

export const authRestoreMachine = setup({
  types: machineTypes<{
    context: AuthRestoreOutput; output: AuthRestoreOutput;
    children: { readStoredSession: 'readStoredSession'; readPendingTwoFactor: 'readPendingTwoFactor' };
  }>(),
  actors: {
    /** Reads the session values kept in cookies/storage; null when there is no usable session. */
    readStoredSession: providedLater<Session | null>('readStoredSession'),
    /** A sign-in that was waiting for its second factor when the page reloaded, or null. */
    readPendingTwoFactor: providedLater<PendingTwoFactor | null>('readPendingTwoFactor'),
  },
  actions: {
    keepSession: assign((_, params: Session | null) => ({ session: params })),
    keepPendingStep: assign((_, params: PendingTwoFactor | null) => ({ pendingStep: params })),
  },
  guards: {
    isSession: (_, params: Session | null) => params !== null,
  },
}).createMachine({
  id: 'authRestore',
  description: 'Reading what an earlier visit left: a stored session, else a sign-in waiting for its second factor.',
  context: { session: null, pendingStep: null },
  initial: 'readingSession',
  output: ({ context }) => ({ session: context.session, pendingStep: context.pendingStep }),
  states: {
    readingSession: {
      description: 'Reading the session values stored by an earlier sign-in.',
      invoke: {
        id: 'readStoredSession',
        src: 'readStoredSession',
        onDone: [
          { guard: { type: 'isSession', params: doneOutput<Session | null> }, target: 'restored', actions: { type: 'keepSession', params: doneOutput<Session | null> } },
          { target: 'readingPendingStep' },
        ],
        onError: { target: 'restored' },
      },
    },
    readingPendingStep: {
      description: 'No session: checking whether a sign-in was waiting for its second factor when the page reloaded.',
      invoke: {
        id: 'readPendingTwoFactor',
        src: 'readPendingTwoFactor',
        onDone: { target: 'restored', actions: { type: 'keepPendingStep', params: doneOutput<PendingTwoFactor | null> } },
        onError: { target: 'restored' },
      },
    },
    restored: {
      description: 'Done: the parent takes the session or the pending step from the output.',
      type: 'final',
    },
  },
});

export type AuthRestoreMachine = typeof authRestoreMachine;
export type AuthRestoreSnapshot = SnapshotFrom<AuthRestoreMachine>;

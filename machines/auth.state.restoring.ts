/** `restoring` of the sign-in machine: the restore child reads what an earlier visit stored; this decides where that leads. */
import { authSetup } from './auth.setup';
import { pendingStep, pendingTwoFactor, RESTORED_SIGNED_IN, RESTORED_SIGNED_OUT, restoredProfile, restoredSession } from './auth.actions';

export const restoring = authSetup.createStateConfig({
  description: 'The restore child reads what an earlier visit stored: a session, else a sign-in waiting for its second factor.',
  tags: ['loading'],
  invoke: {
    id: 'restore',
    src: 'restore',
    onDone: [
      {
        guard: { type: 'isEnrolmentDue', params: restoredProfile },
        target: 'signedIn.enrolmentRequired',
        actions: [{ type: 'setSession', params: restoredSession }, { type: 'tellApp', params: RESTORED_SIGNED_IN }],
      },
      {
        guard: { type: 'hasSession', params: restoredSession },
        target: 'signedIn',
        actions: [{ type: 'setSession', params: restoredSession }, { type: 'tellApp', params: RESTORED_SIGNED_IN }],
      },
      {
        guard: { type: 'isPendingAuthenticatorStep', params: pendingStep },
        target: 'signedOut.authenticator',
        actions: [{ type: 'startTwoFactor', params: pendingTwoFactor }, { type: 'tellApp', params: RESTORED_SIGNED_OUT }],
      },
      {
        guard: { type: 'isPendingStep', params: pendingStep },
        target: 'signedOut.twoFactor',
        actions: [{ type: 'startTwoFactor', params: pendingTwoFactor }, { type: 'tellApp', params: RESTORED_SIGNED_OUT }],
      },
      { target: 'signedOut', actions: { type: 'tellApp', params: RESTORED_SIGNED_OUT } },
    ],
  },
});
/** `loadingProfile` of the sign-in machine: signed in at the server, the site profile loads before the session is stored. */
import { authSetup } from './auth.setup';
import { landingAfterSignIn, profileInput, profileOutput, signedInSession, TO_ENROLMENT, unreachable } from './auth.actions';

export const loadingProfile = authSetup.createStateConfig({
  description: 'Signed in at the server; fetching the site profile before storing the session.',
  tags: ['submitting'],
  invoke: {
    id: 'fetchProfile',
    src: 'fetchProfile',
    input: profileInput,
    onDone: [
      {
        guard: { type: 'isEnrolmentDue', params: profileOutput },
        target: 'signedIn.enrolmentRequired',
        actions: [
          { type: 'storeSession', params: signedInSession },
          { type: 'setSession', params: signedInSession },
          { type: 'navigate', params: TO_ENROLMENT },
        ],
      },
      {
        target: 'signedIn',
        actions: [
          { type: 'storeSession', params: signedInSession },
          { type: 'setSession', params: signedInSession },
          { type: 'prefetchLanding', params: landingAfterSignIn },
          { type: 'navigate', params: landingAfterSignIn },
          'clearReturnTo',
        ],
      },
    ],
    onError: {
      target: 'signedOut',
      actions: ['clearSession', { type: 'setError', params: unreachable }, { type: 'notify', params: unreachable }],
    },
  },
});
/** `signedIn` of the sign-in machine: the console is open, or only the two-factor page while the required app is not set up. */
import { authSetup } from './auth.setup';
import { checkedArea, checkedRoute, forbiddenArea, landingAfterSignIn, landingOfRoles, SIGNED_OUT, sessionReport, TO_ENROLMENT } from './auth.actions';

export const signedIn = authSetup.createStateConfig({
  description: 'A session is stored; the console is open.',
  entry: { type: 'tellApp', params: sessionReport },
  exit: { type: 'tellApp', params: SIGNED_OUT },
  on: {
    'auth.signedOut': { target: 'signedOut', actions: 'clearSession' },
  },
  initial: 'active',
  states: {
    active: {
      description: 'Every area the roles allow is open.',
      on: {
        'route.check': [
          { guard: { type: 'isSignInRoute', params: checkedRoute }, actions: { type: 'redirectRoute', params: landingOfRoles } },
          { guard: { type: 'isAreaWithoutRole', params: checkedArea }, actions: { type: 'forbidRoute', params: forbiddenArea } },
          { actions: 'allowRoute' },
        ],
      },
    },
    enrolmentRequired: {
      description: "The site requires an authenticator app this user has not set up: only the account's two-factor page (and sign-out) until it is.",
      on: {
        'route.check': [
          { guard: { type: 'isEnrolmentRoute', params: checkedRoute }, actions: 'allowRoute' },
          { actions: { type: 'redirectRoute', params: TO_ENROLMENT } },
        ],
        'authenticator.enrolled': { target: 'active', actions: [{ type: 'navigate', params: landingAfterSignIn }, 'clearReturnTo'] },
      },
    },
  },
});
/** `idle` of the password flows: nothing under way; the forgot-password form or the header menu starts a flow. */
import { SIGN_IN_OWN_MESSAGES } from '../common/messages/sign-in';
import { changeFlow, forgotFlow } from './forgot-password.actions';
import { forgotPasswordSetup } from './forgot-password.setup';

export const idle = forgotPasswordSetup.createStateConfig({
  description: 'No flow under way: the forgot-password form, or the header menu, starts one.',
  on: {
    'forgot.submit': [
      { guard: 'isUsernameMissing', actions: { type: 'setError', params: { message: SIGN_IN_OWN_MESSAGES.usernameRequired } } },
      { target: 'requesting', actions: { type: 'startFlow', params: forgotFlow } },
    ],
    'change.start': { guard: 'isSignedIn', target: 'generating', actions: { type: 'startFlow', params: changeFlow } },
  },
});

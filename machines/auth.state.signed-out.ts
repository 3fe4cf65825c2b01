/**
 * `signedOut` of the sign-in machine: the sign-in form (its text is context), the credentials or the
 * identity provider with the server, then the second factor (the otpStep or authenticatorStep child).
 * The device id is fetched meanwhile and handed to a step that started before it arrived.
 */
import { ROUTES } from '../common/constants';
import { SIGN_IN_OWN_MESSAGES as OWN_MESSAGES } from '../common/messages/sign-in';
import { doneOutput } from './actor-results';
import {
  authenticatorStep, authenticatorStepEvent, authenticatorStepInput, checkedRoute, deviceIdOutput, loginInput, loginRefusal, otpStepInput,
  socialFailure, socialSignInInput, TO_SIGN_IN, twoFactorStep, typedPassword, typedUsername, unreachable,
} from './auth.actions';
import { authSetup } from './auth.setup';
import { requestState } from './request-state';

/**
 * The router's question before a page opens, while nobody is signed in (also while a sign-in is under
 * way): a public page opens; any other goes to sign-in, which returns there afterwards.
 */
export const ROUTE_CHECK_SIGNED_OUT = [
  { guard: { type: 'isPublicRoute', params: checkedRoute }, actions: 'allowRoute' },
  { actions: [{ type: 'rememberReturnTo', params: checkedRoute }, { type: 'redirectRoute', params: TO_SIGN_IN }] },
] as const;

/**
 * What an accepted login answer leads to, for the password and the social sign-in alike (spec §4.1
 * steps 2-4): the authenticator or the SMS step when isTwoFactorOnLogin, else the profile and the
 * landing route. A refusal is shown once, inline under the form (not also in the snackbar).
 */
const LOGIN_ACCEPTED = [
  {
    guard: { type: 'isTwoFactor', params: doneOutput },
    target: 'twoFactor',
    actions: [
      { type: 'startTwoFactor', params: twoFactorStep },
      { type: 'storeOtpUsername', params: twoFactorStep },
      { type: 'navigate', params: { to: ROUTES.verifyNumber } },
    ],
  },
  { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput } },
] as const;
/** A second factor, and that factor is the authenticator app (issue 19). */
const TO_AUTHENTICATOR = {
  guard: { type: 'isAuthenticatorStep', params: doneOutput },
  target: 'authenticator',
  actions: [
    { type: 'startTwoFactor', params: authenticatorStep },
    { type: 'storeOtpUsername', params: authenticatorStep },
    { type: 'navigate', params: { to: ROUTES.verifyNumber } },
  ],
} as const;

const FORWARD = { actions: { type: 'forwardToAuthenticatorStep', params: authenticatorStepEvent } } as const;

export const signedOut = authSetup.createStateConfig({
  description: 'Nobody is signed in; the sign-in page takes credentials. The device id is fetched meanwhile.',
  initial: 'idle',
  // What was typed does not outlive the sign-in page's use.
  exit: 'clearForm',
  invoke: {
    id: 'getDeviceId',
    src: 'getDeviceId',
    onDone: [
      {
        guard: 'isInCodeStep',
        actions: [{ type: 'setDeviceId', params: deviceIdOutput }, { type: 'tellOtpStepDevice', params: deviceIdOutput }],
      },
      {
        guard: 'isInAuthenticatorStep',
        actions: [{ type: 'setDeviceId', params: deviceIdOutput }, { type: 'tellAuthenticatorStepDevice', params: deviceIdOutput }],
      },
      { actions: { type: 'setDeviceId', params: deviceIdOutput } },
    ],
  },
  on: {
    'form.usernameChanged': { actions: { type: 'setUsername', params: typedUsername } },
    'form.passwordChanged': { actions: { type: 'setPassword', params: typedPassword } },
    'login.submit': [
      { guard: 'isUsernameMissing', target: '.idle', actions: { type: 'setError', params: { message: OWN_MESSAGES.usernameRequired } } },
      { guard: 'isPasswordMissing', target: '.idle', actions: { type: 'setError', params: { message: OWN_MESSAGES.passwordRequired } } },
      { target: '.submitting', actions: 'clearError' },
    ],
    'login.social': { target: '.socialSigningIn', actions: 'clearError' },
  },
  states: {
    idle: {
      description: 'Waiting for credentials; shows the last error, if any.',
    },
    submitting: requestState({
      src: 'login',
      description: 'The credentials are with the server.',
      tags: ['submitting'],
      input: loginInput,
      retry: 'idle',
      refused: { message: loginRefusal, to: ['setError'] },
      failed: { message: unreachable },
      succeeded: [TO_AUTHENTICATOR, ...LOGIN_ACCEPTED],
    }),
    socialSigningIn: requestState({
      src: 'socialSignIn',
      description: "The identity provider's popup is open, then its ID token is with the server.",
      tags: ['submitting', 'social'],
      input: socialSignInInput,
      retry: 'idle',
      refused: { message: loginRefusal, to: ['setError'] },
      failed: { message: socialFailure },
      succeeded: [TO_AUTHENTICATOR, ...LOGIN_ACCEPTED],
    }),
    twoFactor: {
      description: 'The code step of /verify-number, run by the otpStep child (isLogin true).',
      invoke: {
        id: 'otpStep',
        src: 'otpStep',
        input: otpStepInput,
        onDone: { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput } },
      },
    },
    authenticator: {
      description: "The authenticator-app step of /verify-number (issue 19), run by the authenticatorStep child: the app's 6-digit code, or a recovery code.",
      on: {
        'authenticator.edit': FORWARD,
        'authenticator.submit': FORWARD,
        'authenticator.useRecovery': FORWARD,
        'authenticator.useApp': FORWARD,
      },
      invoke: {
        id: 'authenticatorStep',
        src: 'authenticatorStep',
        input: authenticatorStepInput,
        onDone: { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput } },
      },
    },
  },
});
